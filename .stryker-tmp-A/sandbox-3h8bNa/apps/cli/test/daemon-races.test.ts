/**
 * Races of the daemon's lifecycle: starts at once after a crash leave one daemon, and a daemon
 * that loses the race (or exits later) never removes the socket and the token of the one running.
 * Real daemons, real `daemon start` processes.
 */
// @ts-nocheck

import { afterAll, describe, expect, it } from "@effect/vitest"
import { waitForExit } from "@mcpctl/testing/Processes"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { logPath, runDir, socketPath, tokenPath } from "../src/daemon/Wire.js"
import { isAlive, run, slow, workspace } from "./support.js"

// Each round starts five CLI processes and four daemons at once: minutes on a loaded machine.

const ws = workspace()
afterAll(() => ws.cleanup())

/** Every daemon pid that ever listened in this home (its log says so). */
const listened = (home: string): Array<number> => {
  const log = logPath(runDir({ MCPCTL_HOME: home }))
  if (!existsSync(log)) return []
  return [...readFileSync(log, "utf8").matchAll(/listening on .* \(pid (\d+)\)/g)].map((m) => Number(m[1]))
}

const statusPid = async (home: string): Promise<number | undefined> => {
  const r = await run(["daemon", "status", "--json"], { home })
  const s = JSON.parse(r.stdout) as { running: boolean; pid?: number }
  return s.running ? s.pid : undefined
}

describe("daemon start after a crash, four at once", () => {
  it("runs one daemon; the others report it; stop leaves none (two rounds)", async () => {
    const home = join(ws.dir, "home-race")
    const dir = runDir({ MCPCTL_HOME: home })
    const first = await run(["daemon", "start"], { home })
    expect(first.code).toBe(0)
    let victim = await statusPid(home)
    expect(victim).toBeGreaterThan(0)
    for (let round = 0; round < 2; round++) {
      // A crash: the socket and the token stay behind.
      process.kill(victim!, "SIGKILL")
      expect((await waitForExit([victim!], 10_000)).alive).toEqual([])
      expect(existsSync(socketPath(dir))).toBe(true)
      const starts = await Promise.all([0, 1, 2, 3].map(() => run(["daemon", "start"], { home })))
      for (const s of starts) {
        expect(s.code).toBe(0)
        expect(s.stderr).toMatch(/mcpctl daemon (started|is already running)/)
      }
      expect(starts.filter((s) => s.stderr.includes("mcpctl daemon started")).length).toBeGreaterThanOrEqual(1)
      const live = listened(home).filter(isAlive)
      expect(live).toHaveLength(1)
      // The one running is the one reachable: its socket and token are in place.
      expect(await statusPid(home)).toBe(live[0])
      victim = live[0]
    }
    const stop = await run(["daemon", "stop"], { home })
    expect(stop.code).toBe(0)
    expect(listened(home).filter(isAlive)).toEqual([])
    expect(existsSync(socketPath(dir))).toBe(false)
    expect(existsSync(tokenPath(dir))).toBe(false)
  }, slow(240_000))
})
