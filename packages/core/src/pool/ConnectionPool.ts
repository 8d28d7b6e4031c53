/**
 * Live connections, one per server, and the status of every configured server. Every use of a
 * server (list, call, read) goes through `run`, so connecting, limits, error classification and
 * reconnection live in one place.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import {
  type Implementation,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  type ServerCapabilities,
  ToolListChangedNotificationSchema
} from "@modelcontextprotocol/sdk/types.js"
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
import { McpConfig } from "../config/McpConfig.js"
import { type ResolvedServer, unknownServerMessage } from "../config/ServerConfig.js"
import { ServerUnavailable } from "../Errors.js"
import { isNeedsAuthCached, markNeedsAuth } from "./NeedsAuthCache.js"
import { classifyConnectError, classifyRequestFailure, type RequestError } from "./RequestErrors.js"
import {
  afterRequest,
  answerInvalidResponses,
  mayResend,
  type Outcome
} from "./Resilience.js"
import { candidateKinds, Transport } from "../transport/Transport.js"
import { type ConcreteKind } from "../transport/OpenedTransport.js"

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
  /** The server's process id (stdio only): for diagnostics, and for tests that kill it. */
  readonly pid: number | undefined
}

/** Options of one request through the pool. */
export interface RunOptions {
  /**
   * Sending the request twice is harmless, so a request lost with its connection is sent once
   * more on a fresh one. Default: true for everything but `tools/call`, whose callers pass the
   * tool's `readOnlyHint || idempotentHint`.
   */
  readonly idempotent?: boolean | undefined
  /**
   * Aborts the request (the SDK then sends `notifications/cancelled`). Interrupting the effect
   * alone stops the wait but does not tell the server: an interrupt handler per request costs
   * more than the request itself on a fast server, so callers that cancel (timeouts) pass this.
   */
  readonly signal?: AbortSignal | undefined
}

/**
 * Memoizes a list on its connection (`connection.cache`): concurrent askers share one request, a
 * failed fetch is forgotten, and the list dies with the connection.
 */
export const cachedOnConnection = <A>(
  connection: Connection,
  key: string,
  signal: AbortSignal | undefined,
  fetch: (connection: Connection, signal: AbortSignal | undefined) => Promise<A>
): Promise<A> => {
  const hit = connection.cache.get(key)
  if (hit) return hit as Promise<A>
  const pending = fetch(connection, signal)
  connection.cache.set(key, pending)
  pending.catch(() => {
    if (connection.cache.get(key) === pending) connection.cache.delete(key)
  })
  return pending
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
  /**
   * Called with each new client before it connects, to register request handlers. The pool owns
   * the `list_changed` notification handlers (they drop cached lists); subscribe to `events`.
   */
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
     * The signal aborts when the effect is interrupted (timeouts cancel the request). An expired
     * session is re-initialized and the request resent once; a request lost with its connection
     * is resent once on a fresh one when `idempotent`; repeated transport errors close the
     * connection (Resilience.ts). The connection stays referenced until the request ends, so
     * the idle timer never closes it under a running request.
     */
    readonly run: <A>(
      name: string,
      method: string,
      request: (connection: Connection, signal: AbortSignal | undefined) => Promise<A>,
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
    // The live connection per server. Only the connection found here may drop the RcMap entry of
    // its name: a replaced connection closing late must not take its successor down.
    const current = new Map<string, Connection>()
    const closedEarly = new WeakSet<Client>()
    // Consecutive terminal transport errors per client (Resilience.afterRequest).
    const failures = new WeakMap<Client, number>()
    const fork = Runtime.runFork(runtime)

    const unknownServer = (name: string) =>
      new ServerUnavailable({
        server: name,
        status: "failed",
        message: unknownServerMessage([name], config.servers)
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
          // Until the connection is registered, a close is only remembered (see `lookup`).
          client.onclose = () => void closedEarly.add(client)
          yield* Scope.addFinalizer(scope, Effect.promise(() => client.close().catch(() => undefined)))
          yield* Effect.tryPromise({
            // Our own timeout (below, in `lookup`) owns MCP_TIMEOUT and its message; the SDK's
            // request timer only backs it up.
            try: () => client.connect(opened.transport, { timeout: config.limits.connectTimeoutMs + 1_000 }),
            catch: (cause) => ({ cause, diagnostics: opened.diagnostics() })
          })
          // Any message from the server proves the transport works: the error count restarts.
          answerInvalidResponses(opened.transport, server.name, () => failures.set(client, 0))
          const pid = (opened.transport as { readonly pid?: unknown }).pid
          return { client, kind, pid: typeof pid === "number" ? pid : undefined }
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
        const { error } = classifyConnectError(server, last!)
        // Remembered across runs so later ones do not hit the server until the user signs in.
        if (error.status === "needs-auth") yield* markNeedsAuth(config.home, server.name)
        return yield* Effect.fail(error)
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
        if (server.unresolved) {
          // Never started: expanding its settings failed (an unset ${VAR}), and a secret must
          // never be sent literally. It fails alone; the other servers run.
          const error = new ServerUnavailable({ server: name, status: "failed", message: server.unresolved.message })
          yield* setState({ status: "failed", server, error })
          return yield* Effect.fail(error)
        }
        if (server.transport !== "stdio" && (yield* isNeedsAuthCached(config.home, name))) {
          const error = new ServerUnavailable({
            server: name,
            status: "needs-auth",
            message: `Server "${name}" needs authorization (it refused us less than 15 minutes ago, so it ` +
              `was not contacted again). Run \`mcpctl auth ${name}\` to sign in.`
          })
          yield* setState({ status: "needs-auth", server, error })
          return yield* Effect.fail(error)
        }
        const entryScope = yield* Effect.scope
        const semaphore = server.transport === "stdio" ? local : remote
        const timeoutMs = config.limits.connectTimeoutMs
        // The connect time starts once a permit is held: waiting behind other servers in the
        // queue is not this server's slowness (`servers` TIME).
        let started = yield* Effect.clockWith((c) => c.currentTimeMillis)
        const { client, kind, pid } = yield* semaphore.withPermits(1)(
          Effect.clockWith((c) => c.currentTimeMillis).pipe(
            Effect.tap((now) => Effect.sync(() => (started = now))),
            Effect.zipRight(connect(server, entryScope))
          ).pipe(
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
          cache: new Map(),
          pid
        }
        watchListChanges(connection)
        // The server went away (crash, network): forget this connection so the next use
        // reconnects, and tell caches built on it.
        client.onclose = () => {
          connection.cache.clear()
          fork(drop(connection))
        }
        // Closed between the handshake and now: the handler above came too late to see it.
        if (closedEarly.has(client)) client.onclose()
        // However the entry ends (idle timeout, invalidation, pool shutdown), the connection is
        // forgotten with it.
        yield* Effect.addFinalizer(() => forget(connection))
        current.set(name, connection)
        yield* setState({ status: "connected", server, connection })
        return connection
      })

    // `list_changed` drops the cached list; the next reader fetches it once, however many
    // notifications came. An event is published only when a cached list was actually dropped,
    // so a burst of notifications yields one event per stale list.
    const watchListChanges = (connection: Connection) => {
      const onChange = (list: "tools" | "resources" | "prompts", keys: ReadonlyArray<string>) => () => {
        let dropped = false
        for (const key of keys) dropped = connection.cache.delete(key) || dropped
        if (dropped && current.get(connection.server.name) === connection) {
          fork(PubSub.publish(events, { _tag: "ListChanged", server: connection.server.name, list }))
        }
        return Promise.resolve()
      }
      const client = connection.client
      client.setNotificationHandler(ToolListChangedNotificationSchema, onChange("tools", ["tools"]))
      client.setNotificationHandler(ResourceListChangedNotificationSchema, onChange("resources", ["resources", "templates"]))
      client.setNotificationHandler(PromptListChangedNotificationSchema, onChange("prompts", ["prompts"]))
    }

    const ttl = options.idleTimeToLive
    // The error of the latest failed connect per server. Every fiber that waited on that connect
    // gets the very same error object; only the first one to see it still current drops the
    // failed entry, so a late waiter cannot drop a fresh entry another fiber just made.
    const failedWith = new Map<string, ServerUnavailable>()
    const connections = yield* RcMap.make({
      lookup: (name: string) => lookup(name).pipe(Effect.tapError((error) => Effect.sync(() => failedWith.set(name, error)))),
      idleTimeToLive: ttl === undefined ? Duration.infinity : ttl
    })

    /** Forgets a connection that is current; true when it was. */
    const forget = (connection: Connection) =>
      Effect.gen(function*() {
        const name = connection.server.name
        if (current.get(name) !== connection) return false
        current.delete(name)
        connection.cache.clear()
        yield* setState(initialState(connection.server))
        yield* PubSub.publish(events, { _tag: "Closed", server: name })
        return true
      })

    /** Closes a connection if it is still current; the next use of its server reconnects. */
    const drop = (connection: Connection) =>
      Effect.gen(function*() {
        if (yield* forget(connection)) yield* RcMap.invalidate(connections, connection.server.name)
      })

    const get = (name: string): Effect.Effect<Connection, ServerUnavailable> =>
      Effect.scoped(acquire(name))

    // A failed connect is not remembered: the next use tries again.
    const acquire = (name: string) =>
      RcMap.get(connections, name).pipe(Effect.tapError((error) => {
        if (failedWith.get(name) !== error) return Effect.void
        failedWith.delete(name)
        return RcMap.invalidate(connections, name)
      }))

    const settle = (connection: Connection, outcome: Outcome) =>
      Effect.gen(function*() {
        const verdict = afterRequest(connection.kind, failures.get(connection.client) ?? 0, outcome)
        failures.set(connection.client, verdict.failures)
        if (verdict.drop) yield* drop(connection)
        // Gone either way: dropped now, or closed under the request (crash, reset) meanwhile.
        return verdict.drop || current.get(connection.server.name) !== connection
      })

    const run = <A>(
      name: string,
      method: string,
      request: (connection: Connection, signal: AbortSignal | undefined) => Promise<A>,
      runOptions?: RunOptions
    ): Effect.Effect<A, ServerUnavailable | RequestError> =>
      Effect.suspend(() => {
        const idempotent = runOptions?.idempotent ?? method !== "tools/call"
        // The success path is one async step: failures are classified, counted and maybe resent
        // inside it, because every extra combinator shows in the per-call cost (bench/).
        const attempt = (connection: Connection, resent: boolean): Effect.Effect<A, RequestError | ServerUnavailable> =>
          Effect.async((resume) => {
            const failed = (cause: unknown) => {
              const { error, terminal } = classifyRequestFailure(name, method, cause, { idempotent })
              // No settle on success: the answer may have come from a cached list; real
              // answers reset the count as they arrive (see `attempt` in connect).
              resume(Effect.flatMap(settle(connection, { _tag: "Failed", error, terminal }), (dropped) =>
                !resent && mayResend(error, { idempotent, dropped }) ? once(true) : Effect.fail(error)))
            }
            try {
              request(connection, runOptions?.signal).then((value) => resume(Effect.succeed(value)), failed)
            } catch (cause) {
              failed(cause)
            }
          })
        // Hot path: with no idle timer there is nothing a reference could hold open, so a live
        // connection is used as is; otherwise the RcMap reference keeps it open for the request.
        const once = (resent: boolean): Effect.Effect<A, RequestError | ServerUnavailable> => {
          const live = ttl === undefined ? current.get(name) : undefined
          return live
            ? attempt(live, resent)
            : Effect.scoped(Effect.flatMap(acquire(name), (connection) => attempt(connection, resent)))
        }
        return once(false)
      })

    const connectAll = (opts?: {
      readonly names?: ReadonlyArray<string> | undefined
      readonly onSettled?: ((state: ServerState) => Effect.Effect<void>) | undefined
    }) =>
      Effect.gen(function*() {
        const wanted = opts?.names ?? config.servers.filter((s) => !s.config.disabled).map((s) => s.name)
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

    const invalidate = (name: string) => {
      const connection = current.get(name)
      return connection ? drop(connection) : RcMap.invalidate(connections, name)
    }

    return ConnectionPool.of({
      servers: config.servers,
      get,
      run,
      connectAll,
      state,
      peek: (name) => current.get(name),
      invalidate,
      events
    })
  })
}

function initialState(server: ResolvedServer): ServerState {
  return server.config.disabled ? { status: "disabled", server } : { status: "pending", server }
}
