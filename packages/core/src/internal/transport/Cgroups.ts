/**
 * Linux cgroup v2, where this process may create cgroups under its own (a delegated subtree, or
 * root in a container): each stdio server is moved into a cgroup of its own right after spawn,
 * and its shutdown ends with `cgroup.kill`, so even a grandchild that left the process group
 * (`setsid()`, `setpgid()`) is gone. Elsewhere (no cgroup2 mount, not writable, a kernel before
 * 5.14 without `cgroup.kill`, or `MCPCTL_CGROUPS=off`) nothing here runs and the process group is
 * the limit, as docs/reliability.md says. The one race: the move happens at the spawn event, so
 * a server that forks in its first instant, before it, leaves that child behind.
 */
import { accessSync, constants, existsSync, mkdirSync, readFileSync, rmdirSync, watch, writeFileSync } from "node:fs"
import * as Path from "node:path"

/** The cgroup2 mount point, from /proc/self/mounts. */
const mountPoint = (): string | undefined => {
  try {
    for (const line of readFileSync("/proc/self/mounts", "utf8").split("\n")) {
      const [, dir, type] = line.split(" ")
      if (type === "cgroup2" && dir !== undefined) return dir
    }
  } catch {
    // no /proc
  }
  return undefined
}

/** This process's cgroup v2 path (the `0::PATH` line of /proc/self/cgroup). */
const ownPath = (): string | undefined => {
  try {
    const line = readFileSync("/proc/self/cgroup", "utf8").split("\n").find((l) => l.startsWith("0::"))
    return line?.slice(3)
  } catch {
    return undefined
  }
}

let detected: string | null | undefined

/**
 * The directory this process creates its servers' cgroups in (`mcpctl-PID` under its own
 * cgroup), or undefined where that is not possible. Probed once: the directory is created and
 * must offer `cgroup.kill`.
 */
export const cgroupRoot = (): string | undefined => {
  if (detected !== undefined) return detected ?? undefined
  detected = null
  if (process.platform !== "linux" || process.env.MCPCTL_CGROUPS === "off") return undefined
  const mount = mountPoint()
  const own = ownPath()
  if (mount === undefined || own === undefined) return undefined
  const parent = Path.join(mount, own)
  try {
    accessSync(parent, constants.W_OK)
    const dir = Path.join(parent, `mcpctl-${process.pid}`)
    mkdirSync(dir, { recursive: true })
    if (!existsSync(Path.join(dir, "cgroup.kill"))) {
      rmdirSync(dir)
      return undefined
    }
    detected = dir
  } catch {
    return undefined
  }
  return detected
}

/**
 * Moves `pid` into a new cgroup of its own; returns its directory, or undefined when cgroups are
 * not available or the move failed (the server then runs as without them).
 */
export const place = (pid: number): string | undefined => {
  const root = cgroupRoot()
  if (root === undefined) return undefined
  const dir = Path.join(root, `g${pid}`)
  try {
    mkdirSync(dir)
    writeFileSync(Path.join(dir, "cgroup.procs"), String(pid))
    return dir
  } catch {
    remove(dir)
    return undefined
  }
}

/** Whether any process is left in the cgroup (`populated` of `cgroup.events`). */
export const populated = (dir: string): boolean => {
  try {
    return /^populated 1$/m.test(readFileSync(Path.join(dir, "cgroup.events"), "utf8"))
  } catch {
    return false
  }
}

/** SIGKILL to every process of the cgroup, whatever its session or group. */
export const killCgroup = (dir: string): void => {
  try {
    writeFileSync(Path.join(dir, "cgroup.kill"), "1")
  } catch {
    // gone already
  }
}

/**
 * Resolves once the cgroup is empty (the kernel updates `cgroup.events`, which `fs.watch` sees:
 * an event, not a poll), or after `ms` with false.
 */
export const emptied = (dir: string, ms: number): Promise<boolean> =>
  new Promise((resolve) => {
    if (!populated(dir)) return resolve(true)
    let watcher: ReturnType<typeof watch> | undefined
    const done = (empty: boolean) => {
      clearTimeout(timer)
      watcher?.close()
      resolve(empty)
    }
    const timer = setTimeout(() => done(!populated(dir)), ms)
    try {
      watcher = watch(Path.join(dir, "cgroup.events"), () => {
        if (!populated(dir)) done(true)
      })
    } catch {
      // no inotify: the bound decides
    }
    // Emptied between the first check and the watch.
    if (!populated(dir)) done(true)
  })

/** Removes an empty cgroup, and this process's directory once it has none left. */
export const remove = (dir: string): void => {
  try {
    rmdirSync(dir)
  } catch {
    // not empty or gone
  }
  if (detected === undefined || detected === null || Path.dirname(dir) !== detected) return
  try {
    // Fails while another server's cgroup is in it; the next `place` creates it again.
    rmdirSync(detected)
    detected = undefined
  } catch {
    // not empty
  }
}
