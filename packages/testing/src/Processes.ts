/**
 * Watching the processes a test started: whether one still runs, and waiting for the file a
 * fixture writes once its processes are up (an event, polled, bounded in time).
 */
import { existsSync, readFileSync } from "node:fs"

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

/** The non-empty content of `path` once a process has written it; fails after `timeoutMs`. */
export const waitForFile = async (path: string, timeoutMs = 15_000): Promise<string> => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (existsSync(path)) {
      const text = readFileSync(path, "utf8").trim()
      if (text !== "") return text
    }
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error(`timed out waiting for ${path}`)
}
