/**
 * What servers tell the host between answers, for whoever listens: their log messages (at the
 * host's threshold, `Host.layer`'s `serverLogs`) and `notifications/resources/updated` for the
 * URIs subscribed to. `serve` passes both on to its clients (gateway/GatewayNotices.ts). Listeners
 * are plain functions, called in order on the connection's own callback: a message nobody listens
 * to costs one empty set's iteration.
 */
// @ts-nocheck

import type { Client, LoggingLevel } from "@modelcontextprotocol/client"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import type { ResolvedServer } from "../../config/ServerConfig.js"
import { logLevels, type ServerLog } from "../../catalog/Resources.js"

/** A resource a server says changed. */
export interface ResourceUpdated {
  readonly server: string
  readonly uri: string
}

/** The more verbose of two levels (`undefined`: none asked) (pure). */
export const moreVerbose = (a: LoggingLevel | undefined, b: LoggingLevel): LoggingLevel =>
  a === undefined || logLevels.indexOf(b) < logLevels.indexOf(a) ? b : a

const listenerSet = <A>() => {
  const listeners = new Set<(a: A) => void>()
  return {
    emit: (a: A) => {
      for (const listener of listeners) listener(a)
    },
    /** Adds `listener` while the scope lasts. */
    on: (listener: (a: A) => void): Effect.Effect<void, never, Scope.Scope> =>
      Effect.acquireRelease(Effect.sync(() => void listeners.add(listener)), () => Effect.sync(() => void listeners.delete(listener)))
  }
}

export class ServerNotices extends Context.Tag("@mcpctl/core/internal/catalog/ServerNotices")<
  ServerNotices,
  {
    /** Hears every server log message the host takes, while the scope lasts. */
    readonly onLog: (listener: (log: ServerLog) => void) => Effect.Effect<void, never, Scope.Scope>
    /** Hears every `notifications/resources/updated`, while the scope lasts. */
    readonly onResourceUpdated: (listener: (update: ResourceUpdated) => void) => Effect.Effect<void, never, Scope.Scope>
    /** Hands `log` to the listeners (the host's log handler calls it). */
    readonly log: (log: ServerLog) => void
    /** A pool `configureClient` hook: the server's `resources/updated` reach the listeners. */
    readonly configureClient: (client: Client, server: ResolvedServer) => void
  }
>() {
  static readonly layer: Layer.Layer<ServerNotices> = Layer.sync(this, () => {
    const logs = listenerSet<ServerLog>()
    const updates = listenerSet<ResourceUpdated>()
    return ServerNotices.of({
      onLog: logs.on,
      onResourceUpdated: updates.on,
      log: logs.emit,
      configureClient: (client, server) =>
        client.setNotificationHandler("notifications/resources/updated", (n) => {
          updates.emit({ server: server.name, uri: n.params.uri })
        })
    })
  })
}
