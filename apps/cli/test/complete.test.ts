/**
 * `mcpctl complete` and the metadata (`title`, `icons`) in `tools|resources|prompts --json`, run
 * as the built CLI against a real SDK v2 server (fixtures/v2-metadata-server.mjs).
 */
import { Fixtures } from "@mcpctl/testing"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { workspace } from "./support.js"
// In process: what is checked is output and exit codes, which a spawn adds nothing to (inProcess.ts).
import { runInProcess as run } from "./inProcess.js"

const ws = workspace()
afterAll(() => ws.cleanup())

const settings = ws.settings("settings.json", {
  mcpServers: { meta: { command: process.execPath, args: [Fixtures.v2MetadataServer] } }
})

const mcpctl = (...args: Array<string>) => run([...args, "--config", settings], { home: ws.home, cwd: ws.dir })

const icon = (name: string, theme?: string) => ({
  src: `https://icons.example.test/${name}.png`,
  mimeType: "image/png",
  sizes: ["48x48"],
  ...(theme ? { theme } : {})
})

describe("mcpctl complete", () => {
  it("prompt argument: the values, narrowed by --context", async () => {
    const r = await mcpctl("complete", "meta", "prompt", "review", "language", "t", "--context", "style=strict", "--json")
    expect(r.stderr).toBe("")
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual({
      server: "meta",
      ref: { type: "ref/prompt", name: "review" },
      argument: "language",
      prefix: "t",
      values: ["typescript"],
      total: 1,
      hasMore: false
    })
    const relaxed = await mcpctl("complete", "meta", "prompt", "review", "language", "", "--context", "style=relaxed")
    expect(relaxed.code).toBe(0)
    expect(relaxed.stdout.split("\n").filter(Boolean)).toEqual(["javascript", "python", "typescript"])
  })

  it("resource template variable, one value a line", async () => {
    const r = await mcpctl("complete", "meta", "resource", "file:///{path}", "path", "src/")
    expect(r.code).toBe(0)
    expect(r.stdout).toBe("src/index.ts\nsrc/main.ts\n")
  })

  it("no prefix completes from nothing; no match says so on stderr", async () => {
    const all = await mcpctl("complete", "meta", "resource", "file:///{path}", "path", "--json")
    expect(JSON.parse(all.stdout).values).toHaveLength(4)
    const none = await mcpctl("complete", "meta", "resource", "file:///{path}", "path", "zzz")
    expect(none.code).toBe(0)
    expect(none.stdout).toBe("")
    expect(none.stderr).toContain("No completions for path from meta")
  })

  it("an unknown server is a usage error; a bad --context pair too", async () => {
    const unknown = await mcpctl("complete", "mta", "prompt", "review", "language", "t")
    expect(unknown.code).toBe(2)
    const bad = await mcpctl("complete", "meta", "prompt", "review", "language", "t", "--context", "style")
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain("is not key=value")
  })
})

describe("metadata in --json listings", () => {
  it("tools --json: title and icons", async () => {
    const r = await mcpctl("tools", "--json")
    expect(r.code).toBe(0)
    const paint = JSON.parse(r.stdout).tools.find((t: { tool: string }) => t.tool === "paint")
    expect(paint).toMatchObject({ title: "Paint", icons: [icon("paint", "light"), icon("paint-dark", "dark")] })
  })

  it("resources --json: title and icons of resources and templates", async () => {
    const r = await mcpctl("resources", "--json")
    expect(r.code).toBe(0)
    const doc = JSON.parse(r.stdout)
    expect(doc.resources).toEqual([expect.objectContaining({ uri: "doc://readme", title: "Read me", icons: [icon("doc")] })])
    expect(doc.templates).toEqual([expect.objectContaining({ uriTemplate: "file:///{path}", title: "A file", icons: [icon("file")] })])
  })

  it("prompts --json: title and icons", async () => {
    const r = await mcpctl("prompts", "--json")
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout).prompts).toEqual([expect.objectContaining({ name: "review", title: "Code review", icons: [icon("review")] })])
  })
})
