/**
 * How long saved outputs (`$MCPCTL_HOME/outputs`) are kept: without a limit every image a tool
 * ever returned stays on disk. Before a run first writes to the directory, files older than
 * `maxAgeDays` go, then the oldest until at most `maxFiles` files and `maxBytes` remain. Pruning
 * runs before the run's first write, so nothing handed out in the current run is removed.
 */
// @ts-nocheck

import * as fs from "node:fs/promises"
import * as path from "node:path"

/** The retention limit of the outputs directory. */
export interface RetentionLimits {
  readonly maxAgeDays: number
  readonly maxFiles: number
  readonly maxBytes: number
}

export const defaultRetention: RetentionLimits = { maxAgeDays: 30, maxFiles: 1000, maxBytes: 1024 * 1024 * 1024 }

/** One saved output as the directory lists it. */
export interface OutputEntry {
  readonly name: string
  readonly bytes: number
  readonly mtimeMs: number
}

/** The files to remove so the rest fits the limits (pure): expired ones, then the oldest. */
export const toPrune = (entries: ReadonlyArray<OutputEntry>, now: number, limits: RetentionLimits = defaultRetention): ReadonlyArray<string> => {
  const maxAge = limits.maxAgeDays * 24 * 60 * 60 * 1000
  const byAge = [...entries].sort((a, b) => a.mtimeMs - b.mtimeMs)
  const removed: Array<string> = []
  let files = byAge.length
  let bytes = byAge.reduce((n, e) => n + e.bytes, 0)
  for (const e of byAge) {
    if (now - e.mtimeMs <= maxAge && files <= limits.maxFiles && bytes <= limits.maxBytes) break
    removed.push(e.name)
    files--
    bytes -= e.bytes
  }
  return removed
}

const pruned = new Set<string>()

/** Prunes `dir` to the limits, once per process and directory; failures are ignored (it is housekeeping). */
export const pruneOnce = async (dir: string, limits: RetentionLimits = defaultRetention): Promise<void> => {
  if (pruned.has(dir)) return
  pruned.add(dir)
  const names = await fs.readdir(dir).catch(() => [] as Array<string>)
  const entries: Array<OutputEntry> = []
  for (const name of names) {
    if (name.startsWith(".")) continue // temp files of writes in flight
    const stat = await fs.lstat(path.join(dir, name)).catch(() => undefined)
    if (stat?.isFile()) entries.push({ name, bytes: stat.size, mtimeMs: stat.mtimeMs })
  }
  for (const name of toPrune(entries, Date.now(), limits)) await fs.rm(path.join(dir, name), { force: true }).catch(() => undefined)
}
