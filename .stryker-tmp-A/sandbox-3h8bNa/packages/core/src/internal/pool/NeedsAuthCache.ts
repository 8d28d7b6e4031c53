/**
 * The needs-auth cache: `$MCPCTL_HOME/mcp-needs-auth-cache.json`, `{ [server URL]: { timestamp } }`
 * (keys from `needsAuthKey`).
 * A remote server that answered 401 is remembered for 15 minutes so later runs report
 * `needs-auth` at once instead of hitting it again (docs/CLI.md, Lifecycle). Time comes from Effect's
 * `Clock`, so tests drive the TTL with `TestClock`.
 *
 * The cache is an optimisation: reading a missing or corrupt file means "nothing cached", and a
 * failed write is logged, never an error. Stored with `internal/JsonStore.ts` (atomic writes under
 * a lock file, no link followed).
 */
// @ts-nocheck

import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as path from "node:path"
import type { ResolvedServer } from "../../config/ServerConfig.js"
import * as JsonStore from "../JsonStore.js"
import { urlIdentity } from "../config/ServerIdentity.js"

/** How long a 401 keeps a server in `needs-auth` without contacting it again. */
export const NEEDS_AUTH_TTL_MS = 15 * 60 * 1000

/** One remembered 401: when it was seen (ms since epoch). */
export interface NeedsAuthEntry {
  readonly timestamp: number
}

/** The whole cache file. */
export type NeedsAuthEntries = Readonly<Record<string, NeedsAuthEntry>>

const Entry = Schema.Struct({ timestamp: Schema.Number.pipe(Schema.finite()) })
const Entries = JsonStore.lenientRecord(Entry)

/**
 * What an entry is keyed by (pure): the remote server's identity (`ServerIdentity.urlIdentity`:
 * its address, the query only hashed), not its name. Every `--url` server is named `adhoc`; keyed
 * by name, a 401 from one would report a different, healthy one as needs-auth for 15 minutes.
 * A stdio server (never cached: it has no 401) falls back to its name.
 */
export const needsAuthKey = (server: ResolvedServer): string =>
  "url" in server.config ? urlIdentity(server.config.url) : server.name

/** The cache file of a `$MCPCTL_HOME`. */
export const needsAuthCacheFile = (home: string): string => path.join(home, "mcp-needs-auth-cache.json")

/** Keeps only well-formed entries, so a hand-edited or truncated file degrades to fewer entries. */
export const parseEntries = (raw: unknown): NeedsAuthEntries =>
  typeof raw === "object" && raw !== null && !Array.isArray(raw) ? Option.getOrElse(Schema.decodeUnknownOption(Entries)(raw), () => ({})) : {}

/** True while `server`'s entry is younger than `ttl` (an entry from the future counts as fresh). */
export const isFresh = (entries: NeedsAuthEntries, server: string, now: number, ttl = NEEDS_AUTH_TTL_MS): boolean => {
  const entry = entries[server]
  return entry !== undefined && now - entry.timestamp < ttl
}

/** Drops expired entries, so the file does not grow with every server ever seen. */
export const pruneExpired = (entries: NeedsAuthEntries, now: number, ttl = NEEDS_AUTH_TTL_MS): NeedsAuthEntries => {
  const out: Record<string, NeedsAuthEntry> = {}
  for (const [server, entry] of Object.entries(entries)) {
    if (now - entry.timestamp < ttl) out[server] = entry
  }
  return out
}

/** The entries with `server` marked at `now` (and expired ones pruned). */
export const withEntry = (entries: NeedsAuthEntries, server: string, now: number): NeedsAuthEntries => ({
  ...pruneExpired(entries, now),
  [server]: { timestamp: now }
})

/** The entries without `server` (and expired ones pruned). */
export const withoutEntry = (entries: NeedsAuthEntries, server: string, now: number): NeedsAuthEntries => {
  const { [server]: _removed, ...rest } = pruneExpired(entries, now)
  return rest
}

const store = (home: string) => JsonStore.make(needsAuthCacheFile(home), Entries)

const readEntries = (home: string) => Effect.map(store(home).get, Option.getOrElse((): NeedsAuthEntries => ({})))

/** Read-modify-write under the lock: the file is re-read right before the rename. */
const update = (home: string, f: (entries: NeedsAuthEntries, now: number) => NeedsAuthEntries, what: string) =>
  store(home).update((current, now) => f(Option.getOrElse(current, () => ({})), now)).pipe(
    Effect.asVoid,
    Effect.catchAll((e) => Effect.logWarning(`could not ${what} in ${e.file}: ${e.message}`))
  )

/**
 * Whether `server` got a 401 less than 15 minutes ago; while it did, the pool reports
 * `needs-auth` without connecting. Never fails.
 */
export const isNeedsAuthCached = Effect.fn("NeedsAuthCache.isNeedsAuthCached")(function*(
  home: string,
  server: string
) {
  const now = yield* Clock.currentTimeMillis
  return isFresh(yield* readEntries(home), server, now)
})

/** Remembers that `server` (a `needsAuthKey`) needs sign-in (after a 401 or an OAuth failure). Never fails. */
export const markNeedsAuth = Effect.fn("NeedsAuthCache.markNeedsAuth")(function*(home: string, server: string, label = server) {
  // `label` names the server in a warning; the key may be a URL, whose path is not for logs.
  yield* update(home, (entries, now) => withEntry(entries, server, now), `mark ${label} as needs-auth`)
})

/** Forgets the 401 of `server` (after a successful sign-in). Never fails. */
export const clearNeedsAuth = Effect.fn("NeedsAuthCache.clearNeedsAuth")(function*(home: string, server: string, label = server) {
  yield* update(home, (entries, now) => withoutEntry(entries, server, now), `clear needs-auth of ${label}`)
})
