/**
 * What `serve` passes on to its client besides answers: the servers' log lines, at the level the
 * client asked for, and `notifications/resources/updated` for the URIs it subscribed to
 * (catalog/ServerNotices.ts hears them from the servers).
 *
 * - Logs: a 2025-era client asks with `logging/setLevel` (per session); a 2026-07-28 client names
 *   the level in each request's envelope. A line a server sends while a request of the client
 *   runs on it goes with that request (on its response stream, in both eras); a 2025-era
 *   session also gets the lines sent between requests, on its own stream. The protocol ties no
 *   log line to a request, and one connection to a server serves every client: a line goes to
 *   every client with a request running on that server. Each server is told the most verbose
 *   level any client asked for; each client gets only its own level and above.
 * - `resources/updated`: to every 2025-era session that subscribed to the URI, and to 2026-07-28
 *   `subscriptions/listen` streams that name it. A server is subscribed while any session is.
 */
// @ts-nocheck

import type { LoggingLevel, Server } from "@modelcontextprotocol/server"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { levelAtLeast, setLogLevel, type ServerLog } from "../../catalog/Resources.js"
import { moreVerbose, ServerNotices } from "../catalog/ServerNotices.js"
import { ConnectionPool } from "../../pool/ConnectionPool.js"
import { setLevelEverywhere, subscribeRouted } from "./GatewayRequests.js"

/** The 2026-07-28 envelope key of a request's log level. */
const LOG_LEVEL_KEY = "io.modelcontextprotocol/logLevel"

/** What a request handler's context offers here (the SDK's `ctx.mcpReq`). */
export interface NoticeContext {
  readonly envelope?: object | undefined
  readonly notify: (notification: { method: "notifications/message"; params: LogLine }) => Promise<void>
}

interface LogLine {
  readonly [key: string]: unknown
  readonly level: LoggingLevel
  readonly logger?: string
  readonly data: unknown
}

const lineOf = (log: ServerLog): LogLine => ({
  level: log.level,
  ...(log.logger !== undefined ? { logger: log.logger } : {}),
  data: log.data
})

/** What every gateway of one `serve` shares: the level servers were told, the subscriptions held. */
interface Shared {
  asked: LoggingLevel | undefined
  readonly subscribers: Map<string, number>
}
const sharedOf = new WeakMap<object, Shared>()

/**
 * The notices of one gateway server (a session, a stdio connection, or one stateless request).
 * `session`: it has a stream of its own for what comes between requests (not a stateless request).
 */
export const makeGatewayNotices = (server: Server, denied: (server: string) => boolean, session: boolean) =>
  Effect.gen(function*() {
    const found = Option.getOrUndefined(yield* Effect.serviceOption(ServerNotices))
    const shared: Shared = found === undefined ? { asked: undefined, subscribers: new Map() } : sharedOf.get(found) ?? (() => {
      const s: Shared = { asked: undefined, subscribers: new Map() }
      sharedOf.set(found, s)
      return s
    })()
    /** The level this client asked for with `logging/setLevel` (2025 era). */
    let level: LoggingLevel | undefined
    /** Requests of this client running, per server: their lines go with them. */
    const running = new Map<string, number>()
    const subscribed = new Set<string>()

    if (found !== undefined && session) {
      yield* found.onLog((log) => {
        if (level === undefined || (running.get(log.server) ?? 0) > 0 || denied(log.server) || !levelAtLeast(log.level, level)) return
        void server.notification({ method: "notifications/message", params: lineOf(log) }).catch(() => undefined)
      })
      yield* found.onResourceUpdated((update) => {
        if (subscribed.has(update.uri) && !denied(update.server)) void server.sendResourceUpdated({ uri: update.uri }).catch(() => undefined)
      })
      // A session that ends lets go of its subscriptions.
      yield* Effect.addFinalizer(() => Effect.forEach([...subscribed], (uri) => release(uri), { discard: true }))
    }

    /** Every server is told `wanted` when it is more verbose than what they were told. */
    const ask = (wanted: LoggingLevel) => {
      const next = moreVerbose(shared.asked, wanted)
      if (next === shared.asked) return Effect.void
      shared.asked = next
      return Effect.asVoid(setLevelEverywhere(next, denied))
    }

    const release = (uri: string) => {
      const left = (shared.subscribers.get(uri) ?? 1) - 1
      if (left > 0) return Effect.sync(() => void shared.subscribers.set(uri, left))
      shared.subscribers.delete(uri)
      return Effect.ignore(subscribeRouted(uri, denied, false))
    }

    return {
      /** `logging/setLevel` of this client. */
      setLevel: (wanted: LoggingLevel) => Effect.zipRight(Effect.sync(() => void (level = wanted)), ask(wanted)),

      /** `resources/subscribe` (or unsubscribe) of this client: the server is subscribed while anyone is. */
      subscribe: (uri: string, on: boolean) =>
        Effect.suspend(() => {
          if (on === subscribed.has(uri)) return Effect.succeed({})
          if (!on) return Effect.as(Effect.zipRight(Effect.sync(() => subscribed.delete(uri)), release(uri)), {})
          const count = shared.subscribers.get(uri) ?? 0
          const upstream = count === 0 ? subscribeRouted(uri, denied, true) : Effect.succeed({})
          return Effect.as(
            Effect.tap(upstream, () =>
              Effect.sync(() => {
                shared.subscribers.set(uri, (shared.subscribers.get(uri) ?? 0) + 1)
                if (session) subscribed.add(uri)
              })),
            {}
          )
        }),

      /**
       * Runs `effect`, a request of this client on the server `owner` names: the server's log lines
       * meanwhile go to the client with the request, at the client's level (the request's envelope
       * names it in the 2026-07-28 era).
       */
      during: <A, E, R>(
        owner: Effect.Effect<{ readonly server: string }, unknown, R>,
        ctx: NoticeContext,
        effect: Effect.Effect<A, E, R>
      ): Effect.Effect<A, E, R | ConnectionPool> => {
        if (found === undefined) return effect
        const fromEnvelope = (ctx.envelope as Record<string, unknown> | undefined)?.[LOG_LEVEL_KEY] as LoggingLevel | undefined
        const threshold = fromEnvelope ?? level
        return Effect.flatMap(Effect.option(owner), (target): Effect.Effect<A, E, R | ConnectionPool> => {
          if (Option.isNone(target) || threshold === undefined) return effect
          const name = target.value.server
          return Effect.scoped(Effect.gen(function*() {
            if (fromEnvelope !== undefined) yield* ask(fromEnvelope)
            // A connection made since (a reconnect) is told too: once per connection and level.
            if (shared.asked !== undefined) yield* Effect.ignore(setLogLevel(name, shared.asked))
            yield* Effect.acquireRelease(
              Effect.sync(() => void running.set(name, (running.get(name) ?? 0) + 1)),
              () => Effect.sync(() => void running.set(name, (running.get(name) ?? 1) - 1))
            )
            yield* found.onLog((log) => {
              if (log.server !== name || !levelAtLeast(log.level, threshold)) return
              void ctx.notify({ method: "notifications/message", params: lineOf(log) }).catch(() => undefined)
            })
            return yield* effect
          }))
        })
      }
    }
  })
