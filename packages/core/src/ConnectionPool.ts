/**
 * Live connections, one per server, and the status of every configured server. Every use of a
 * server (list, call, read) goes through `run`, so connecting, limits, error classification and
 * reconnection live in one place.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import type { Implementation, ServerCapabilities } from "@modelcontextprotocol/sdk/types.js"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as ExecutionStrategy from "effect/ExecutionStrategy"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as PubSub from "effect/PubSub"
import * as RcMap from "effect/RcMap"
import * as Ref from "effect/Ref"
import * as Runtime from "effect/Runtime"
import * as Scope from "effect/Scope"
import { McpConfig, type ResolvedServer } from "./Config.js"
import { ServerUnavailable, type McpRequestError, type SessionExpired, type TransportFailure } from "./Errors.js"
import { classifyConnectError, classifyRequestError, type RequestError } from "./RequestErrors.js"
import { candidateKinds, type ConcreteKind, Transport } from "./Transport.js"

/** How mcpctl introduces itself in `initialize`. */
export const clientInfo: Implementation = { name: "mcpctl", version: "0.1.0" }

/** A connected server: the SDK client plus what `initialize` told us. */
export interface Connection {
  readonly server: ResolvedServer
  readonly client: Client
  readonly kind: ConcreteKind
  readonly serverInfo: Implementation | undefined
  readonly capabilities: ServerCapabilities | undefined
  readonly instructions: string | undefined
  readonly connectMs: number
  /**
   * Lists fetched over this connection (tools, resources, prompts). They live and die with the
   * connection, so a closed connection can never serve a stale catalogue.
   */
  readonly cache: Map<string, Promise<unknown>>
}

/** What `servers` reports for one server. */
export type ServerState =
  | { readonly status: "connected"; readonly server: ResolvedServer; readonly connection: Connection }
  | {
    readonly status: "failed" | "needs-auth"
    readonly server: ResolvedServer
    readonly error: ServerUnavailable
    readonly connectMs?: number
  }
  | { readonly status: "pending" | "disabled"; readonly server: ResolvedServer }

/** Something changed on a server: caches built on it must be dropped or refreshed. */
export type PoolEvent =
  | { readonly _tag: "Closed"; readonly server: string }
  | { readonly _tag: "ListChanged"; readonly server: string; readonly list: "tools" | "resources" | "prompts" }

/** Library knobs of the pool beyond the settings' limits. */
export interface PoolOptions {
  /**
   * How long an unused connection stays open. Default: forever (the CLI's runs are short; an
   * agent loop may want stdio servers closed after a few idle minutes and reopened on demand).
   */
  readonly idleTimeToLive?: Duration.DurationInput | undefined
  /** Client capabilities to declare (elicitation, roots, ...). */
  readonly capabilities?: ConstructorParameters<typeof Client>[1]
  /** Called with each new client before it connects, to register request handlers. */
  readonly configureClient?: ((client: Client, server: ResolvedServer) => void) | undefined
}

/** One live connection per server; status of all of them. */
export class ConnectionPool extends Context.Tag("@mcpctl/core/ConnectionPool")<
  ConnectionPool,
  {
    readonly servers: ReadonlyArray<ResolvedServer>
    /** The connection to a server, connecting (or reconnecting) when needed. */
    readonly get: (name: string) => Effect.Effect<Connection, ServerUnavailable>
    /**
     * Runs one request on a server with its connection, mapping SDK failures to typed errors.
     * The signal aborts when the effect is interrupted (timeouts cancel the request).
     */
    readonly run: <A>(
      name: string,
      method: string,
      request: (connection: Connection, signal: AbortSignal) => Promise<A>
    ) => Effect.Effect<A, ServerUnavailable | RequestError>
    /** Connects every enabled server (bounded by the limits), reporting each state as it settles. */
    readonly connectAll: (options?: {
      readonly names?: ReadonlyArray<string> | undefined
      readonly onSettled?: ((state: ServerState) => Effect.Effect<void>) | undefined
    }) => Effect.Effect<ReadonlyArray<ServerState>>
    readonly state: (name: string) => Effect.Effect<ServerState, ServerUnavailable>
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

export type { RequestError } from "./RequestErrors.js"
export type { McpRequestError, SessionExpired, TransportFailure }

/** Builds a pool over the configured servers. */
export function make(options: PoolOptions) {
  return Effect.gen(function*() {
    const config = yield* McpConfig
    const transport = yield* Transport
    const runtime = yield* Effect.runtime<never>()
    const byName = new Map(config.servers.map((s) => [s.name, s] as const))
    const local = yield* Effect.makeSemaphore(config.limits.localConcurrency)
    const remote = yield* Effect.makeSemaphore(config.limits.remoteConcurrency)
    const events = yield* Effect.acquireRelease(PubSub.unbounded<PoolEvent>(), PubSub.shutdown)
    const states = yield* Ref.make(
      new Map<string, ServerState>(
        config.servers.map((server) => [server.name, initialState(server)] as const)
      )
    )
    const setState = (state: ServerState) =>
      Ref.update(states, (m) => new Map(m).set(state.server.name, state))

    const unknownServer = (name: string) =>
      new ServerUnavailable({
        server: name,
        status: "failed",
        message: `No server named "${name}" is configured. Configured: ${
          [...byName.keys()].join(", ") || "none"
        }. Add one with \`mcpctl add ${name} ...\` or pass --config FILE.`
      })

    // One attempt over one transport kind, in a child scope that is closed if the attempt fails,
    // so a failed Streamable HTTP attempt is gone before SSE is tried.
    const attempt = (server: ResolvedServer, kind: ConcreteKind, entryScope: Scope.Scope) =>
      Effect.gen(function*() {
        const scope = yield* Scope.fork(entryScope, ExecutionStrategy.sequential)
        return yield* Effect.gen(function*() {
          const opened = yield* transport.open(server, kind).pipe(Scope.extend(scope))
          const client = new Client(clientInfo, options.capabilities ?? { capabilities: {} })
          options.configureClient?.(client, server)
          yield* Scope.addFinalizer(scope, Effect.promise(() => client.close().catch(() => undefined)))
          yield* Effect.tryPromise({
            try: () => client.connect(opened.transport, { timeout: config.limits.connectTimeoutMs }),
            catch: (cause) => ({ cause, diagnostics: opened.diagnostics() })
          })
          return { client, kind }
        }).pipe(Effect.onExit((exit) => (Exit.isSuccess(exit) ? Effect.void : Scope.close(scope, exit))))
      })

    const connect = (server: ResolvedServer, entryScope: Scope.Scope) =>
      Effect.gen(function*() {
        const kinds = candidateKinds(server)
        let last: { cause: unknown; diagnostics: string | undefined } | undefined
        for (const [i, kind] of kinds.entries()) {
          const result = yield* Effect.either(attempt(server, kind, entryScope))
          if (result._tag === "Right") return result.right
          if (result.left instanceof ServerUnavailable) return yield* Effect.fail(result.left)
          last = result.left
          const canFallBack = i < kinds.length - 1 && classifyConnectError(server, last).fallback
          if (!canFallBack) break
        }
        return yield* Effect.fail(classifyConnectError(server, last!).error)
      })

    const lookup = (name: string) =>
      Effect.gen(function*() {
        const server = byName.get(name)
        if (!server) return yield* Effect.fail(unknownServer(name))
        if (server.config.disabled) {
          return yield* Effect.fail(
            new ServerUnavailable({
              server: name,
              status: "disabled",
              message: `Server "${name}" is disabled in ${server.source}. Remove "disabled": true to use it.`
            })
          )
        }
        const entryScope = yield* Effect.scope
        const semaphore = server.transport === "stdio" ? local : remote
        const timeoutMs = config.limits.connectTimeoutMs
        const started = yield* Effect.clockWith((c) => c.currentTimeMillis)
        const { client, kind } = yield* semaphore.withPermits(1)(
          connect(server, entryScope).pipe(
            Effect.timeoutFail({
              duration: Duration.millis(timeoutMs),
              onTimeout: () =>
                new ServerUnavailable({
                  server: name,
                  status: "failed",
                  message: `Server "${name}" did not finish connecting within ${timeoutMs} ms. ` +
                    `Check that it starts on its own, or raise MCP_TIMEOUT.`
                })
            })
          )
        ).pipe(
          Effect.tapError((error) =>
            Effect.gen(function*() {
              const now = yield* Effect.clockWith((c) => c.currentTimeMillis)
              yield* setState({
                status: error.status === "needs-auth" ? "needs-auth" : "failed",
                server,
                error,
                connectMs: now - started
              })
            })
          )
        )
        const connectMs = (yield* Effect.clockWith((c) => c.currentTimeMillis)) - started
        const connection: Connection = {
          server,
          client,
          kind,
          serverInfo: client.getServerVersion(),
          capabilities: client.getServerCapabilities(),
          instructions: client.getInstructions(),
          connectMs,
          cache: new Map()
        }
        // The server went away (crash, network): forget this connection so the next use
        // reconnects, and tell caches built on it.
        client.onclose = () => {
          connection.cache.clear()
          Runtime.runFork(runtime)(onClosed(connection))
        }
        yield* setState({ status: "connected", server, connection })
        return connection
      })

    const ttl = options.idleTimeToLive
    const connections = yield* RcMap.make({
      lookup,
      idleTimeToLive: ttl === undefined ? Duration.infinity : ttl
    })

    const onClosed = (connection: Connection) =>
      Effect.gen(function*() {
        const name = connection.server.name
        const current = (yield* Ref.get(states)).get(name)
        // Only the connection that is current may reset the state: a replaced one closing late
        // must not mark its successor as gone.
        if (current?.status === "connected" && current.connection === connection) {
          yield* setState(initialState(connection.server))
          yield* RcMap.invalidate(connections, name)
        }
        yield* PubSub.publish(events, { _tag: "Closed", server: name })
      })

    const get = (name: string): Effect.Effect<Connection, ServerUnavailable> =>
      Effect.scoped(RcMap.get(connections, name)).pipe(
        // A failed connect is not remembered: the next use tries again.
        Effect.tapError(() => RcMap.invalidate(connections, name))
      )

    const run = <A>(
      name: string,
      method: string,
      request: (connection: Connection, signal: AbortSignal) => Promise<A>
    ): Effect.Effect<A, ServerUnavailable | RequestError> =>
      Effect.flatMap(get(name), (connection) =>
        Effect.tryPromise({
          try: (signal) => request(connection, signal),
          catch: (cause) => classifyRequestError(connection.server.name, method, cause)
        }))

    const connectAll = (opts?: {
      readonly names?: ReadonlyArray<string> | undefined
      readonly onSettled?: ((state: ServerState) => Effect.Effect<void>) | undefined
    }) =>
      Effect.gen(function*() {
        const wanted = opts?.names ?? config.servers.map((s) => s.name)
        return yield* Effect.forEach(
          wanted,
          (name) =>
            get(name).pipe(
              Effect.ignore,
              Effect.zipRight(state(name).pipe(Effect.orElseSucceed(() => undefined))),
              Effect.tap((s) => (s && opts?.onSettled ? opts.onSettled(s) : Effect.void))
            ),
          // The semaphores inside the lookup bound real concurrency per kind.
          { concurrency: "unbounded" }
        ).pipe(Effect.map((all) => all.filter((s): s is ServerState => s !== undefined)))
      })

    const state = (name: string) =>
      Effect.flatMap(Ref.get(states), (m) => {
        const s = m.get(name)
        return s ? Effect.succeed(s) : Effect.fail(unknownServer(name))
      })

    return ConnectionPool.of({
      servers: config.servers,
      get,
      run,
      connectAll,
      state,
      invalidate: (name) => RcMap.invalidate(connections, name),
      events
    })
  })
}

function initialState(server: ResolvedServer): ServerState {
  return server.config.disabled ? { status: "disabled", server } : { status: "pending", server }
}
