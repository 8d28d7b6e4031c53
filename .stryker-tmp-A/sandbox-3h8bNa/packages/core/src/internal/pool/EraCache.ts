/**
 * The era verdict cache: `$MCPCTL_HOME/eras.json`, `{ [key]: { era, protocolVersion, at } }`.
 * With `"protocol": "auto"` the first connect to a server probes which era it speaks
 * (`server/discover`, SDK v2's `versionNegotiation: "auto"`); the verdict is remembered here so
 * later runs connect straight in that era: a legacy server gets its `initialize` with no probe in
 * front, a modern one its `server/discover` (pinned, so a server that no longer speaks 2026-07-28
 * fails at once, and the pool probes again and rewrites the entry).
 *
 * Keys (`eraKey`): the server's identity (`internal/ServerIdentity.ts`): a stdio server by a hash
 * of what is started (the command resolved on the child's PATH, its arguments, working directory
 * and the settings' environment), so the same command with other arguments or variables is
 * another server; a remote one by its URL.
 * A legacy verdict is trusted for `LEGACY_VERDICT_TTL_MS` only: an upgraded server still answers
 * `initialize`, so an old legacy verdict is probed again now and then.
 *
 * An optimisation, like the needs-auth cache: a missing, corrupt or symlinked file reads as
 * empty; a failed write is logged, never an error. Stored with `internal/JsonStore.ts` (temp file
 * and rename under a lock file: a symbolic link at the path is replaced, never followed).
 */
// @ts-nocheck

import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as path from "node:path"
import type { ResolvedServer } from "../../config/ServerConfig.js"
import * as JsonStore from "../JsonStore.js"
import { serverIdentity } from "../config/ServerIdentity.js"

/** The two eras: MCP 2026-07-28 and later (`modern`), the 2025-era `initialize` (`legacy`). */
export type Era = "modern" | "legacy"

/** One remembered verdict. */
export interface EraVerdict {
  readonly era: Era
  /** The protocol version negotiated when the verdict was made. */
  readonly protocolVersion?: string | undefined
  /** When (ms since epoch). */
  readonly at: number
}

export type EraVerdicts = Readonly<Record<string, EraVerdict>>

/** How long a legacy verdict skips the probe (a week); modern verdicts prove themselves on every connect. */
export const LEGACY_VERDICT_TTL_MS = 7 * 24 * 60 * 60 * 1000

/** The cache file of a `$MCPCTL_HOME`. */
export const eraCacheFile = (home: string): string => path.join(home, "eras.json")

/**
 * The cache key of a server: its identity (`internal/ServerIdentity.ts`, shared with the pins and
 * the needs-auth cache), judged from the current directory and the parent's `PATH`.
 */
export const eraKey = (server: ResolvedServer, parentEnv: Readonly<Record<string, string | undefined>> = process.env): string =>
  serverIdentity(server, { projectDir: process.cwd(), pathVar: parentEnv.PATH })

const Verdict = Schema.Struct({
  era: Schema.Literal("modern", "legacy"),
  protocolVersion: Schema.optional(Schema.UndefinedOr(Schema.String)),
  at: Schema.Number.pipe(Schema.finite())
})
const Verdicts = JsonStore.lenientRecord(Verdict)

/** Keeps only well-formed entries. */
export const parseVerdicts = (raw: unknown): EraVerdicts =>
  typeof raw === "object" && raw !== null && !Array.isArray(raw)
    ? Option.getOrElse(Schema.decodeUnknownOption(Verdicts)(raw), () => ({}))
    : {}

/** The verdict to act on for `key` at `now`: a legacy one only while younger than the TTL. */
export const usableVerdict = (verdicts: EraVerdicts, key: string, now: number): EraVerdict | undefined => {
  const v = verdicts[key]
  if (v === undefined) return undefined
  if (v.era === "legacy" && now - v.at >= LEGACY_VERDICT_TTL_MS) return undefined
  return v
}

const store = (home: string) => JsonStore.make(eraCacheFile(home), Verdicts)

/** The remembered verdict of a server, if one is usable. Never fails. */
export const readVerdict = (home: string, key: string) =>
  Effect.zipWith(store(home).get, Clock.currentTimeMillis, (verdicts, now) =>
    usableVerdict(Option.getOrElse(verdicts, () => ({})), key, now))

/**
 * Remembers the era a server was found to speak, unless the file already says so (a second run
 * writes nothing). Never fails.
 */
export const writeVerdict = (home: string, key: string, era: Era, protocolVersion: string | undefined) =>
  store(home).modify((current, now) => {
    const verdicts = Option.getOrElse(current, (): EraVerdicts => ({}))
    const known = usableVerdict(verdicts, key, now)
    if (known?.era === era && known.protocolVersion === protocolVersion) return [undefined, current] as const
    return [undefined, Option.some({ ...verdicts, [key]: { era, protocolVersion, at: now } })] as const
  }).pipe(Effect.catchAll((e) => Effect.logWarning(`could not remember the protocol era in ${e.file}: ${e.message}`)))
