/**
 * Exit codes a script relies on (docs/CLI.md, Exit codes): a server that answers with a JSON-RPC
 * error is up (1 or 2, not 4); listing commands exit 4 when every server they needed failed;
 * SIGTERM exits 143; a tool's `isError` says so on stderr and exits 1.
 */
import { afterAll, describe, expect, it } from "@effect/vitest"
import * as fixtures from "@mcpctl/testing/Fixtures"
import { Processes } from "@mcpctl/testing"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { interruptedCode } from "../src/ExitCode.js"
import { isAlive, run as spawned, workspace } from "./support.js"
// In process where what is checked is output and exit codes (inProcess.ts); `spawned` where the process
// is the point: SIGTERM.
import { runInProcess as run } from "./inProcess.js"

const ws = workspace()
afterAll(() => ws.cleanup())
const home = ws.home
const postgresLike = fileURLToPath(new URL("./fixtures/postgres-like.mjs", import.meta.url))

const settings = ws.settings("exit.json", {
  mcpServers: {
    pg: { command: "node", args: [postgresLike] },
    echo: { command: "node", args: [fixtures.echoServer] },
  },
  permissions: { allow: ["mcp__pg__query", "mcp__echo__fail", "mcp__echo__echo"] }
})
const someBroken = ws.settings("some-broken.json", {
  mcpServers: {
    echo: { command: "node", args: [fixtures.echoServer] },
    broken: { command: "node", args: ["-e", "process.exit(3)"] }
  }
})
const onlyBroken = ws.settings("broken.json", {
  mcpServers: {
    broken: { command: "node", args: [fixtures.echoServer, "--fail-start"] },
    off: { command: "node", args: ["x.js"], disabled: true }
  }
})

describe("a server that answers with a JSON-RPC error is up", () => {
  it("bad SQL (-32603) exits 1, an unknown resource exits 2; neither says unavailable", async () => {
    const sql = await run(["call", "mcp__pg__query", "sql=SELEC 1", "--config", settings], { home })
    expect(sql.code).toBe(1)
    expect(sql.stderr).toContain('syntax error at or near "SELEC"')
    const resource = await run(["read", "pg", "postgres://db/nope/schema", "--config", settings, "--json"], { home })
    expect(resource.code).toBe(2)
    // -32602 from an SDK v2 server (-32002 from older ones, exitCodeOf's test in Errors.test.ts).
    expect(JSON.parse(resource.stdout).error).toMatchObject({ type: "McpRequestError", code: -32602, exitCode: 2 })
  })
})

describe("listing commands exit 4 when every server they needed failed", () => {
  it("servers, tools, resources, prompts: all failed → 4, output still printed", async () => {
    for (const command of ["servers", "tools", "resources", "prompts"]) {
      const r = await run([command, "--config", onlyBroken, "--json"], { home })
      expect({ command, code: r.code }).toEqual({ command, code: 4 })
      expect(r.stdout).toContain("broken")
    }
  })

  it("a server named explicitly that failed is 4 though others are fine; some failing among all is 0", async () => {
    for (const command of ["tools", "resources", "prompts"]) {
      const named = await run([command, "broken", "--config", someBroken], { home })
      expect({ command, code: named.code }).toEqual({ command, code: 4 })
      expect(named.stderr).toContain("broken (failed)")
      const mixed = await run([command, "--config", someBroken, "--json"], { home })
      expect({ command, code: mixed.code }).toEqual({ command, code: 0 })
    }
    expect((await run(["servers", "--config", someBroken], { home })).code).toBe(0)
    // Nothing configured is not a failure.
    expect((await run(["tools", "--cwd", ws.project], { home })).code).toBe(0)
  })
})

describe("a tool that returns isError", () => {
  it("says so on stderr before its text, and exits 1", async () => {
    const r = await run(["call", "mcp__echo__fail", "--config", settings], { home })
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/^mcpctl: mcp__echo__fail returned an error \(isError; exit 1\):\n/)
    expect(r.stdout).toBe("")
  })
})

describe("signals", () => {
  it("an interrupted run exits 128 + the signal's number, as shells report it", () => {
    expect([interruptedCode("SIGINT"), interruptedCode("SIGTERM"), interruptedCode("SIGHUP"), interruptedCode(undefined)])
      .toEqual([130, 143, 129, 130])
  })

  it("SIGTERM during a call exits 143, after shutting the server down", async () => {
    const pidFile = join(ws.dir, "term.pids")
    const callFile = join(ws.dir, "term.call")
    const file = ws.settings("term.json", {
      mcpServers: {
        stubborn: { command: "node", args: [fixtures.stubbornServer], env: { STUBBORN_PID_FILE: pidFile, STUBBORN_CALL_FILE: callFile } }
      },
      permissions: { allow: ["mcp__stubborn__*"] }
    })
    let cli = 0
    const running = spawned(["call", "mcp__stubborn__hang", "--config", file], { home, onSpawn: (pid) => (cli = pid) })
    // Once the server has the call (it writes a file), as a supervisor stopping mcpctl would.
    await Processes.waitForFile(callFile, 20_000)
    await Processes.waitForFile(pidFile, 20_000)
    process.kill(cli, "SIGTERM")
    const r = await running
    expect(r.code).toBe(143)
    const pids = JSON.parse(readFileSync(pidFile, "utf8"))
    expect([pids.server, pids.grandchild].filter(isAlive)).toEqual([])
  })
})
