/**
 * The records that keep stdio servers from outliving mcpctl: the ledger a later run reaps, and
 * `killAll` for a second signal. Real process groups of `sleep`s that ignore SIGTERM (the
 * watchdog and a host killed with -9 are tested end to end in apps/cli/test/signals.test.ts).
 */
// @ts-nocheck

import { afterEach, describe, expect, it } from "@effect/vitest"
import { Processes } from "@mcpctl/testing"
import { spawn, spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { killAll, liveGroups, reap, register, startTime } from "../src/internal/transport/ProcessGroups.js"

const groups: Array<number> = []
const dirs: Array<string> = []

/** A process group (its own session) whose leader ignores SIGTERM, like a stubborn server. */
const stubbornGroup = (): number => {
  const child = spawn("sh", ["-c", "trap '' INT TERM HUP; exec sleep 1000"], { detached: true, stdio: "ignore" })
  child.unref()
  groups.push(child.pid!)
  return child.pid!
}

/** A pid that was a process a moment ago: its host is dead. */
const deadPid = (): number => {
  const r = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"])
  return Number(r.stdout.toString())
}

const ledger = () => {
  const dir = mkdtempSync(join(tmpdir(), "mcpctl-ledger-"))
  dirs.push(dir)
  return dir
}

const entry = (dir: string, pgid: number, fields: Record<string, unknown>) =>
  writeFileSync(join(dir, `${pgid}.json`), JSON.stringify({ pgid, leaderStart: startTime(pgid), server: "s", command: "sleep", ...fields }))

/** Polls until `pid` is dead, at most `ms`; returns how long it took. */
/** Waits until `pid` is gone (the event; the test's timeout bounds it); whether it went. */
const gone = async (pid: number): Promise<boolean> => {
  while (Processes.isAlive(pid)) await new Promise((r) => setTimeout(r, 10))
  return true
}

afterEach(() => {
  for (const pgid of groups.splice(0)) {
    try {
      process.kill(-pgid, "SIGKILL")
    } catch {}
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe.runIf(process.platform === "linux")("reap", () => {
  it("ends the group of a dead host and removes its entry", async () => {
    const dir = ledger()
    const pgid = stubbornGroup()
    entry(dir, pgid, { hostPid: deadPid(), hostStart: "1" })
    expect(reap(dir)).toEqual([{ file: join(dir, `${pgid}.json`), outcome: "killed" }])
    expect(await gone(pgid)).toBe(true)
    expect(readdirSync(dir)).toEqual([])
  })

  it("leaves the groups of a running host alone", async () => {
    const dir = ledger()
    const pgid = stubbornGroup()
    entry(dir, pgid, { hostPid: process.pid, hostStart: startTime(process.pid) })
    expect(reap(dir).map((r) => r.outcome)).toEqual(["running"])
    expect(Processes.isAlive(pgid)).toBe(true)
    expect(existsSync(join(dir, `${pgid}.json`))).toBe(true)
  })

  it("never kills a process that took over a recorded pid (its start time differs)", () => {
    const dir = ledger()
    const pgid = stubbornGroup()
    entry(dir, pgid, { hostPid: deadPid(), hostStart: "1", leaderStart: "12345" })
    expect(reap(dir).map((r) => r.outcome)).toEqual(["gone"])
    expect(Processes.isAlive(pgid)).toBe(true)
    expect(readdirSync(dir)).toEqual([])
  })

  it("skips what it cannot read and is cheap without a ledger", () => {
    const dir = ledger()
    writeFileSync(join(dir, "7.json"), "{not json")
    expect(reap(dir).map((r) => r.outcome)).toEqual(["unreadable"])
    expect(reap(join(dir, "missing"))).toEqual([])
  })
})

describe.runIf(process.platform !== "win32")("register and killAll", () => {
  it("records a live group in the ledger until released; killAll sends SIGKILL to what is live", async () => {
    const dir = ledger()
    const pgid = stubbornGroup()
    const release = register(pgid, { server: "s", command: "sleep", ledgerDir: dir })
    expect(liveGroups()).toContain(pgid)
    if (process.platform === "linux") {
      expect(JSON.parse(readFileSync(join(dir, `${pgid}.json`), "utf8"))).toMatchObject({ pgid, hostPid: process.pid, server: "s" })
    }
    expect(killAll()).toBeGreaterThanOrEqual(1)
    expect(await gone(pgid)).toBe(true)
    release()
    expect(liveGroups()).not.toContain(pgid)
    expect(readdirSync(dir)).toEqual([])
  })
})
