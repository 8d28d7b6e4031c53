/**
 * `mcpctl resources|read|prompts|prompt`, `--log-level` and the call progress line, run as the
 * built CLI (`npm run build` first) against server-everything and a fixture (known blob bytes,
 * one log message per level).
 */
import { Everything } from "@mcpctl/testing"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { cliBin, run, runCommand, slow, workspace } from "./support.js"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { logLevelFromArgv } from "../src/Flags.js"

const fixture = fileURLToPath(new URL("./fixtures/host-fixture.mjs", import.meta.url))
/** The fixture's bytes: every byte value, twice. */
const BYTES = Buffer.from([...Array(512).keys()].map((i) => i % 256))

const ws = workspace()
const { dir, home } = ws
afterAll(() => ws.cleanup())

const settings = ws.settings("settings.json", {
  mcpServers: {
    everything: { command: "node", args: [Everything.everythingServer, "stdio"] },
    blobs: { command: "node", args: [fixture] }
  },
  permissions: { allow: ["mcp__everything", "mcp__blobs__log"] }
})


/** The built CLI on this file's settings, home and directory (see support.ts). */
const mcpctl = (...args: Array<string>) =>
  run([...args, "--config", settings], { home, cwd: dir })

describe("mcpctl resources / read", () => {
  it("resources --json lists resources and templates of every server", async () => {
    const r = await mcpctl("resources", "--json")
    expect(r.code).toBe(0)
    const doc = JSON.parse(r.stdout)
    expect(doc.errors).toEqual([])
    const doc1 = doc.resources.find((x: { uri: string }) => x.uri === "demo://resource/static/document/features.md")
    expect(doc1).toMatchObject({ server: "everything", name: "features.md", mimeType: "text/markdown" })
    expect(doc.resources.find((x: { uri: string }) => x.uri === "test://bytes")).toMatchObject({
      server: "blobs",
      name: "bytes",
      mimeType: "application/octet-stream"
    })
    expect(doc.templates.map((t: { uriTemplate: string }) => t.uriTemplate)).toContain(
      "demo://resource/dynamic/blob/{resourceId}"
    )
  })

  it("resources SERVER prints an aligned table of that server only", async () => {
    const r = await mcpctl("resources", "blobs")
    expect(r.code).toBe(0)
    const lines = r.stdout.trimEnd().split("\n")
    expect(lines[0]).toMatch(/^SERVER\s+URI\s+MIME\s+NAME$/)
    expect(lines[0]!.indexOf("URI")).toBe(lines[1]!.indexOf("test://"))
    expect(r.stdout).not.toContain("everything")
  })

  it("read prints a text resource", async () => {
    const r = await mcpctl("read", "everything", "demo://resource/dynamic/text/4")
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^Resource 4: This is a plaintext resource created at /)
  })

  it("read saves a blob under $MCPCTL_HOME/outputs with exactly the decoded bytes", async () => {
    const r = await mcpctl("read", "blobs", "test://bytes")
    expect(r.code).toBe(0)
    const path = /saved to (\S+)\]/.exec(r.stdout)?.[1]
    expect(path?.startsWith(join(home, "outputs"))).toBe(true)
    expect(Buffer.compare(readFileSync(path!), BYTES)).toBe(0)

    const j = await mcpctl("read", "blobs", "test://image.png", "--json")
    expect(j.code).toBe(0)
    const doc = JSON.parse(j.stdout)
    expect(doc.contents).toEqual([
      expect.objectContaining({ type: "file", uri: "test://image.png", mimeType: "image/png", bytes: 512 })
    ])
    expect(doc.files[0].path).toMatch(/\.png$/)
    expect(j.stdout).not.toContain(BYTES.toString("base64"))
    expect(Buffer.compare(readFileSync(doc.files[0].path), BYTES)).toBe(0)
  })

  it("read --out FILE writes the decoded bytes there", async () => {
    const file = join(dir, "bytes.bin")
    const r = await mcpctl("read", "blobs", "test://bytes", "--out", file)
    expect(r.code).toBe(0)
    expect(r.stdout).toBe("")
    expect(Buffer.compare(readFileSync(file), BYTES)).toBe(0)
  })

  it("read of an unknown server is a usage error (exit 2) with a JSON error document", async () => {
    const r = await mcpctl("read", "nope", "test://x", "--json")
    expect(r.code).toBe(2)
    expect(JSON.parse(r.stdout).error).toMatchObject({ type: "UsageError", exitCode: 2, message: expect.stringContaining(`"nope"`) })
  })
})

describe("mcpctl prompts / prompt", () => {
  it("prompts --json lists prompts with their declared arguments", async () => {
    const r = await mcpctl("prompts", "everything", "--json")
    expect(r.code).toBe(0)
    const { errors, prompts } = JSON.parse(r.stdout)
    expect(errors).toEqual([])
    const args = prompts.find((p: { name: string }) => p.name === "args-prompt")
    expect(args).toMatchObject({
      server: "everything",
      arguments: [
        { name: "city", required: true, description: "Name of the city" },
        { name: "state", required: false }
      ]
    })
  })

  it("prompt fills arguments and prints the messages", async () => {
    const r = await mcpctl("prompt", "everything", "args-prompt", "city=Paris", "state=TX")
    expect(r.code).toBe(0)
    expect(r.stdout).toBe("[user]\nWhat's weather in Paris, TX?\n")
    const j = await mcpctl("prompt", "everything", "args-prompt", "city=Paris", "--json")
    expect(JSON.parse(j.stdout)).toMatchObject({
      server: "everything",
      name: "args-prompt",
      messages: [{ role: "user", content: { type: "text", text: "What's weather in Paris?" } }],
      files: []
    })
  })

  it("prompt without a required argument is exit 2 naming it and the declared ones", async () => {
    const r = await mcpctl("prompt", "everything", "args-prompt", "state=TX")
    expect(r.code).toBe(2)
    expect(r.stdout).toBe("")
    expect(r.stderr).toContain("missing required argument city")
    expect(r.stderr).toContain("city (required), state")
    const j = await mcpctl("prompt", "everything", "args-prompt", "--json")
    expect(j.code).toBe(2)
    expect(JSON.parse(j.stdout).error).toMatchObject({ type: "UsageError", exitCode: 2 })
  })

  it("prompt with an unknown argument is exit 2", async () => {
    const r = await mcpctl("prompt", "everything", "args-prompt", "city=Paris", "zip=75001")
    expect(r.code).toBe(2)
    expect(r.stderr).toContain("no argument zip")
  })

  it("prompt saves embedded blob resources to files", async () => {
    const r = await mcpctl("prompt", "everything", "resource-prompt", "resourceType=Blob", "resourceId=2", "--json")
    expect(r.code).toBe(0)
    const doc = JSON.parse(r.stdout)
    expect(doc.messages[1].content).toMatchObject({ type: "file", uri: "demo://resource/dynamic/blob/2" })
    expect(readFileSync(doc.files[0].path, "utf8")).toMatch(/^Resource 2: This is a base64 blob/)
  })
})

describe("server logs and progress", () => {
  it("reads --log-level from the command line (the @effect/cli built-in hides shared names)", () => {
    expect(logLevelFromArgv(["call", "x", "--log-level", "error"])).toBe("error")
    expect(logLevelFromArgv(["call", "--log-level=notice"])).toBe("notice")
    expect(logLevelFromArgv(["call", "--log-level", "fatal"])).toBe("critical")
    expect(logLevelFromArgv(["call"])).toBeUndefined()
    expect(logLevelFromArgv(["add", "s", "--", "server", "--log-level", "debug"])).toBeUndefined()
  })

  it("server log messages go to stderr at --log-level and above; --json stdout stays one document", async () => {
    const lines = (stderr: string) => stderr.split("\n").filter((l) => l.startsWith("[blobs/fixture]"))
    const r = await mcpctl("call", "mcp__blobs__log", "--json", "--log-level", "error")
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout).content).toEqual([{ type: "text", text: "logged" }])
    expect(lines(r.stderr)).toEqual([
      "[blobs/fixture] error: error message",
      "[blobs/fixture] critical: critical message",
      "[blobs/fixture] alert: alert message",
      "[blobs/fixture] emergency: emergency message"
    ])
    // Default: warning and above.
    const d = await mcpctl("call", "mcp__blobs__log")
    expect(d.stdout).toBe("logged\n")
    expect(lines(d.stderr)[0]).toBe("[blobs/fixture] warning: warning message")
    expect(lines(d.stderr).length).toBe(5)
    const all = await mcpctl("call", "mcp__blobs__log", "--log-level", "debug")
    expect(lines(all.stderr).length).toBe(8)
  })

  // `script` (util-linux, in Debian's essential bsdutils) gives the CLI a real pseudo-terminal.
  it("a long call shows progress on a terminal, as one updating line", async () => {
    const cmd = [
      process.execPath,
      cliBin,
      "call",
      "mcp__everything__trigger-long-running-operation",
      "--args",
      `'{"duration":0.8,"steps":4}'`,
      "--config",
      settings
    ].join(" ")
    const r = await runCommand("script", ["-qec", cmd, "/dev/null"], {
      env: { ...process.env, MCPCTL_HOME: home },
      timeout: slow(30_000)
    })
    expect(r.status).toBe(0)
    expect(r.stdout).toContain("\r\x1b[Kmcp__everything__trigger-long-running-operation: 1/4 (25%)")
    expect(r.stdout).toContain("Long running operation completed")

    // Not a terminal: no progress line at all.
    const plain = await mcpctl(
      "call",
      "mcp__everything__trigger-long-running-operation",
      "--args",
      `{"duration":0.4,"steps":2}`
    )
    expect(plain.code).toBe(0)
    expect(plain.stderr).not.toContain("1/2")
  })
})
