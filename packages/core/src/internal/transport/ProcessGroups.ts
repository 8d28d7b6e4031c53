/**
 * The process groups of the stdio servers this process started, kept so that none outlives it.
 * Every stdio server runs in its own session (`detached`), so nothing the terminal sends reaches
 * it and nothing the kernel does when mcpctl dies touches it. Three layers, each for a death the
 * one before cannot handle:
 *
 * - an orderly shutdown ends each group itself (`Stdio.ts`, through the one reaper of
 *   `internal/transport/Reaper.ts`), and a second Ctrl-C/SIGTERM/SIGHUP calls {@link killAll}:
 *   SIGKILL to every group at once. When a shutdown begins the watchdog is also handed its
 *   SIGKILL deadline ({@link killAt}), which holds while this process's event loop does not;
 * - the watchdog: a tiny `sh` started with the first server, in a session of its own, that reads
 *   the live groups from a pipe. When mcpctl dies in any way (`kill -9`, OOM, a crash) the pipe
 *   closes, and the watchdog sends SIGTERM, then SIGKILL 0.5 s later, to every group still listed;
 * - the ledger: one file per live group under `$MCPCTL_HOME/processes`, removed when the group is
 *   gone. A later run {@link reap}s the groups whose host died without its watchdog (both killed).
 *
 * The known limit: a grandchild that calls `setsid()` (or `setpgid`) leaves the group, and no
 * signal to the group reaches it.
 */
import { spawn, type ChildProcess } from "node:child_process"
import { mkdirSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs"
import * as Path from "node:path"

/** Groups only exist on POSIX systems. */
const supported = process.platform !== "win32"

const live = new Set<number>()

// ---------------------------------------------------------------------------------------------
// Processes, as /proc shows them
// ---------------------------------------------------------------------------------------------

/**
 * The start time of a process (clock ticks since boot, as /proc/PID/stat field 22), or undefined
 * when it is gone, a zombie, or there is no /proc. With the pid it names one process for good:
 * pids are reused, (pid, start time) pairs are not.
 */
export const startTime = (pid: number): string | undefined => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    // "pid (comm) S ppid pgrp ..."; comm may contain spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return fields[0] === "Z" || fields[0] === "X" ? undefined : fields[19]
  } catch {
    return undefined
  }
}

/** The members (not zombies) of every group, from one scan of /proc, reused for a few ms. */
let scanned: { readonly at: number; readonly groups: ReadonlyMap<number, ReadonlyArray<number>> } | undefined
const SCAN_REUSE_MS = 10

/**
 * The members (not zombies) of every group, from one scan of /proc now; undefined without /proc.
 * The reaper takes one per tick for all the groups it ends.
 */
export const scanFresh = (): ReadonlyMap<number, ReadonlyArray<number>> | undefined => {
  let entries: Array<string>
  try {
    entries = readdirSync("/proc")
  } catch {
    return undefined
  }
  const groups = new Map<number, Array<number>>()
  for (const entry of entries) {
    const first = entry.charCodeAt(0)
    if (first < 48 || first > 57) continue
    let stat: string
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8")
    } catch {
      continue
    }
    // "pid (comm) S ppid pgrp ..."; comm may contain spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ", 4)
    if (fields[0] === "Z" || fields[0] === "X") continue
    const pgid = Number(fields[2])
    const members = groups.get(pgid)
    if (members) members.push(Number(entry))
    else groups.set(pgid, [Number(entry)])
  }
  return groups
}

const scanGroups = (): ReadonlyMap<number, ReadonlyArray<number>> | undefined => {
  if (scanned !== undefined && Date.now() - scanned.at < SCAN_REUSE_MS) return scanned.groups
  const groups = scanFresh()
  if (groups === undefined) return undefined
  // Counted from the end of the scan: on a busy machine one scan can take longer than the window.
  scanned = { at: Date.now(), groups }
  return groups
}

/**
 * Whether a Linux process group still has a member that is not a zombie. Orphaned members are
 * re-parented to PID 1, and some container inits never reap them: `kill(-pgid, 0)` then keeps
 * succeeding for processes that are already dead. One scan of /proc serves every group asking
 * within 10 ms: fifty servers shutting down at once would otherwise scan it 5,000 times a second.
 * Undefined without /proc.
 */
export const groupHasLiveMember = (pgid: number): boolean | undefined => {
  const groups = scanGroups()
  return groups === undefined ? undefined : groups.has(pgid)
}

/**
 * The live members of a group now (Linux), or undefined without /proc. Taken right before
 * SIGKILL: nothing can join a group after it, so waiting for these few pids is enough and far
 * cheaper than scanning /proc again and again while fifty groups die at once.
 */
export const groupMembers = (pgid: number): ReadonlyArray<number> | undefined => {
  const groups = scanGroups()
  return groups === undefined ? undefined : groups.get(pgid) ?? []
}

/** `kill(-pgid, 0)`: true while the group has any member, zombies included. */
export const groupExists = (pgid: number): boolean => {
  try {
    process.kill(-pgid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

/** Signals a whole process group; a group that is gone already is not an error. */
export const signalGroup = (pgid: number, signal: NodeJS.Signals): void => {
  try {
    process.kill(-pgid, signal)
  } catch {
    // ESRCH: gone already.
  }
}

// ---------------------------------------------------------------------------------------------
// The watchdog
// ---------------------------------------------------------------------------------------------

/**
 * Reads "+PGID" and "-PGID" lines until its stdin closes (mcpctl exited or died), then ends every
 * group still listed. "!SECONDS PGID..." is a deadline: a background subshell sends those groups
 * SIGKILL after SECONDS, whatever mcpctl's event loop is doing then. Builtins only (but `sleep`),
 * so it costs a shell and no interpreter start.
 */
const WATCHDOG = `trap '' INT TERM HUP PIPE
g=' '
while IFS= read -r l; do
  case "$l" in
    +*) g="$g\${l#+} " ;;
    -*) d=\${l#-}; r=' '; for p in $g; do [ "$p" = "$d" ] || r="$r$p "; done; g=$r ;;
    !*) set -- \${l#!}; ( s=$1; shift; sleep "$s"; for p; do kill -s KILL -- "-$p" 2>/dev/null; done ) & ;;
  esac
done
[ "$g" = ' ' ] && exit 0
for p in $g; do kill -s TERM -- "-$p" 2>/dev/null; done
sleep 0.5
for p in $g; do kill -s KILL -- "-$p" 2>/dev/null; done
`

let watchdog: ChildProcess | undefined
let watchdogFailed = false

const tellWatchdog = (line: string): void => {
  if (!supported || watchdogFailed) return
  if (watchdog === undefined) {
    try {
      // Its own session: the terminal's signals and a kill of mcpctl's process group miss it.
      watchdog = spawn("/bin/sh", ["-c", WATCHDOG], { detached: true, stdio: ["pipe", "ignore", "ignore"] })
    } catch {
      watchdogFailed = true
      return
    }
    watchdog.on("error", () => {
      watchdogFailed = true
    })
    watchdog.stdin!.on("error", () => {})
    // Neither the watchdog nor its pipe may keep mcpctl running.
    watchdog.unref()
    ;(watchdog.stdin as unknown as { unref?: () => void }).unref?.()
  }
  watchdog.stdin!.write(line + "\n")
}

/** Released groups not yet told to the watchdog: one write per tick for all of them. */
let releasedBatch: Array<number> | undefined

/**
 * "-PGID" for a group that is gone, written at the end of this tick with the others released in
 * it: fifty servers ending together cost one pipe write. A line that never leaves (this process
 * exits first) only has the watchdog signal a group that is gone.
 */
const tellReleased = (pgid: number): void => {
  if (releasedBatch === undefined) {
    releasedBatch = []
    process.nextTick(flushReleased)
  }
  releasedBatch.push(pgid)
}

/** Writes the pending "-PGID" lines now (also before a "+PGID": a reused pid keeps its order). */
const flushReleased = (): void => {
  const batch = releasedBatch
  if (batch === undefined) return
  releasedBatch = undefined
  tellWatchdog(batch.map((p) => `-${p}`).join("\n"))
}

/** Groups the watchdog already has a deadline for: one is enough. */
const deadlines = new Set<number>()

/**
 * Tells the watchdog to SIGKILL these groups `ms` from now, so the end of a shutdown does not
 * depend on this process's timers (a blocked event loop, a host starved of CPU). Written at once:
 * a pipe write does not wait for the event loop. A group ended before the deadline is not
 * signalled by our own escalation again; the deadline's SIGKILL then finds the group gone, unless
 * its pgid was reused within those few hundred ms (a pid wrap-around that fast is not a case).
 */
export const killAt = (pgids: Iterable<number>, ms: number): void => {
  const fresh = [...pgids].filter((pgid) => live.has(pgid) && !deadlines.has(pgid))
  if (fresh.length === 0) return
  for (const pgid of fresh) deadlines.add(pgid)
  tellWatchdog(`!${(ms / 1000).toFixed(3)} ${fresh.join(" ")}`)
}

/**
 * When the watchdog SIGKILLs a group whose shutdown began: 50 ms after the escalation's own
 * SIGKILL (Reaper.ts), inside the 600 ms CLI.md promises.
 */
export const KILL_DEADLINE_MS = 550

/** {@link killAt} for every live group: the first Ctrl-C, SIGTERM or SIGHUP. */
export const killAllAt = (ms: number = KILL_DEADLINE_MS): void => killAt(live, ms)

/** The watchdog's pid, once it runs (for tests that kill it). */
export const watchdogPid = (): number | undefined => watchdog?.pid

// ---------------------------------------------------------------------------------------------
// The ledger
// ---------------------------------------------------------------------------------------------

/** One live group as its ledger file records it. */
interface Entry {
  readonly pgid: number
  /** The leader's start time (see {@link startTime}): a reused pid is not mistaken for it. */
  readonly leaderStart: string
  readonly hostPid: number
  readonly hostStart: string | undefined
  readonly server: string
  readonly command: string
}

const hostStart = startTime(process.pid)
const reaped = new Set<string>()

const entryFile = (dir: string, pgid: number) => Path.join(dir, `${pgid}.json`)

const writeEntry = (dir: string, entry: Entry): boolean => {
  const file = entryFile(dir, entry.pgid)
  const tmp = `${file}.${process.pid}.tmp`
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    writeFileSync(tmp, JSON.stringify(entry), { mode: 0o600 })
    renameSync(tmp, file)
    return true
  } catch {
    return false
  }
}

const removeFile = (file: string): void => {
  try {
    unlinkSync(file)
  } catch {
    // gone already
  }
}

/** What {@link reap} did with one entry. */
export type ReapOutcome = "killed" | "gone" | "running" | "unreadable"

/**
 * Ends the groups of the ledger in `dir` whose host is dead (its pid gone, or reused by another
 * process) and removes their entries; entries of running hosts are left alone, and a group whose
 * leader pid now belongs to another process is not touched. Synchronous and cheap when the
 * ledger is empty (one `readdir`), so every run can afford it. Returns what it found per file.
 */
export const reap = (dir: string): ReadonlyArray<{ readonly file: string; readonly outcome: ReapOutcome }> => {
  const found: Array<{ file: string; outcome: ReapOutcome }> = []
  let names: Array<string>
  try {
    names = readdirSync(dir)
  } catch {
    return found
  }
  for (const name of names) {
    if (!name.endsWith(".json")) continue
    const file = Path.join(dir, name)
    let entry: Entry
    try {
      entry = JSON.parse(readFileSync(file, "utf8")) as Entry
      if (!Number.isSafeInteger(entry.pgid) || entry.pgid <= 1 || !Number.isSafeInteger(entry.hostPid)) throw new Error("bad entry")
    } catch {
      found.push({ file, outcome: "unreadable" })
      continue
    }
    const host = startTime(entry.hostPid)
    if (host !== undefined && host === entry.hostStart) {
      found.push({ file, outcome: "running" })
      continue
    }
    const leader = startTime(entry.pgid)
    // The leader is ours when its start time matches; a group without its leader cannot have a
    // new owner (a pgid is not reused while its group has members).
    const ours = leader === undefined ? groupExists(entry.pgid) : leader === entry.leaderStart
    if (ours && groupExists(entry.pgid)) {
      signalGroup(entry.pgid, "SIGKILL")
      found.push({ file, outcome: "killed" })
    } else found.push({ file, outcome: "gone" })
    removeFile(file)
  }
  return found
}

// ---------------------------------------------------------------------------------------------
// Registration
// ---------------------------------------------------------------------------------------------

/** What {@link register} records of a group. */
export interface GroupInfo {
  readonly server: string
  readonly command: string
  /** The ledger directory (`$MCPCTL_HOME/processes`); without it only the watchdog guards. */
  readonly ledgerDir?: string | undefined
}

/**
 * Records a new group with the watchdog and in the ledger (after reaping that ledger once per
 * run). Returns the release, to call once the group is gone; it is idempotent.
 */
export const register = (pgid: number, info: GroupInfo): (() => void) => {
  if (!supported) return () => {}
  live.add(pgid)
  flushReleased()
  tellWatchdog(`+${pgid}`)
  let file: string | undefined
  const dir = info.ledgerDir
  if (dir !== undefined && process.platform === "linux") {
    if (!reaped.has(dir)) {
      reaped.add(dir)
      reap(dir)
    }
    const leaderStart = startTime(pgid)
    if (leaderStart !== undefined) {
      const entry: Entry = { pgid, leaderStart, hostPid: process.pid, hostStart, server: info.server, command: info.command }
      if (writeEntry(dir, entry)) file = entryFile(dir, pgid)
    }
  }
  let released = false
  return () => {
    if (released) return
    released = true
    live.delete(pgid)
    deadlines.delete(pgid)
    tellReleased(pgid)
    if (file !== undefined) removeFile(file)
  }
}

/** The groups registered and not yet released. */
export const liveGroups = (): ReadonlyArray<number> => [...live]

/**
 * SIGKILL to every live group, now: the second Ctrl-C. The orderly shutdowns still running then
 * see their groups gone and finish (and release them) at once. Returns how many were signalled.
 */
export const killAll = (): number => {
  for (const pgid of live) signalGroup(pgid, "SIGKILL")
  return live.size
}
