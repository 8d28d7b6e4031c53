/**
 * Watching the processes a test started: whether one still runs, waiting for the file a fixture
 * writes once its processes are up (an event, polled, bounded in time), waiting for processes to
 * be gone, and finding the children of one (mcpctl's watchdog).
 */
// @ts-nocheck

import { existsSync, readdirSync, readFileSync } from "node:fs"

/**
 * A wait bound scaled by `MCPCTL_TEST_SLOWDOWN` (a number ≥ 1, set by the repository's test run
 * on a loaded machine): the bounds below are for a stuck process, not a slow one.
 */
const scaled = (ms: number): number => {
  const n = Number(process.env.MCPCTL_TEST_SLOWDOWN)
  return Math.round(ms * (Number.isFinite(n) && n >= 1 ? n : 1))
}

/**
 * Is a process alive? Zombies count as dead: PID 1 in some sandboxes never reaps orphans, so
 * `kill(pid, 0)` alone keeps succeeding for processes that are gone.
 */
export const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ESRCH"
  }
  if (process.platform !== "linux") return true
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    const state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0]
    return state !== "Z" && state !== "X"
  } catch {
    return false
  }
}

/** The non-empty content of `path` once a process has written it; fails after `timeoutMs` (scaled). */
export const waitForFile = async (path: string, timeoutMs = 15_000): Promise<string> => {
  const deadline = Date.now() + scaled(timeoutMs)
  while (Date.now() < deadline) {
    if (existsSync(path)) {
      const text = readFileSync(path, "utf8").trim()
      if (text !== "") return text
    }
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error(`timed out waiting for ${path}`)
}

/** The processes whose parent is `pid` (Linux: read from /proc), for finding what a process started. */
export const childrenOf = (pid: number): Array<{ readonly pid: number; readonly command: string }> => {
  const found: Array<{ pid: number; command: string }> = []
  let entries: Array<string> = []
  try {
    entries = readdirSync("/proc").filter((e) => /^\d+$/.test(e))
  } catch {
    return found
  }
  for (const entry of entries) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8")
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1])
      if (ppid !== pid) continue
      found.push({ pid: Number(entry), command: readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").join(" ").trim() })
    } catch {
      // gone meanwhile
    }
  }
  return found
}

/**
 * Waits until none of `pids` is alive (polled: other processes send us no events), at most
 * `timeoutMs` (scaled); resolves with the milliseconds it took and the pids still alive then.
 */
export const waitForExit = async (
  pids: ReadonlyArray<number>,
  timeoutMs = 10_000
): Promise<{ readonly ms: number; readonly alive: ReadonlyArray<number> }> => {
  const started = Date.now()
  let alive = pids.filter(isAlive)
  const bound = scaled(timeoutMs)
  while (alive.length > 0 && Date.now() - started < bound) {
    await new Promise((resolve) => setTimeout(resolve, 10))
    alive = alive.filter(isAlive)
  }
  return { ms: Date.now() - started, alive }
}
