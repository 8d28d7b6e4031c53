/**
 * The reaper (internal/transport/Reaper.ts) on real process groups: stubborn groups (a server ignoring
 * INT/TERM/HUP/EOF with a `sleep` grandchild that does too) ended together by one timer, each
 * end resolving only once nothing of its group is left; a group whose leader exits at SIGINT but
 * whose grandchild stays; a group already gone costs no signal.
 */
// @ts-nocheck

import { describe, expect, it } from "@effect/vitest"
import { Fixtures, Processes } from "@mcpctl/testing"
import { spawn } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { endGroup, endingGroups } from "../src/internal/transport/Reaper.js"
import { slow } from "./support/slow.js"

const dir = mkdtempSync(join(tmpdir(), "mcpctl-reaper-"))
let n = 0

/** A stubborn hostile server in a group of its own; resolves once its grandchild runs. */
const stubbornGroup = async () => {
  const pidFile = join(dir, `stubborn-${++n}.pids`)
  const child = spawn(process.execPath, [Fixtures.hostileServer, "--stubborn", "--pid-file", pidFile], {
    detached: true,
    stdio: ["pipe", "ignore", "ignore"]
  })
  let exited = false
  child.on("exit", () => (exited = true))
  const pids = JSON.parse(await Processes.waitForFile(pidFile, 30_000)) as { server: number; grandchild: number }
  return { pgid: child.pid!, pids: [pids.server, pids.grandchild], exited: () => exited }
}

describe("Reaper.endGroup", () => {
  it("ends ten stubborn groups at once; each end resolves only when its processes are gone", async () => {
    const groups = await Promise.all(Array.from({ length: 10 }, stubbornGroup))
    for (const g of groups) for (const pid of g.pids) expect(Processes.isAlive(pid)).toBe(true)
    const started = performance.now()
    const ends = await Promise.all(groups.map(async (g) => {
      const end = await endGroup(g.pgid, g.exited)
      // Checked the moment this end resolves, not after all of them.
      return { end, alive: g.pids.filter(Processes.isAlive) }
    }))
    console.log(`10 stubborn groups ended together in ${Math.round(performance.now() - started)} ms`)
    for (const { end, alive } of ends) {
      expect(alive).toEqual([])
      expect(end).toMatchObject({ gone: true, left: [], signal: "SIGKILL" })
    }
    expect(endingGroups()).toEqual([])
  }, slow(60_000))

  it("a second end of the same group shares the first", async () => {
    const g = await stubbornGroup()
    const first = endGroup(g.pgid, g.exited)
    expect(endGroup(g.pgid, g.exited)).toBe(first)
    expect((await first).gone).toBe(true)
    expect(g.pids.filter(Processes.isAlive)).toEqual([])
  }, slow(60_000))

  it("a leader that exits on SIGINT: the end waits for the grandchild left in the group", async () => {
    const pidFile = join(dir, "leaky.pid")
    const grandchild =
      "for (const s of ['SIGINT','SIGTERM','SIGHUP']) process.on(s, () => {});" +
      "require('node:fs').writeFileSync(process.env.PID_FILE, String(process.pid)); setInterval(() => {}, 1 << 30)"
    const leader = `require('node:child_process').spawn(process.execPath, ['-e', ${JSON.stringify(grandchild)}], { stdio: 'ignore' }); setInterval(() => {}, 1 << 30)`
    const child = spawn(process.execPath, ["-e", leader], { detached: true, stdio: "ignore", env: { ...process.env, PID_FILE: pidFile } })
    let exited = false
    child.on("exit", () => (exited = true))
    const grandchildPid = Number(await Processes.waitForFile(pidFile, 30_000))
    const end = await endGroup(child.pid!, () => exited)
    expect(Processes.isAlive(grandchildPid)).toBe(false)
    expect(Processes.isAlive(child.pid!)).toBe(false)
    expect(end).toMatchObject({ gone: true, signal: "SIGKILL" })
  }, slow(60_000))

  it("a group that is gone already is not signalled", async () => {
    const child = spawn(process.execPath, ["-e", "0"], { detached: true, stdio: "ignore" })
    await new Promise((resolve) => child.on("exit", resolve))
    expect(await endGroup(child.pid!, () => true)).toEqual({ gone: true, left: [], signal: undefined, ms: 0 })
  })
})
