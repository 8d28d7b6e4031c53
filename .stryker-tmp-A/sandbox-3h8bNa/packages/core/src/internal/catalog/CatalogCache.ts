/**
 * The catalogue cache across runs (docs/CLI.md, `tools --cached`): the tools a server listed, one
 * file per server under `$MCPCTL_HOME/cache/catalog/`, so `tools --cached` on many servers can
 * answer without starting them, saying how old each answer is.
 *
 * Keyed by the server's identity (internal/ServerIdentity.ts: its URL, or what is started)
 * together with its name and its whole resolved entry (environment, headers, tool filters: hashed,
 * never stored), so another server, or the same one with other settings, never reads this one's
 * list. Safe because it is only ever shown: a call always asks the server, with pins checked; the
 * pin mark of a cached tool is computed again against the pins of now. Written after each listing
 * that succeeded, with the server's cache hints (`ttlMs`, `cacheScope`: CacheHints.ts says what
 * may be served and when); a warm host removes a server's file when the server says its list changed.
 * Problems with the files are never errors: no cache is a miss. Each file is a `JsonStore`.
 */
// @ts-nocheck

import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { createHash } from "node:crypto"
import { unlink } from "node:fs/promises"
import * as Path from "node:path"
import type { ResolvedServer } from "../../config/ServerConfig.js"
import * as CacheHints from "../pool/CacheHints.js"
import { privateDir } from "../files.js"
import * as JsonStore from "../JsonStore.js"
import { serverIdentity } from "../config/ServerIdentity.js"
import type { McpTool } from "../../catalog/ToolRegistry.js"

/** One server's cached list. */
export interface CachedCatalog {
  /** When it was listed (ms since the epoch). */
  readonly savedAt: number
  readonly tools: ReadonlyArray<McpTool>
  /** The server's cache hints on the list (CacheHints.ts); undefined: it sent none. */
  readonly hint: CacheHints.CacheHint | undefined
}

/** The list's freshness stamp, for CacheHints' policy (`onDisk`, `describe`). */
export const stampOf = (entry: CachedCatalog): CacheHints.Stamp => ({ fetchedAt: entry.savedAt, hint: entry.hint })

/** The cache key of a server (pure but for the `PATH` lookup of its command). */
export const cacheKey = (server: ResolvedServer, projectDir: string, pathVar: string | undefined): string =>
  createHash("sha256").update(JSON.stringify([serverIdentity(server, { projectDir, pathVar }), server.name, server.config])).digest("hex")

/** The directory of the cache's files (shell completion reads them without a key). */
export const directoryOf = (home: string): string => Path.join(home, "cache", "catalog")
const fileOf = (home: string, key: string) => Path.join(directoryOf(home), `${key}.json`)

const Entry = Schema.Struct({
  key: Schema.String,
  server: Schema.optional(Schema.String),
  savedAt: Schema.Number,
  tools: Schema.Array(Schema.Unknown),
  ttlMs: Schema.optional(Schema.Number),
  cacheScope: Schema.optional(Schema.Literal("public", "private"))
})

const storeOf = (home: string, key: string) => JsonStore.make(fileOf(home, key), Entry, { pretty: false })

/** Where a server's list is kept. */
export interface CacheSpot {
  readonly home: string
  readonly projectDir: string
  readonly pathVar: string | undefined
}

/** A server's cached list, or undefined (none, unreadable, another server's). */
export const read = (spot: CacheSpot, server: ResolvedServer): Effect.Effect<CachedCatalog | undefined> =>
  Effect.suspend(() => {
    const key = cacheKey(server, spot.projectDir, spot.pathVar)
    return Effect.map(storeOf(spot.home, key).get, (doc) =>
      Option.isSome(doc) && doc.value.key === key
        ? {
          savedAt: doc.value.savedAt,
          tools: doc.value.tools as ReadonlyArray<McpTool>,
          hint: CacheHints.hintOf(doc.value)
        }
        : undefined)
  })

/** Keeps a server's list (written atomically, 0600 in a 0700 directory); failures are ignored. */
export const write = (
  spot: CacheSpot,
  server: ResolvedServer,
  tools: ReadonlyArray<McpTool>,
  now = Date.now(),
  hint?: CacheHints.CacheHint | undefined
): Effect.Effect<void> =>
  Effect.suspend(() => {
    const key = cacheKey(server, spot.projectDir, spot.pathVar)
    const kept = tools.map(({ pin: _pin, ...tool }) => tool)
    return Effect.promise(() => privateDir(spot.home, "cache", "catalog").then(() => true, () => false)).pipe(
      Effect.flatMap((ok) => (ok ? storeOf(spot.home, key).update(() => ({
        key,
        server: server.name,
        savedAt: now,
        tools: kept,
        ...(hint === undefined ? {} : { ttlMs: hint.ttlMs, cacheScope: hint.scope })
      })) : Effect.void)),
      // a cache that cannot be written is no cache
      Effect.ignore
    )
  })

/** Forgets a server's list (its `tools/list_changed`). */
export const remove = (spot: CacheSpot, server: ResolvedServer): Effect.Effect<void> =>
  Effect.promise(() => unlink(fileOf(spot.home, cacheKey(server, spot.projectDir, spot.pathVar))).catch(() => undefined))

/** How old a cached list is, for a person: "12 s", "5 min", "3 h", "2 days" (pure). */
export const age = (ms: number): string => {
  const s = Math.max(0, Math.round(ms / 1000))
  if (s < 120) return `${s} s`
  if (s < 7200) return `${Math.round(s / 60)} min`
  if (s < 172_800) return `${Math.round(s / 3600)} h`
  return `${Math.round(s / 86_400)} days`
}
