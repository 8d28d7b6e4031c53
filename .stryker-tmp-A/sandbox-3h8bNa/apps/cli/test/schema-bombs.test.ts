/**
 * A whole CLI run against output schemas built to make checking them expensive: the check runs
 * in a worker thread, so SIGTERM, the tool timeout and the exit still work while it runs (before,
 * the event loop was pinned: `uniqueItems` over 20,000 items ignored MCP_TOOL_TIMEOUT, SIGTERM
 * and SIGINT for ~30 s).
 */
// @ts-nocheck

import { afterAll, describe, expect, it } from "@effect/vitest"
import { spawn } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { cliBin, repoRoot, run, slow, workspace } from "./support.js"

const ws = workspace()
afterAll(() => ws.cleanup())
const bombServer = join(repoRoot, "packages/core/test/support/schemaBombServer.mjs")
const ready = join(ws.dir, "answered.txt")
const settings = ws.settings("bombs.json", {
  mcpServers: { b: { command: process.execPath, args: [bombServer, "--ready-file", ready] } },
  permissions: { allow: ["mcp__b__*"] }
})

describe("mcpctl while an output-schema check runs", () => {
  it("SIGTERM ends it promptly (the check has no end of its own: 2^40 anyOf paths)", async () => {
    const child = spawn(process.execPath, [cliBin, "call", "mcp__b__anyofDag", "--config", settings, "--json", "--no-daemon"], {
      cwd: ws.project,
      env: { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(MCP_|MAX_MCP_|MCPCTL_)/.test(k))), MCPCTL_HOME: ws.home },
      stdio: ["ignore", "pipe", "pipe"]
    })
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on("exit", (code, signal) => resolve({ code, signal })))
    // The event: the server wrote its answer (the client then parses and checks it).
    while (!existsSync(ready) || readFileSync(ready, "utf8") === "") await new Promise((r) => setTimeout(r, 20))
    const signalled = Date.now()
    child.kill("SIGTERM")
    const { code, signal } = await exited
    // Generous for a loaded machine; the check's own budget (60 s) is what a blocked loop would reach first.
    expect(Date.now() - signalled).toBeLessThan(slow(30_000))
    expect(code !== 0 || signal !== null).toBe(true)
  }, slow(90_000))

  it("MCP_TOOL_TIMEOUT stops the check and names server and tool", async () => {
    const r = await run(["call", "mcp__b__oneofNested", "--config", settings, "--json", "--no-daemon"], {
      home: ws.home,
      cwd: ws.project,
      env: { MCP_TOOL_TIMEOUT: "3000" }
    })
    const doc = JSON.parse(r.stdout)
    expect(doc.error.type).toBe("ToolTimeout")
    expect(doc.error.message).toMatch(/mcp__b__oneofNested answered, but checking its structuredContent against the tool's outputSchema did not finish within 3000 ms/)
  }, slow(90_000))

  it("uniqueItems over 20,000 objects: checked (linear), exit 0; a duplicate fails the call", async () => {
    const ok = await run(["call", "mcp__b__unique", "count=20000", "--config", settings, "--json", "--no-daemon"], { home: ws.home, cwd: ws.project })
    expect(ok.code).toBe(0)
    const dup = await run(["call", "mcp__b__unique", "count=20000", "duplicate=true", "--config", settings, "--json", "--no-daemon"], { home: ws.home, cwd: ws.project })
    expect(dup.code).toBe(4)
    expect(JSON.parse(dup.stdout).error.message).toMatch(/must NOT have duplicate items \(items ## 0 and 20000 are identical\)/)
  }, slow(120_000))
})
