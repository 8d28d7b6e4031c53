/**
 * What one vitest run leaves behind, and how to remove it: every process the run started (marked
 * by `MCPCTL_TEST_RUN=<id>` or a `TMPDIR` inside the run's directory, both inherited by every
 * child, so a server reparented to PID 1 in a process group of its own is still found), and the
 * run's temporary directory. Used by `tmpdir.globalSetup.ts` at teardown and on SIGINT/SIGTERM/
 * SIGHUP. Linux only (reads /proc); elsewhere only the directory is removed.
 */
// @ts-nocheck

import { readdirSync, readFileSync, rmSync } from "node:fs"

/** The environment variable naming the run every process of it inherits. */
export const RUN_MARKER = "MCPCTL_TEST_RUN"

const pids = (): Array<number> => {
  try {
    return readdirSync("/proc").filter((e) => /^\d+$/.test(e)).map(Number)
  } catch {
    return []
  }
}

const environOf = (pid: number): Array<string> | undefined => {
  try {
    return readFileSync(`/proc/${pid}/environ`, "latin1").split("\0")
  } catch {
    return undefined // gone, or not ours to read
  }
}

const parentOf = (pid: number): number | undefined => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1])
  } catch {
    return undefined
  }
}

/**
 * The processes of run `id` (other than `self`): those whose environment names the run or whose
 * TMPDIR is inside `dir`, and every descendant of `self` (a child started with an environment of
 * its own).
 */
export const processesOfRun = (id: string, dir: string, self: number = process.pid): Array<number> => {
  const all = pids().filter((p) => p !== self)
  const found = new Set<number>()
  const marker = `${RUN_MARKER}=${id}`
  for (const pid of all) {
    const env = environOf(pid)
    if (env === undefined) continue
    if (env.includes(marker) || env.some((e) => e.startsWith("TMPDIR=") && (e === `TMPDIR=${dir}` || e.startsWith(`TMPDIR=${dir}/`)))) {
      found.add(pid)
    }
  }
  const parents = new Map(all.map((p) => [p, parentOf(p)]))
  let grew = true
  while (grew) {
    grew = false
    for (const [pid, parent] of parents) {
      if (!found.has(pid) && parent !== undefined && (parent === self || found.has(parent))) {
        found.add(pid)
        grew = true
      }
    }
  }
  return [...found]
}

/**
 * Kills every process of the run with SIGKILL, scanning again until none is left (a runner may be
 * spawning while it is killed), at most `rounds` times. `spareWorkers`: not the direct children of
 * this process (vitest's workers, still needed at teardown; what they started is killed).
 * Returns how many were killed.
 */
export const killRun = (id: string, dir: string, options: { readonly spareWorkers?: boolean } = {}, rounds = 20): number => {
  let killed = 0
  for (let i = 0; i < rounds; i++) {
    const found = processesOfRun(id, dir).filter((pid) => !(options.spareWorkers === true && parentOf(pid) === process.pid))
    if (found.length === 0) break
    for (const pid of found) {
      try {
        process.kill(pid, "SIGKILL")
        killed++
      } catch {
        // already gone
      }
    }
  }
  return killed
}

/** Kills the run's processes, then removes its directory. Synchronous: safe in a signal handler. */
export const cleanUpRun = (id: string, dir: string, options: { readonly spareWorkers?: boolean } = {}): void => {
  killRun(id, dir, options)
  rmSync(dir, { recursive: true, force: true })
}
