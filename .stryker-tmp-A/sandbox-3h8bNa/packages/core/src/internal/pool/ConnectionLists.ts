/**
 * What a connection remembers of its server: the lists fetched over it (tools, resources,
 * templates, prompts) and one-off requests such as `logging/setLevel`. Each value is named by a
 * typed key, the way a `Context.Tag` names a service: the catalogue declares one key per list
 * beside the code that fetches it, and reads it back with its type. The values live and die with
 * the connection, so a closed connection can never serve a stale catalogue. (A leaf: the pool
 * owns the store, the catalogue owns what is in it.)
 */
// @ts-nocheck

import type { Client, ServerCapabilities } from "@modelcontextprotocol/client"
import * as Cause from "effect/Cause"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FiberId from "effect/FiberId"
import * as CacheHints from "./CacheHints.js"

/** The lists a server's `notifications/<kind>/list_changed` makes stale. */
export type ListKind = "tools" | "resources" | "prompts"

/** Names one value memoized on connections, and its type. */
export class ListKey<A> {
  /** The value's type (never set at run time). */
  declare readonly _A: A
  constructor(
    /** For diagnostics. */
    readonly name: string,
    /** The notification that drops the value; undefined: it lasts as long as the connection. */
    readonly changedBy: ListKind | undefined,
    /** The server's cache hints on a fetched value (CacheHints.ts); none: it sends none. */
    hintOf?: (value: A) => CacheHints.CacheHint | undefined
  ) {
    this.hintOf = hintOf === undefined ? () => undefined : (value) => hintOf(value as A)
  }
  /** The server's cache hints on a value of this key (untyped: keys of every type share a map). */
  readonly hintOf: (value: unknown) => CacheHints.CacheHint | undefined
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- one map holds every key's value
interface Entry<A> {
  /** Completed with the fetch's outcome; every asker of the entry awaits it. */
  readonly deferred: Deferred.Deferred<any, unknown>
  /** Set once the fetch succeeded: the value and its stamp, for `peek` and for askers that need not wait. */
  settled: { readonly value: A; readonly stamp: CacheHints.Stamp } | undefined
}

/**
 * The `public` lists of one server, shared by its connections (the pool keeps one per server): a
 * new connection answers from a fresh one without asking (CacheHints.servesBeyond).
 */
export type SharedLists = Map<ListKey<unknown>, { readonly value: unknown; readonly stamp: CacheHints.Stamp }>

/**
 * The memoized values of one connection, each an `Effect.cached`-style value: fetched by its
 * first asker, shared by the others, kept while the connection lives and the server's cache
 * hints (CacheHints.ts) say it is fresh.
 */
export class ConnectionLists {
  private readonly entries = new Map<ListKey<unknown>, Entry<unknown>>()

  constructor(
    private readonly options: { readonly now?: () => number; readonly shared?: SharedLists | undefined } = {}
  ) {}

  private now(): number {
    return (this.options.now ?? Date.now)()
  }

  /**
   * Whether an entry may still be served. The one place freshness is decided: an entry lasts
   * until `invalidate`/`clear` (list_changed, connection closed) removes it, or until the
   * server's hints made it stale (CacheHints.servesOnConnection); a fetch in flight is fresh.
   */
  private fresh(entry: Entry<unknown>): boolean {
    return entry.settled === undefined || CacheHints.servesOnConnection(entry.settled.stamp, this.now())
  }

  /**
   * The value of `key`, fetched once: concurrent askers share one fetch, a failed fetch is
   * forgotten (the next asker tries again), a stale value is fetched again, never served. When
   * the asker running the fetch is interrupted, the fetch stops and a waiting asker fetches
   * again itself.
   */
  get<A, E>(key: ListKey<A>, fetch: Effect.Effect<A, E>): Effect.Effect<A, E> {
    return Effect.suspend(() => {
      const hit = this.entries.get(key) as Entry<A> | undefined
      if (hit !== undefined && this.fresh(hit)) {
        if (hit.settled !== undefined) return Effect.succeed(hit.settled.value)
        return Effect.catchAllCause(
          Deferred.await(hit.deferred as Deferred.Deferred<A, E>),
          (cause) => Cause.isInterruptedOnly(cause) ? this.get(key, fetch) : Effect.failCause(cause)
        )
      }
      const shared = this.options.shared?.get(key)
      if (shared !== undefined && CacheHints.servesBeyond(shared.stamp, this.now(), false)) {
        const value = shared.value as A
        const deferred = Deferred.unsafeMake<A, unknown>(FiberId.none)
        Deferred.unsafeDone(deferred, Exit.succeed(value))
        this.entries.set(key, { deferred, settled: { value, stamp: shared.stamp } })
        return Effect.succeed(value)
      }
      const entry: Entry<A> = { deferred: Deferred.unsafeMake<A, unknown>(FiberId.none), settled: undefined }
      this.entries.set(key, entry)
      return Effect.onExit(fetch, (exit) => {
        if (Exit.isSuccess(exit)) {
          const stamp = { fetchedAt: this.now(), hint: key.hintOf(exit.value) }
          entry.settled = { value: exit.value, stamp }
          if (stamp.hint?.scope === "public" && this.entries.get(key) === entry) {
            this.options.shared?.set(key, { value: exit.value, stamp })
          }
        } else if (this.entries.get(key) === entry) this.entries.delete(key)
        return Deferred.done(entry.deferred, exit)
      })
    })
  }

  /** When `key`'s value arrived and what its server said of it; undefined: not fetched yet. */
  stamp(key: ListKey<unknown>): CacheHints.Stamp | undefined {
    return this.entries.get(key)?.settled?.stamp
  }

  /**
   * Drops every value but those the server's hints keep fresh (a warm host between commands: an
   * unhinted list is asked for again, as a run of its own would).
   */
  dropUnlessFresh(): void {
    const now = this.now()
    for (const [key, entry] of this.entries) {
      if (entry.settled === undefined || !CacheHints.servesBeyond(entry.settled.stamp, now, true)) this.entries.delete(key)
    }
  }

  /** The value of `key` if it was fetched already; synchronous, for lookups on the call path. */
  peek<A>(key: ListKey<A>): A | undefined {
    // Not judged by the server's cache hints: a `tools/call` routed by a list the hints call
    // stale still reaches the server, which answers for the tool (an SDK v2 server's default
    // `ttlMs: 0` would otherwise cost a `tools/list` before every call). Listings use `get`.
    return (this.entries.get(key) as Entry<A> | undefined)?.settled?.value
  }

  /** Whether `key` is fetched or being fetched. */
  has(key: ListKey<unknown>): boolean {
    return this.entries.has(key)
  }

  /** How many values are fetched or being fetched. */
  get size(): number {
    return this.entries.size
  }

  /** Drops the values `kind`'s `list_changed` made stale; true when there was one. */
  invalidate(kind: ListKind): boolean {
    let dropped = false
    for (const key of this.options.shared?.keys() ?? []) if (key.changedBy === kind) this.options.shared!.delete(key)
    for (const key of this.entries.keys()) {
      if (key.changedBy === kind) dropped = this.entries.delete(key) || dropped
    }
    return dropped
  }

  /** Drops every value (the connection closed). */
  clear(): void {
    this.entries.clear()
  }
}

/**
 * Installs the `list_changed` handlers on a client: each drops the lists it names from `lists`,
 * and `onDropped` hears of it only when something was actually dropped, so a burst of
 * notifications yields one call per stale list. The next reader fetches the list once.
 */
export const dropOnListChanged = (client: Client, lists: ConnectionLists, onDropped: (kind: ListKind) => void): void => {
  const handler = (kind: ListKind) => () => {
    if (lists.invalidate(kind)) onDropped(kind)
    return Promise.resolve()
  }
  client.setNotificationHandler("notifications/tools/list_changed", handler("tools"))
  client.setNotificationHandler("notifications/resources/list_changed", handler("resources"))
  client.setNotificationHandler("notifications/prompts/list_changed", handler("prompts"))
}

/**
 * On a modern (2026-07-28) connection, opens the `subscriptions/listen` stream for the lists the
 * server says change (`listChanged` in its capabilities): its notifications reach the handlers of
 * {@link dropOnListChanged}. Fire and forget: `report` hears why it could not be opened; the
 * stream ends with the connection.
 */
export const listenForChanges = (
  client: Client,
  capabilities: ServerCapabilities | undefined,
  report: (message: string) => void
): void => {
  const filter = {
    ...(capabilities?.tools?.listChanged ? { toolsListChanged: true } : {}),
    ...(capabilities?.resources?.listChanged ? { resourcesListChanged: true } : {}),
    ...(capabilities?.prompts?.listChanged ? { promptsListChanged: true } : {})
  }
  if (Object.keys(filter).length === 0) return
  client.listen(filter).then(
    (subscription) => subscription.closed.then((why) => why === "local" ? undefined : report(`subscriptions/listen ended (${why})`)),
    (error: unknown) => report(`subscriptions/listen failed: ${error instanceof Error ? error.message : String(error)}`)
  )
}
