/**
 * One reaper for every process group this process is ending. Each group gets SIGINT, SIGTERM
 * 100 ms later, SIGKILL 400 ms after that, and its end resolves once nothing of it is left
 * (CLI.md, "Lifecycle"). One timer serves all groups: fifty servers shutting down at once cost
 * one cheap `kill(-pgid, 0)` each per tick and at most one scan of /proc per tick between them,
 * instead of fifty pollers each scanning /proc. The escalation's last step does not depend on
 * this process's timers alone: the watchdog is told to SIGKILL the group at the same deadline
 * (`ProcessGroups.killAt`), so a host whose event loop is blocked still leaves nothing behind.
 */
import { groupExists, killAt, scanFresh, signalGroup, startTime } from "./ProcessGroups.js"

/** When each signal is sent, ms after the end began. */
export interface Escalation {
  readonly termAfterMs: number
  readonly killAfterMs: number
  /**
   * After SIGKILL nothing can resist, the kernel only tears the group down; a group still there
   * this long after it is reported with the pids left instead of waited for forever.
   */
  readonly reportAfterMs: number
}

export const DEFAULT_ESCALATION: Escalation = { termAfterMs: 100, killAfterMs: 500, reportAfterMs: 3_000 }

/** How the end of one group went. */
export interface GroupEnd {
  /** True when nothing of the group is left. */
  readonly gone: boolean
  /** The members still alive when the end was reported (empty when gone). */
  readonly left: ReadonlyArray<number>
  /** The last signal sent, if any. */
  readonly signal: NodeJS.Signals | undefined
  /** Milliseconds from the start of the end to its report. */
  readonly ms: number
}

interface Ending {
  readonly pgid: number
  readonly leaderExited: () => boolean
  readonly escalation: Escalation
  readonly started: number
  signal: NodeJS.Signals
  /** The members the last scan found (once the leader has exited). */
  members: ReadonlyArray<number> | undefined
  killedAt: number
  readonly resolve: (end: GroupEnd) => void
}

const TICK_MS = 10
const ending = new Map<number, Ending>()
const pending = new Map<number, Promise<GroupEnd>>()
let timer: ReturnType<typeof setInterval> | undefined

/**
 * The groups a shutdown may have to end, each with the start of its owner's own shutdown (for
 * stdio, the transport's `end`: stdin closed, then {@link endGroup}): {@link endAll}, the first
 * signal, begins them all at once, before any scope has been closed.
 */
const watched = new Map<number, () => void>()

/** Records how to begin a group's shutdown for {@link endAll}; returns the removal (idempotent). */
export const watch = (pgid: number, begin: () => void): (() => void) => {
  watched.set(pgid, begin)
  return () => {
    if (watched.get(pgid) === begin) watched.delete(pgid)
  }
}

/** Groups whose watchdog deadline waits for the end of this tick: one line for all of them. */
let deadlineBatch: Map<number, Array<number>> | undefined

const handDeadline = (pgid: number, ms: number): void => {
  if (deadlineBatch === undefined) {
    deadlineBatch = new Map()
    // Still this tick (no wait for the event loop); fifty closes in a row cost the watchdog one
    // line and one subshell instead of fifty.
    process.nextTick(() => {
      const batch = deadlineBatch!
      deadlineBatch = undefined
      for (const [at, pgids] of batch) killAt(pgids, at)
    })
  }
  const same = deadlineBatch.get(ms)
  if (same) same.push(pgid)
  else deadlineBatch.set(ms, [pgid])
}

/** The groups being ended now (for tests and diagnostics). */
export const endingGroups = (): ReadonlyArray<number> => [...ending.keys()]

type Scan = () => ReadonlyMap<number, ReadonlyArray<number>> | undefined

/**
 * One tick's view of /proc, taken at most once per tick and only when some group needs it (a
 * group whose leader exited but that still exists may hold only zombies PID 1 never reaps).
 */
const lazyScan = (): Scan => {
  let groups: ReadonlyMap<number, ReadonlyArray<number>> | undefined | null = null
  return () => (groups === null ? (groups = scanFresh()) : groups)
}

const alive = (pid: number): boolean => startTime(pid) !== undefined

/**
 * Whether nothing of the group is left. The cheap checks come first: a leader (our child, which
 * Node reaps) still running means not gone; `kill(-pgid, 0)` failing means gone. Past those,
 * the members found by the last scan are watched one by one, and /proc is scanned again only
 * when they are all gone while the group still exists (zombies, or a member forked since):
 * without `scan` (an exit event between ticks) that case waits for the tick's shared scan.
 */
const isGone = (e: Ending, scan: Scan | undefined): boolean => {
  // A leader still running (our child: Node reaps it, so no zombie) means the group exists.
  if (!e.leaderExited()) return false
  if (!groupExists(e.pgid)) return true
  if (process.platform !== "linux") return false
  if (e.members !== undefined && e.members.some(alive)) return false
  const groups = scan?.()
  if (groups === undefined) return false
  const members = groups.get(e.pgid)
  if (members === undefined || members.length === 0) return true
  e.members = members
  return false
}

const finish = (e: Ending, gone: boolean, now: number): void => {
  ending.delete(e.pgid)
  pending.delete(e.pgid)
  const left = gone ? [] : (e.members ?? [e.pgid]).filter(alive)
  e.resolve({ gone: gone || left.length === 0, left, signal: e.signal, ms: Math.round(now - e.started) })
}

const step = (e: Ending, now: number, scan: Scan | undefined): void => {
  if (isGone(e, scan)) return finish(e, true, now)
  const elapsed = now - e.started
  if (e.signal === "SIGINT" && elapsed >= e.escalation.termAfterMs) {
    e.signal = "SIGTERM"
    signalGroup(e.pgid, "SIGTERM")
  }
  if (e.signal === "SIGTERM" && elapsed >= e.escalation.killAfterMs) {
    e.signal = "SIGKILL"
    e.killedAt = now
    signalGroup(e.pgid, "SIGKILL")
  }
  if (e.signal === "SIGKILL" && now - e.killedAt >= e.escalation.reportAfterMs) finish(e, false, now)
}

const tick = (): void => {
  const now = performance.now()
  const scan = lazyScan()
  for (const e of [...ending.values()]) step(e, now, scan)
  if (ending.size === 0 && timer !== undefined) {
    clearInterval(timer)
    timer = undefined
  }
}

/**
 * Ends a process group: SIGINT now, then SIGTERM and SIGKILL on the escalation's schedule, and
 * the watchdog told to SIGKILL it at the same deadline. Resolves once nothing of the group is
 * left, or `reportAfterMs` after SIGKILL with what is. `leaderExited` says whether the leader
 * (our child) has exited: until then the group cannot be gone and no scan is needed. A group
 * being ended already shares that end. The timer stays referenced: the escalation must finish
 * even when nothing else keeps the event loop alive.
 */
export const endGroup = (
  pgid: number,
  leaderExited: () => boolean,
  escalation: Escalation = DEFAULT_ESCALATION
): Promise<GroupEnd> => {
  const already = pending.get(pgid)
  if (already !== undefined) return already
  const started = performance.now()
  const promise = new Promise<GroupEnd>((resolve) => {
    const e: Ending = { pgid, leaderExited, escalation, started, signal: "SIGINT", members: undefined, killedAt: 0, resolve }
    if (isGone(e, lazyScan())) {
      resolve({ gone: true, left: [], signal: undefined, ms: 0 })
      return
    }
    signalGroup(pgid, "SIGINT")
    handDeadline(pgid, escalation.killAfterMs + 50)
    ending.set(pgid, e)
    timer ??= setInterval(tick, TICK_MS)
  })
  if (ending.has(pgid)) pending.set(pgid, promise)
  return promise
}

/**
 * Checks one group now (its leader just exited), instead of at the next tick; only the cheap
 * checks: fifty exits in a row must not cost fifty scans of /proc.
 */
export const poke = (pgid: number): void => {
  const e = ending.get(pgid)
  if (e !== undefined && isGone(e, undefined)) finish(e, true, performance.now())
}

/**
 * Begins the shutdown of every watched group now, synchronously: each owner closes its side and
 * calls {@link endGroup} (SIGINT to the group, the escalation on the one timer, the watchdog's
 * deadline). The first Ctrl-C calls it before interrupting anything, so the servers' shutdown
 * does not wait for the host to unwind its fibers and scopes; the owners' later closes share
 * these ends. Returns how many groups it began to end.
 */
export const endAll = (): number => {
  let n = 0
  for (const [pgid, begin] of [...watched]) {
    if (ending.has(pgid)) continue
    begin()
    n++
  }
  return n
}
