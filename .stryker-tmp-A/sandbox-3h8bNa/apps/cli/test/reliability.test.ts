/**
 * What a hostile server does to a whole CLI run, and what the user sees: the built CLI against
 * the hostile fixture over stdio. Each fault fails fast and honestly, and under `--json` every
 * failure is one `{"error": …}` document.
 */
// @ts-nocheck

import { afterAll, describe, expect, it } from "@effect/vitest"
import * as fixtures from "@mcpctl/testing/Fixtures"
import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { run, slow, workspace } from "./support.js"

const ws = workspace()
afterAll(() => ws.cleanup())
const home = ws.home

const hostile = ws.settings("hostile.json", {
  mcpServers: { h: { command: "node", args: [fixtures.hostileServer] } },
  permissions: { allow: ["mcp__h__*"] }
})

const call = async (tool: string, args: ReadonlyArray<string> = [], env: Record<string, string> = {}) => {
  const started = Date.now()
  const r = await run(["call", `mcp__h__${tool}`, ...args, "--config", hostile, "--json"], { home, env })
  return { ...r, ms: Date.now() - started, doc: JSON.parse(r.stdout) }
}

describe("mcpctl against a hostile server", () => {
  it("a ReDoS output schema (^(a+)+$, 40 a and a !) fails validation at once, not after minutes", async () => {
    const r = await call("redos")
    expect(r.code).toBe(4)
    expect(r.doc.error.message).toMatch(/Structured content does not match the tool's output schema: data\/s must match pattern/)
    expect(r.ms).toBeLessThan(slow(10_000))
  })

  it("an answer of 40 MB fails its call with size and limit (it was dropped silently, the call then hung)", async () => {
    const r = await call("bomb", ["bytes=40000000"])
    expect(r.code).toBe(4)
    expect(r.doc.error).toMatchObject({ type: "McpRequestError", code: -32070 })
    expect(r.doc.error.message).toMatch(/sent a message of more than [\d,]+ bytes .*over the limit of 33,554,432 bytes \(32 MiB\)/)
  })

  it("MCPCTL_MAX_RESPONSE_BYTES sets the limit", async () => {
    const r = await call("bomb", ["bytes=2000"], { MCPCTL_MAX_RESPONSE_BYTES: "1000" })
    expect(r.doc.error.message).toMatch(/over the limit of 1,000 bytes/)
    const fits = await call("bomb", ["bytes=2000"], { MCPCTL_MAX_RESPONSE_BYTES: "100000" })
    expect(fits.code).toBe(0)
  })

  it("structuredContent 5,000 levels deep: one JSON document, cut at 64 levels (was a stack overflow, exit 70, empty stdout)", async () => {
    const r = await call("deep", ["depth=5000"])
    expect(r.code).toBe(0)
    expect(r.doc.truncated).toBe(true)
    expect(r.doc.notes).toContain('1 value(s) nested deeper than 64 levels replaced by "…"')
    expect(r.stdout.length).toBeLessThan(100_000 + 1_000)
  })

  it("300,000 empty text items: the printed document stays within the budget (was 15.6 MB, truncated: false)", async () => {
    const r = await call("items", ["count=300000"])
    expect(r.code).toBe(0)
    expect(r.doc.truncated).toBe(true)
    expect(r.stdout.length).toBeLessThan(100_000 + 1_000)
    expect(r.doc.content.at(-1).text).toMatch(/^… \[dropped: 29\d,\d{3} more content items/)
  })

  it("a server that never initializes costs one MCP_TIMEOUT, not two, and is started once", async () => {
    const log = join(ws.dir, "never.log")
    const file = ws.settings("never.json", {
      mcpServers: { never: { command: "node", args: [fixtures.echoServer, "--never-initialize", "--start-log", log] } }
    })
    // The timeout grows with the machine's slowdown, as mcpctl's own start-up does: one timeout
    // plus that start-up stays below two timeouts however loaded the machine is.
    const timeout = slow(1500)
    const started = Date.now()
    const r = await run(["tools", "--config", file, "--json"], { home, env: { MCP_TIMEOUT: String(timeout) } })
    const ms = Date.now() - started
    expect(JSON.parse(r.stdout).errors).toEqual([
      { server: "never", status: "failed", message: expect.stringContaining(`did not finish connecting within ${timeout} ms`) }
    ])
    expect(readFileSync(log, "utf8").trim().split("\n").filter((l) => l.includes(" start "))).toHaveLength(1)
    expect(ms).toBeLessThan(2 * timeout)
  })

  it("a FIFO as the settings file is refused at once (it hung every command)", async () => {
    const fifo = join(ws.dir, "fifo.json")
    execFileSync("mkfifo", [fifo])
    const started = Date.now()
    const r = await run(["tools", "--config", fifo, "--json"], { home })
    expect(Date.now() - started).toBeLessThan(slow(10_000))
    expect(r.code).toBe(2)
    expect(JSON.parse(r.stdout).error.message).toMatch(/is a FIFO \(named pipe\), not a regular file/)
  })

  it("a bad command line under --json is one {\"error\"} document too", async () => {
    const r = await run(["call", "--json"], { home })
    expect(r.code).toBe(2)
    expect(JSON.parse(r.stdout)).toEqual({ error: { type: "UsageError", message: "Missing argument <name>", exitCode: 2 } })
  })
})
