/**
 * Cache hints on list results (2026-07-28, "caching"): a server says how long a list stays fresh
 * (`ttlMs`) and whom it may be served to (`cacheScope`: `private`, for this connection's caller
 * only; `public`, the same for every caller). The policy here is pure (a clock is an argument),
 * shared by the lists a connection remembers (ConnectionLists.ts) and the catalogue cache across
 * runs (catalog/CatalogCache.ts):
 *
 * - a list without hints (2025-era servers) keeps mcpctl's own rule: it lasts as long as the
 *   connection, until the server says it changed;
 * - a hinted list is fresh for `ttlMs` after it arrived (capped at a day, as SDK v2 caps it), then
 *   stale: a stale list is fetched again, never served, unless the user asked for cached answers;
 * - only a `public` list may outlive its connection without being asked for (shared by the
 *   connections to that server, and answering `tools` from the disk cache while fresh).
 */
// @ts-nocheck


/** Whom a cached result may be served to. */
export type CacheScope = "public" | "private"

/** A result's hints, as the server sent them (ttl clamped to `[0, MAX_TTL_MS]`). */
export interface CacheHint {
  readonly ttlMs: number
  readonly scope: CacheScope
}

/** No server pins a result for longer than a day (SDK v2's client caps it the same). */
export const MAX_TTL_MS = 86_400_000

/**
 * The hints of a result, or undefined when it has none (no `ttlMs`): a `cacheScope` alone says
 * nothing about freshness. An absent or unknown scope is `private`, the safe reading.
 */
export const hintOf = (result: unknown): CacheHint | undefined => {
  if (result === null || typeof result !== "object") return undefined
  const { cacheScope, ttlMs } = result as { readonly ttlMs?: unknown; readonly cacheScope?: unknown }
  if (typeof ttlMs !== "number" || !Number.isFinite(ttlMs)) return undefined
  return { ttlMs: Math.min(Math.max(0, Math.floor(ttlMs)), MAX_TTL_MS), scope: cacheScope === "public" ? "public" : "private" }
}

/** Where a list stands: `unhinted` lists follow mcpctl's own rule (see the module comment). */
export type Freshness = "fresh" | "stale" | "unhinted"

/** One remembered list: when it arrived and what the server said of it. */
export interface Stamp {
  readonly fetchedAt: number
  readonly hint: CacheHint | undefined
}

/** When a hinted list turns stale (ms since the epoch); undefined when it has no hints. */
export const expiresAt = (stamp: Stamp): number | undefined =>
  stamp.hint === undefined ? undefined : stamp.fetchedAt + stamp.hint.ttlMs

/** The list's freshness at `now`. A `ttlMs` of 0 is stale at once. */
export const freshness = (stamp: Stamp, now: number): Freshness => {
  const until = expiresAt(stamp)
  return until === undefined ? "unhinted" : now < until ? "fresh" : "stale"
}

/** How long a fresh list stays fresh from `now` (0 when stale or unhinted). */
export const freshFor = (stamp: Stamp, now: number): number => Math.max(0, (expiresAt(stamp) ?? now) - now)

/**
 * Whether a connection may answer from the list it remembers: a fresh or unhinted one (mcpctl's
 * own rule: until the server says it changed), never a stale one.
 */
export const servesOnConnection = (stamp: Stamp, now: number): boolean => freshness(stamp, now) !== "stale"

/**
 * Whether a list may be served beyond the connection that fetched it (another connection to the
 * same server, a later command of a warm host, a later run): only a fresh list, and only a
 * `public` one unless the caller is the same one (`samePrincipal`: the warm host of the settings
 * that fetched it).
 */
export const servesBeyond = (stamp: Stamp, now: number, samePrincipal: boolean): boolean =>
  freshness(stamp, now) === "fresh" && (samePrincipal || stamp.hint?.scope === "public")

/**
 * What to do with a list kept across runs (the catalogue cache) when a command needs it:
 * `serve` it, or `refresh` it from the server. With `cached` (the user asked for cached answers,
 * `tools --cached`) anything kept is served, saying how fresh; without it only a fresh `public`
 * list is.
 */
export const onDisk = (stamp: Stamp, now: number, cached: boolean): "serve" | "refresh" =>
  cached || servesBeyond(stamp, now, false) ? "serve" : "refresh"

/** For people: "fresh for 42 s", "stale", "no cache hints". */
export const describe = (stamp: Stamp, now: number): string => {
  const state = freshness(stamp, now)
  if (state === "unhinted") return "no cache hints"
  if (state === "stale") return `stale (ttl ${seconds(stamp.hint!.ttlMs)})`
  return `fresh for ${seconds(freshFor(stamp, now))} more (${stamp.hint!.scope})`
}

const seconds = (ms: number): string => (ms < 1000 ? `${ms} ms` : ms < 120_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60_000)} min`)
