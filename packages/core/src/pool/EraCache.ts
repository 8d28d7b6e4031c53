/**
 * The era verdict cache: `$MCPCTL_HOME/eras.json`, `{ [key]: { era, protocolVersion, at } }`.
 * With `"protocol": "auto"` the first connect to a server probes which era it speaks
 * (`server/discover`, SDK v2's `versionNegotiation: "auto"`); the verdict is remembered here so
 * later runs connect straight in that era: a legacy server gets its `initialize` with no probe in
 * front, a modern one its `server/discover` (pinned, so a server that no longer speaks 2026-07-28
 * fails at once, and the pool probes again and rewrites the entry).
 *
 * Keys (`eraKey`): a stdio server by a hash of what is started (the command resolved on the
 * child's PATH, its arguments, working directory and environment), so the same command with
 * other arguments or variables is another server; a remote one by its URL (origin and path).
 * A legacy verdict is trusted for `LEGACY_VERDICT_TTL_MS` only: an upgraded server still answers
 * `initialize`, so an old legacy verdict is probed again now and then.
 *
 * An optimisation, like the needs-auth cache: a missing, corrupt or symlinked file reads as
 * empty; a failed write is logged, never an error. Written with `files.ts`'s one atomic writer
 * (temp file and rename: a symbolic link at the path is replaced, never followed).
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import type { ResolvedServer } from "../config/ServerConfig.js"
import { withFileLock, writeFileAtomic } from "../internal/files.js"
import { childEnvironment } from "../transport/ChildEnvironment.js"

/** The two eras: MCP 2026-07-28 and later (`modern`), the 2025-era `initialize` (`legacy`). */
export type Era = "modern" | "legacy"

/** One remembered verdict. */
export interface EraVerdict {
  readonly era: Era
  /** The protocol version negotiated when the verdict was made. */
  readonly protocolVersion: string | undefined
  /** When (ms since epoch). */
  readonly at: number
}

export type EraVerdicts = Readonly<Record<string, EraVerdict>>

/** How long a legacy verdict skips the probe (a week); modern verdicts prove themselves on every connect. */
export const LEGACY_VERDICT_TTL_MS = 7 * 24 * 60 * 60 * 1000

/** The cache file of a `$MCPCTL_HOME`. */
export const eraCacheFile = (home: string): string => path.join(home, "eras.json")

/** `command` as the child's PATH resolves it (a path is resolved against `cwd`); unchanged when not found. */
export const resolveCommand = (command: string, cwd: string, envPath: string | undefined): string => {
  if (command.includes("/") || command.includes("\\")) return path.resolve(cwd, command)
  for (const dir of (envPath ?? "").split(path.delimiter)) {
    if (dir === "") continue
    const candidate = path.resolve(cwd, dir, command)
    try {
      if (fs.statSync(candidate).isFile()) return candidate
    } catch {
      // not in this directory
    }
  }
  return command
}

/**
 * The cache key of a server (pure but for the PATH lookup): `stdio:<sha256>` of the resolved
 * command, arguments, working directory and environment the child gets; `url:<origin+path>` for a
 * remote server.
 */
export const eraKey = (server: ResolvedServer, parentEnv: Readonly<Record<string, string | undefined>> = process.env): string => {
  const config = server.config
  if ("url" in config) {
    try {
      const u = new URL(config.url)
      return `url:${u.origin}${u.pathname}`
    } catch {
      return `url:${config.url}`
    }
  }
  const cwd = path.resolve(config.cwd ?? process.cwd())
  const env = childEnvironment(parentEnv, config.env)
  const sorted = Object.fromEntries(Object.entries(env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
  const what = JSON.stringify({
    command: resolveCommand(config.command, cwd, env.PATH),
    args: config.args ?? [],
    cwd,
    env: sorted
  })
  return `stdio:${createHash("sha256").update(what).digest("hex")}`
}

/** Keeps only well-formed entries. */
export const parseVerdicts = (raw: unknown): EraVerdicts => {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return {}
  const out: Record<string, EraVerdict> = {}
  for (const [key, entry] of Object.entries(raw)) {
    const e = entry as Partial<EraVerdict> | null
    if (e === null || typeof e !== "object") continue
    if ((e.era !== "modern" && e.era !== "legacy") || typeof e.at !== "number" || !Number.isFinite(e.at)) continue
    out[key] = { era: e.era, protocolVersion: typeof e.protocolVersion === "string" ? e.protocolVersion : undefined, at: e.at }
  }
  return out
}

/** The verdict to act on for `key` at `now`: a legacy one only while younger than the TTL. */
export const usableVerdict = (verdicts: EraVerdicts, key: string, now: number): EraVerdict | undefined => {
  const v = verdicts[key]
  if (v === undefined) return undefined
  if (v.era === "legacy" && now - v.at >= LEGACY_VERDICT_TTL_MS) return undefined
  return v
}

/** Reads the file without following a symbolic link; anything odd reads as empty. */
const readVerdicts = (file: string): EraVerdicts => {
  try {
    const stat = fs.lstatSync(file)
    if (!stat.isFile()) return {}
    return parseVerdicts(JSON.parse(fs.readFileSync(file, "utf8")))
  } catch {
    return {}
  }
}

/** The remembered verdict of a server, if one is usable. Never fails. */
export const readVerdict = (home: string, key: string) =>
  Effect.map(Clock.currentTimeMillis, (now) => usableVerdict(readVerdicts(eraCacheFile(home)), key, now))

/**
 * Remembers the era a server was found to speak, unless the file already says so (a second run
 * writes nothing). Never fails.
 */
export const writeVerdict = (home: string, key: string, era: Era, protocolVersion: string | undefined) =>
  Effect.gen(function*() {
    const now = yield* Clock.currentTimeMillis
    const file = eraCacheFile(home)
    const known = usableVerdict(readVerdicts(file), key, now)
    if (known?.era === era && known.protocolVersion === protocolVersion) return
    yield* Effect.tryPromise(() =>
      withFileLock(file, async () => {
        const next = { ...readVerdicts(file), [key]: { era, protocolVersion, at: now } }
        await writeFileAtomic(file, JSON.stringify(next, null, 2) + "\n")
      })
    ).pipe(Effect.catchAll((e) => Effect.logWarning(`could not remember the protocol era in ${file}: ${String(e.error)}`)))
  })
