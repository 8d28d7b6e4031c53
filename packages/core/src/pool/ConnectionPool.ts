/**
 * Live connections, one per server, and the status of every configured server. Every use of a
 * server (list, call, read) goes through `run`, so connecting, limits, error classification and
 * reconnection live in one place. This module is the tag, its types and layers; the
 * implementation is `internal/pool/pool.ts` (the connect itself `handshake.ts`, the lists
 * remembered per connection `ConnectionLists.ts`).
 */
import type { Client, Implementation } from "@modelcontextprotocol/client"
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as PubSub from "effect/PubSub"
import type * as Scope from "effect/Scope"
import type { McpConfig } from "../config/McpConfig.js"
import type { ResolvedServer } from "../config/ServerConfig.js"
import type { ServerUnavailable } from "../Errors.js"
import type { Transport } from "../transport/Transport.js"
import * as internal from "../internal/pool/pool.js"
import * as PoolTypes from "../internal/pool/poolTypes.js"
import { request as driver, type RequestOptions } from "../internal/pool/request.js"
import type { RequestError } from "../internal/pool/RequestErrors.js"

/**
 * Sends one SDK request over a connection as an Effect (for `run`'s `use`): interruption cancels
 * it on the server, failures are typed (`RequestError`).
 * @since 0.1.0
 */
export const request: <A>(
  connection: Connection,
  method: string,
  send: (client: Client, signal: AbortSignal) => Promise<A>,
  options?: RequestOptions
) => Effect.Effect<A, RequestError> = driver

/**
 * How mcpctl introduces itself in `initialize`.
 * @since 0.1.0
 */
export const clientInfo: Implementation = PoolTypes.clientInfo

/**
 * A connected server: the SDK client plus what `initialize` told us.
 * @since 0.1.0
 */
export type Connection = PoolTypes.Connection

/**
 * Options of one request through the pool.
 * @since 0.1.0
 */
export type RunOptions = PoolTypes.RunOptions

/**
 * What `servers` reports for one server.
 * @since 0.1.0
 */
export type ServerState = PoolTypes.ServerState

/**
 * Something changed on a server: caches built on it must be dropped or refreshed.
 * @since 0.1.0
 */
export type PoolEvent = PoolTypes.PoolEvent

/** @since 0.1.0 */
export type { RequestOptions }

/**
 * Library knobs of the pool beyond the settings' limits (idle time, client capabilities, request
 * handlers, era, listening, tasks, the era probe's wait).
 * @since 0.1.0
 */
export type PoolOptions = PoolTypes.PoolOptions

/**
 * How long `auto`'s era probe waits: `probeTimeoutMs` when given, else a tenth of the connect
 * timeout (MCP_TIMEOUT) but at least 3 s; never more than the connect timeout.
 * @since 0.1.0
 */
export const probeTimeout: (probeTimeoutMs: number | undefined, connectTimeoutMs: number) => number = PoolTypes.probeTimeout

/**
 * One live connection per server; status of all of them.
 * @since 0.1.0
 */
export class ConnectionPool extends Context.Tag("@mcpctl/core/ConnectionPool")<
  ConnectionPool,
  {
    readonly servers: ReadonlyArray<ResolvedServer>
    /** The connection to a server, connecting (or reconnecting) when needed. */
    readonly get: (name: string) => Effect.Effect<Connection, ServerUnavailable>
    /**
     * Runs one request on a server with its connection: `use` sends it with {@link request} (the
     * one Promise boundary), which turns SDK failures into typed errors. An expired session is re-initialized and the request resent once; a request
     * lost with its connection is resent once on a fresh one when `idempotent`; repeated
     * transport errors close the connection (Resilience.ts). The connection stays referenced
     * until the request ends, so the idle timer never closes it under a running request.
     *
     * Interruption cancels the request on the server too: the driver aborts its signal, and the
     * SDK sends `notifications/cancelled` with the request's id.
     */
    readonly run: <A>(
      name: string,
      method: string,
      use: (connection: Connection) => Effect.Effect<A, RequestError>,
      options?: RunOptions
    ) => Effect.Effect<A, ServerUnavailable | RequestError>
    /** Connects every enabled server (bounded by the limits), reporting each state as it settles. */
    readonly connectAll: (options?: {
      readonly names?: ReadonlyArray<string> | undefined
      readonly onSettled?: ((state: ServerState) => Effect.Effect<void>) | undefined
    }) => Effect.Effect<ReadonlyArray<ServerState>>
    readonly state: (name: string) => Effect.Effect<ServerState, ServerUnavailable>
    /** The open connection of a server, if there is one; never connects (for cheap cache lookups). */
    readonly peek: (name: string) => Connection | undefined
    /** Drops a server's connection; the next use reconnects. */
    readonly invalidate: (name: string) => Effect.Effect<void>
    readonly events: PubSub.PubSub<PoolEvent>
  }
>() {
  /** The pool with default options. */
  static readonly layer: Layer.Layer<ConnectionPool, never, McpConfig | Transport> = Layer.scoped(
    ConnectionPool,
    make({})
  )
  /** The pool with library options (idle time, client capabilities, request handlers). */
  static readonly layerWith = (options: PoolOptions): Layer.Layer<ConnectionPool, never, McpConfig | Transport> =>
    Layer.scoped(ConnectionPool, make(options))
}

/**
 * Builds a pool over the configured servers (the implementation: `internal/pool/pool.ts`).
 * @since 0.1.0
 */
export function make(options: PoolOptions): Effect.Effect<ConnectionPool["Type"], never, McpConfig | Transport | Scope.Scope> {
  return internal.make(options)
}
