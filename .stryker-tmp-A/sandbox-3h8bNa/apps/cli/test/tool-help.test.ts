/**
 * `mcpctl call TOOL --help` on the built CLI: the tool's parameters from its input schema; from
 * the catalogue cache once `tools` has listed the server (no connection, no note), else by
 * connecting to that one server (said on stderr).
 */
// @ts-nocheck

import { afterAll, describe, expect, it } from "@effect/vitest"
import * as fixtures from "@mcpctl/testing/Fixtures"
import { workspace } from "./support.js"
// In process: what is checked is output and exit codes, which a spawn adds nothing to (inProcess.ts).
import { runInProcess as run } from "./inProcess.js"

const ws = workspace()
afterAll(() => ws.cleanup())
const config = ws.settings("settings.json", { mcpServers: { echo: { command: process.execPath, args: [fixtures.echoServer] } } })
const opts = { home: ws.home, cwd: ws.project }

describe("mcpctl call TOOL --help", () => {
  it("connects when nothing is cached (saying so), answers from the cache after `tools`", async () => {
    const cold = await run(["call", "mcp__echo__add", "--config", config, "--help"], opts)
    expect(cold.code).toBe(0)
    expect(cold.stderr).toContain("note: no cached tool list for echo; connecting to it")
    expect(cold.stdout).toContain("Usage: mcpctl call mcp__echo__add a=NUMBER b=NUMBER")
    expect(cold.stdout).toMatch(/^ {2}a \(number, required\)$/m)

    expect((await run(["tools", "--config", config], opts)).code).toBe(0)
    const warm = await run(["call", "--config", config, "mcp__echo__add", "-h"], opts)
    expect(warm.code).toBe(0)
    expect(warm.stderr).toBe("")
    expect(warm.stdout).toBe(cold.stdout)
  })

  it("an unknown server is a usage error", async () => {
    const r = await run(["call", "mcp__nope__x", "--config", config, "--help"], opts)
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('No server named "nope"')
  })
})
