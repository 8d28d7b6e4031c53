/**
 * Host death never orphans (CLI.md, "Lifecycle"), with the built CLI and the hostile fixture's
 * stubborn servers (they ignore SIGINT, SIGTERM, SIGHUP and stdin EOF, with a `sleep` grandchild
 * in their group that does too): a closed terminal (SIGHUP), a second Ctrl-C, `kill -9` of
 * mcpctl (its watchdog ends the groups), and `kill -9` of mcpctl and its watchdog (the next run
 * reaps the ledger). The 50-server versions are in packages/core/soak/Shutdown.test.ts.
 */
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Processes } from "@mcpctl/testing"
import * as fixtures from "@mcpctl/testing/Fixtures"
import { existsSync, readdirSync } from "node:fs"
import { join } from "node:path"
import { run, slow, workspace } from "./support.js"

const ws = workspace()
afterAll(() => ws.cleanup())

let scenario = 0

/**
 * Settings with `count` stubborn servers (and, with `hold`, one that never initializes, so
 * `servers` stays running with the others connected); their pid files.
 */
const stubborn = (count: number, hold: boolean) => {
  const tag = `s${++scenario}`
  const pidFiles = Array.from({ length: count }, (_, i) => join(ws.dir, `${tag}-${i}.pids`))
  const signalLog = join(ws.dir, `${tag}.signals`)
  const servers: Record<string, unknown> = Object.fromEntries(
    pidFiles.map((file, i) => [`stubborn${i}`, {
      command: "node",
      args: [fixtures.hostileServer, "--stubborn", "--pid-file", file, "--signal-log", signalLog]
    }])
  )
  if (hold) servers.hold = { command: "node", args: [fixtures.hostileServer, "--never-initialize"] }
  const file = ws.settings(`${tag}.json`, { mcpServers: servers, permissions: { allow: ["mcp__stubborn0__*"] } })
  const pids = async () => {
    const all: Array<number> = []
    for (const f of pidFiles) {
      const p = JSON.parse(await Processes.waitForFile(f, 20_000)) as { server: number; grandchild: number }
      all.push(p.server, p.grandchild)
    }
    return all
  }
  return { file, pids, signalLog }
}

/** Starts `mcpctl ARGS`, resolves once its servers' processes are all up. */
const start = async (args: ReadonlyArray<string>, setup: ReturnType<typeof stubborn>, env: Record<string, string> = {}) => {
  let cli = 0
  const done = run(args, { home: ws.home, env: { MCP_TIMEOUT: "60000", ...env }, onSpawn: (pid) => (cli = pid) })
  const pids = await setup.pids()
  expect(pids.filter(Processes.isAlive)).toHaveLength(pids.length)
  return { cli, done, pids }
}

describe.runIf(process.platform === "linux")("signals", () => {
  it("SIGHUP (the terminal closed) shuts down like SIGTERM: the server and its grandchild are gone", async () => {
    const setup = stubborn(1, false)
    const { cli, done, pids } = await start(["call", "mcp__stubborn0__hang", "--config", setup.file], setup)
    process.kill(cli, "SIGHUP")
    const r = await done
    expect(r.code).not.toBe(0)
    expect(pids.filter(Processes.isAlive)).toEqual([])
  })

  it("Ctrl-C with 5 stubborn servers: all closed at once, mcpctl exits in about one escalation", async () => {
    const setup = stubborn(5, true)
    const { cli, done, pids } = await start(["servers", "--config", setup.file, "--json"], setup)
    const started = Date.now()
    process.kill(cli, "SIGINT")
    const r = await done
    const ms = Date.now() - started
    expect(r.code).toBe(130)
    expect(pids.filter(Processes.isAlive)).toEqual([])
    // Sequentially this was 5 × 0.5 s; at once it is one SIGINT → SIGTERM → SIGKILL (0.5 s) and exit.
    expect(ms).toBeLessThan(slow(2_000))
  })

  it("a second Ctrl-C hurries the shutdown straight to SIGKILL, and never skips it", async () => {
    const setup = stubborn(5, true)
    const { cli, done, pids } = await start(["servers", "--config", setup.file, "--json"], setup)
    process.kill(cli, "SIGINT")
    // Two signals sent at once may arrive as one: the second goes once the servers got the first
    // SIGINT of the shutdown (which they ignore).
    await Processes.waitForFile(setup.signalLog)
    const second = Date.now()
    process.kill(cli, "SIGINT")
    const r = await done
    const ms = Date.now() - second
    expect(r.code).toBe(130)
    expect(pids.filter(Processes.isAlive)).toEqual([])
    // Without the wait for SIGTERM and SIGKILL (0.5 s): the groups die as soon as mcpctl sees the
    // second signal, 100 ms or more before the escalation would have sent SIGKILL. Timed from the
    // second signal, and scaled: on a loaded machine mcpctl's own exit takes longer too.
    expect(ms).toBeLessThan(slow(400))
  })

  it("kill -9 of mcpctl: its watchdog ends every server group within 1.5 s", async () => {
    const setup = stubborn(3, true)
    const { cli, done, pids } = await start(["servers", "--config", setup.file], setup)
    const watchdog = Processes.childrenOf(cli).find((c) => c.command.includes("trap '' INT TERM HUP PIPE"))
    expect(watchdog).toBeDefined()
    process.kill(cli, "SIGKILL")
    await done
    const { alive, ms } = await Processes.waitForExit(pids, 5_000)
    expect(alive).toEqual([])
    expect(ms).toBeLessThan(slow(1_500))
    expect(Processes.isAlive(watchdog!.pid)).toBe(false)
  })

  it("kill -9 of mcpctl and its watchdog: the next run reaps the groups from the ledger", async () => {
    const setup = stubborn(2, true)
    const { cli, done, pids } = await start(["servers", "--config", setup.file], setup)
    const ledger = join(ws.home, "processes")
    // The servers write their pid files themselves, so they can be up before mcpctl has written
    // their ledger entries or started its watchdog: wait for both.
    const entries = () => (existsSync(ledger) ? readdirSync(ledger).filter((f) => f.endsWith(".json")) : [])
    const findWatchdog = () => Processes.childrenOf(cli).find((c) => c.command.includes("trap '' INT TERM HUP PIPE"))
    const deadline = Date.now() + slow(20_000)
    while ((entries().length < 3 || findWatchdog() === undefined) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
    expect(entries()).toHaveLength(3)
    const watchdog = findWatchdog()!
    process.kill(watchdog.pid, "SIGKILL")
    process.kill(cli, "SIGKILL")
    await done
    // Nobody is left to end them: they run on, orphans.
    expect((await Processes.waitForExit(pids, 300)).alive).toHaveLength(pids.length)
    const next = await run(["servers", "--json", "--config", ws.settings("none.json", {})], { home: ws.home })
    expect(next.code).toBe(0)
    expect((await Processes.waitForExit(pids, 1_500)).alive).toEqual([])
    expect(existsSync(ledger) ? readdirSync(ledger).filter((f) => f.endsWith(".json")) : []).toEqual([])
  })
})
