/**
 * Issue 5's "done when" for `mcpctl call`, on the built CLI (`npm run build` first): 1 MB of text
 * comes back cut under the output budget with `"truncated": true`, and an image comes back as a
 * path to a file holding exactly the image's bytes. Sizes are printed for the closing note.
 */
import { Everything } from "@mcpctl/testing"
import { afterAll, describe, expect, it } from "@effect/vitest"
import * as fixtures from "@mcpctl/testing/Fixtures"
import { workspace } from "./support.js"
// In process: what is checked is output and exit codes, which a spawn adds nothing to (inProcess.ts).
import { runInProcess as run } from "./inProcess.js"
import { readFileSync, statSync } from "node:fs"
import { dirname, join } from "node:path"

const ws = workspace()
const { dir, home } = ws
afterAll(() => ws.cleanup())

const settings = ws.settings("settings.json", {
  mcpServers: {
    echo: { command: "node", args: [fixtures.echoServer] },
    everything: { command: "node", args: [Everything.everythingServer, "stdio"] }
  },
  permissions: { allow: ["mcp__echo__big", "mcp__everything__get-tiny-image"] }
})

/** The default budget: MAX_MCP_OUTPUT_TOKENS 25,000 at about 4 characters a token. */
const BUDGET_CHARS = 25_000 * 4
const MB = 1_000_000

/** The built CLI on this file's settings, home and directory (see support.ts). */
const mcpctl = (...args: Array<string>) =>
  run([...args, "--config", settings], { home, cwd: dir })

describe("mcpctl call output", () => {
  it("1 MB of text is cut under the budget with truncated: true and a marker", async () => {
    const r = await mcpctl("call", "mcp__echo__big", `chars=${MB}`, "--json")
    expect(r.code).toBe(0)
    const doc = JSON.parse(r.stdout)
    expect(doc.truncated).toBe(true)
    const text: string = doc.content.map((c: { text?: string }) => c.text ?? "").join("")
    expect(text.length).toBeLessThanOrEqual(BUDGET_CHARS)
    expect(text.length).toBeGreaterThan(BUDGET_CHARS * 0.9)
    expect(text).toMatch(/truncated: [\d,]+ more characters; raise MAX_MCP_OUTPUT_TOKENS/)
    expect(text.startsWith("0123456789abcdefghijklmnopqrstuvwxyz0123")).toBe(true)

    const human = await mcpctl("call", "mcp__echo__big", `chars=${MB}`)
    expect(human.code).toBe(0)
    expect(human.stdout.length).toBeLessThanOrEqual(BUDGET_CHARS + 1)
    expect(human.stderr).toContain("note: text cut")
    console.log(
      `call big chars=${MB}: server sent ${MB} characters; --json stdout ${r.stdout.length} bytes, ` +
        `text kept ${text.length} characters (budget ${BUDGET_CHARS}); human stdout ${human.stdout.length} bytes`
    )
  })

  it("an image comes back as a path to a file with exactly the image's bytes", async () => {
    const { MCP_TINY_IMAGE } = (await import(join(dirname(Everything.everythingServer), "tools/get-tiny-image.js"))) as {
      MCP_TINY_IMAGE: string
    }
    const expected = Buffer.from(MCP_TINY_IMAGE, "base64")
    const r = await mcpctl("call", "mcp__everything__get-tiny-image", "--json")
    expect(r.code).toBe(0)
    const doc = JSON.parse(r.stdout)
    expect(r.stdout).not.toContain(MCP_TINY_IMAGE.slice(0, 200))
    expect(doc.files).toHaveLength(1)
    const file = doc.files[0]
    expect(file).toMatchObject({ type: "file", mimeType: "image/png", bytes: expected.length, originalType: "image" })
    expect(file.path.startsWith(join(home, "outputs"))).toBe(true)
    expect(file.path).toMatch(/\.png$/)
    expect(Buffer.compare(readFileSync(file.path), expected)).toBe(0)

    const human = await mcpctl("call", "mcp__everything__get-tiny-image")
    expect(human.code).toBe(0)
    const path = /saved to (\S+)\]/.exec(human.stdout)?.[1]
    expect(path).toBe(file.path)
    console.log(
      `call get-tiny-image: image ${expected.length} bytes (${MCP_TINY_IMAGE.length} base64 characters) saved to ` +
        `${file.path} (${statSync(file.path).size} bytes on disk); --json stdout ${r.stdout.length} bytes, ` +
        `human stdout ${human.stdout.length} bytes`
    )
  })
})
