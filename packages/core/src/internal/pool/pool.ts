/**
 * The pool's implementation behind the `ConnectionPool` tag (pool/ConnectionPool.ts): one record
 * per configured server and one per connection (`ServerRecord`, `ConnectionRecord`), connects
 * through an RcMap bounded by the local and remote semaphores, and `run`, the one way a request
 * reaches a server. The connect itself is `handshake.ts`, the lists remembered per connection
 * `ConnectionLists.ts`, the request driver `request.ts`.
 */
import type { Transport as SdkTransport } from "@modelcontextprotocol/client"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as PubSub from "effect/PubSub"
import * as RcMap from "effect/RcMap"
import * as Runtime from "effect/Runtime"
import { McpConfig } from "../../config/McpConfig.js"
import { type Protocol, type ResolvedServer, unknownServerMessage } from "../../config/ServerConfig.js"
import { ServerUnavailable } from "../../Errors.js"
import { Transport } from "../../transport/Transport.js"
import { ConnectionLists, dropOnListChanged, listenForChanges, type SharedLists } from "./ConnectionLists.js"
import { handshake } from "./handshake.js"
import { listensTo, notificationShortcut, withTasksExtension } from "./hostClient.js"
import { defaultTracer } from "../traceContext.js"
import { isNeedsAuthCached, markNeedsAuth, needsAuthKey } from "./NeedsAuthCache.js"
import { clientInfo, type Connection, type PoolEvent, type PoolOptions, probeTimeout, type RunOptions, type ServerState } from "./poolTypes.js"
import { isTerminal, type RequestError } from "./RequestErrors.js"
import { afterRequest, answerInvalidResponses, mayResend, type Outcome } from "./Resilience.js"

/** Everything the pool knows about one configured server, made once per server. */
interface ServerRecord {
  readonly server: ResolvedServer
  /** The connect limit it counts against: local (stdio) or remote. */
  readonly permits: Effect.Semaphore
  /** What `state` reports. */
  state: ServerState
  /**
   * The current connection. Only this one may drop the server's RcMap entry: a replaced
   * connection closing late must not take its successor down.
   */
  live: ConnectionRecord | undefined
  /**
   * The error of the latest failed connect. Every fiber that waited on that connect gets the
   * very same error object; only the first one to see it still current drops the failed entry,
   * so a late waiter cannot drop a fresh entry another fiber just made.
   */
  failedConnect: ServerUnavailable | undefined
  /** Connections made so far: after the first, a connect is a reconnect (in the logs). */
  connects: number
}

/** One connection: what `get` hands out, plus what only the pool tracks about it. */
interface ConnectionRecord extends Connection {
  /** Terminal transport errors in a row (Resilience.afterRequest); any server message resets it. */
  failures: number
}

/** Builds a pool over the configured servers (what `ConnectionPool.make` returns). */
export function make(options: PoolOptions) {
  return Effect.gen(function*() {
    const config = yield* McpConfig
    const transport = yield* Transport
    const runtime = yield* Effect.runtime<never>()
    const fork = Runtime.runFork(runtime)
    const local = yield* Effect.makeSemaphore(config.limits.localConcurrency)
    const remote = yield* Effect.makeSemaphore(config.limits.remoteConcurrency)
    const events = yield* Effect.acquireRelease(PubSub.unbounded<PoolEvent>(), PubSub.shutdown)
    const records = new Map(config.servers.map((server): [string, ServerRecord] => [server.name, {
      server,
      permits: server.transport === "stdio" ? local : remote,
      state: initialState(server),
      live: undefined,
      failedConnect: undefined,
      connects: 0
    }]))
    const ttl = options.idleTimeToLive
    // Each server's `public` lists outlive the connection that fetched them, while fresh (CacheHints.ts).
    const sharedLists = new Map(config.servers.map((server): [string, SharedLists] => [server.name, new Map()]))
    // Every transport opened and not yet closed, connected or still connecting (for shutdown).
    const open = new Set<SdkTransport>()
    /** Set when the pool's shutdown begins: closes seen after it need no bookkeeping. */
    let shuttingDown = false
    const handshakeOptions = {
      clientInfo,
      // Every client of the pool can take a task for an answer (HostClient lifts it).
      capabilities: options.tasks === false ? options.capabilities : withTasksExtension(options.capabilities),
      configureClient: options.configureClient,
      // Our own timeout (in `lookup`) owns MCP_TIMEOUT and its message; the SDK's only backs it up.
      sdkTimeoutMs: config.limits.connectTimeoutMs + 1_000,
      open,
      protocolOf: (server: ResolvedServer): Protocol => options.protocol ?? server.config.protocol ?? "auto",
      home: config.home,
      probeTimeoutMs: probeTimeout(options.probeTimeoutMs, config.limits.connectTimeoutMs),
      startupGraceMs: config.limits.startupGraceMs
    }

    const debug = (name: string, message: string) => Effect.annotateLogs(Effect.logDebug(message), { server: name })

    const unavailable = (name: string, status: "failed" | "disabled" | "needs-auth", message: string) =>
      new ServerUnavailable({ server: name, status, message })
    const unknownServer = (name: string) => unavailable(name, "failed", unknownServerMessage([name], config.servers))

    // The RcMap's lookup: connect one server. Its scope is the connection's: closing it (idle
    // timeout, invalidation, pool shutdown) closes the client and the transport.
    const lookup = (name: string) =>
      Effect.gen(function*() {
        const entry = records.get(name)!
        const server = entry.server
        if (server.unresolved) {
          // Never started: expanding its settings failed (an unset ${VAR}), and a secret must
          // never be sent literally. It fails alone; the other servers run.
          const error = unavailable(name, "failed", server.unresolved.message)
          entry.state = { status: "failed", server, error }
          return yield* Effect.fail(error)
        }
        if (server.transport !== "stdio" && (yield* isNeedsAuthCached(config.home, needsAuthKey(server)))) {
          const error = unavailable(
            name,
            "needs-auth",
            `Server "${name}" needs authorization (it refused us less than 15 minutes ago, so it ` +
              `was not contacted again). Run \`mcpctl auth ${name}\` to sign in.`
          )
          entry.state = { status: "needs-auth", server, error }
          yield* debug(name, "needs authorization (a 401 less than 15 minutes ago): not contacted")
          return yield* Effect.fail(error)
        }
        const timeoutMs = config.limits.connectTimeoutMs
        // The connect time starts once a permit is held: waiting behind other servers in the
        // queue is not this server's slowness (`servers` TIME).
        let started = yield* Effect.clockWith((c) => c.currentTimeMillis)
        const elapsed = Effect.map(Effect.clockWith((c) => c.currentTimeMillis), (now) => now - started)
        const opened = yield* entry.permits.withPermits(1)(
          Effect.clockWith((c) => c.currentTimeMillis).pipe(
            Effect.tap((now) => Effect.sync(() => (started = now))),
            Effect.zipRight(Effect.flatMap(Effect.scope, (scope) => handshake(transport, server, handshakeOptions, scope)))
          ).pipe(
            Effect.timeoutFail({
              duration: Duration.millis(timeoutMs),
              onTimeout: () =>
                unavailable(name, "failed", `Server "${name}" did not finish connecting within ${timeoutMs} ms. ` +
                  `Check that it starts on its own, or raise MCP_TIMEOUT.`)
            })
          )
        ).pipe(
          Effect.tapError((error) =>
            Effect.gen(function*() {
              const status = error.status === "needs-auth" ? "needs-auth" : "failed"
              entry.state = { status, server, error, connectMs: yield* elapsed }
              if (error.status !== "needs-auth") return yield* debug(name, `connect failed: ${error.message}`)
              // Remembered across runs so later ones do not hit the server until the user signs in.
              yield* markNeedsAuth(config.home, needsAuthKey(server), server.name)
              yield* debug(name, "needs authorization: remembered for 15 minutes")
            })
          ),
          Effect.withSpan("ConnectionPool.connect", { captureStackTrace: false, attributes: { server: name } })
        )
        const client = opened.client
        const record: ConnectionRecord = {
          server,
          client,
          kind: opened.kind,
          serverInfo: client.getServerVersion(),
          capabilities: client.getServerCapabilities(),
          clientCapabilities: handshakeOptions.capabilities?.capabilities ?? {},
          instructions: client.getInstructions(),
          connectMs: yield* elapsed,
          lists: new ConnectionLists({ shared: sharedLists.get(name) }),
          pid: opened.pid,
          era: opened.era,
          protocolVersion: opened.protocolVersion,
          ...(opened.eraByTimeout ? { eraByTimeout: true } : {}),
          failures: 0
        }
        // Any message from the server proves the transport works: the error count restarts.
        // Notifications nobody handles never reach the SDK's schema dispatch (a flood of them cost
        // 95 s of CPU).
        answerInvalidResponses(opened.transport, name, () => void (record.failures = 0), listensTo(client), notificationShortcut(client), record.era)
        dropOnListChanged(client, record.lists, (list) => {
          if (entry.live === record) fork(PubSub.publish(events, { _tag: "ListChanged", server: name, list }))
        })
        // Modern servers send changes only on a subscriptions/listen stream; the same handlers
        // hear them. Opened in the background: the connect does not wait for the acknowledgement.
        if (record.era === "modern" && options.listen !== false) {
          listenForChanges(client, record.capabilities, (message) => fork(debug(name, message)))
        }
        // However the entry ends (idle timeout, invalidation, pool shutdown), the connection is
        // forgotten with it.
        yield* Effect.addFinalizer(() => forget(record, "closed (idle time over, invalidated or pool closed)"))
        entry.live = record
        entry.state = { status: "connected", server, connection: record }
        entry.connects++
        // The server went away (crash, network): forget this connection so the next use
        // reconnects, and tell caches built on it. Registered first, so a close seen by the
        // handshake (before this handler existed) drops it just the same.
        const closed = () => {
          record.lists.clear()
          // While the pool shuts down every close is ours: a fiber per close to forget and
          // publish cost fifty servers a quarter of their shutdown's CPU.
          if (!shuttingDown) fork(drop(record, "closed by the server"))
        }
        client.onclose = closed
        if (opened.closedEarly()) closed()
        yield* debug(
          name,
          `${entry.connects > 1 ? "reconnected" : "connected"} over ${opened.kind} (${record.era}, ` +
            `${record.protocolVersion ?? "unknown version"}) in ${record.connectMs} ms`
        )
        return record
      })

    const connections = yield* RcMap.make({
      lookup: (name: string) =>
        lookup(name).pipe(Effect.tapError((error) => Effect.sync(() => (records.get(name)!.failedConnect = error)))),
      idleTimeToLive: ttl === undefined ? Duration.infinity : ttl
    })

    // The RcMap closes its entries one after another; fifty stubborn servers took 0.5 s each.
    // Closing every open transport first, all at once (connected ones and those still
    // connecting), leaves the RcMap only finished closes to await (a transport's close is
    // idempotent). Added after the RcMap, so it runs first.
    // One promise for all of them, not a fiber each: fifty forks and joins (each merging the
    // child's FiberRefs back) were a good part of the shutdown's CPU.
    yield* Effect.addFinalizer(() =>
      Effect.promise(() => {
        shuttingDown = true
        return Promise.all([...open].map((t) => t.close().catch(() => undefined)))
      })
    )

    /** Forgets a connection that is current; true when it was. */
    const forget = (record: ConnectionRecord, why: string) =>
      Effect.suspend(() => {
        const entry = records.get(record.server.name)!
        if (entry.live !== record) return Effect.succeed(false)
        entry.live = undefined
        entry.state = initialState(entry.server)
        record.lists.clear()
        return debug(entry.server.name, `connection ${why}`).pipe(
          Effect.zipRight(PubSub.publish(events, { _tag: "Closed", server: entry.server.name })),
          Effect.as(true)
        )
      })

    /** Closes a connection if it is still current; the next use of its server reconnects. */
    const drop = (record: ConnectionRecord, why: string) =>
      Effect.flatMap(forget(record, `dropped: ${why}`), (was) =>
        was ? RcMap.invalidate(connections, record.server.name) : Effect.void)

    /**
     * The one way to a connection (`run`, `get`, `connectAll`): the live one, or a connect that
     * concurrent askers share. A failed connect is not remembered: the next use tries again.
     * With an idle timer, the RcMap reference held while `use` runs keeps the connection open.
     */
    const withConnection = <A, E>(
      name: string,
      use: (connection: ConnectionRecord) => Effect.Effect<A, E>
    ): Effect.Effect<A, E | ServerUnavailable> => {
      const entry = records.get(name)
      if (!entry) return Effect.fail(unknownServer(name))
      // Hot path: with no idle timer nothing can close a live connection for idleness, so it is
      // used as is (no RcMap reference, no scope).
      const live = ttl === undefined ? entry.live : undefined
      if (live) return use(live)
      if (entry.server.config.disabled) {
        const where = entry.server.source
        return Effect.fail(unavailable(name, "disabled", `Server "${name}" is disabled in ${where}. Remove "disabled": true to use it.`))
      }
      return Effect.scoped(Effect.flatMap(
        RcMap.get(connections, name).pipe(Effect.tapError((error) => {
          // A failed connect is forgotten (the next use tries again) unless the options keep it.
          if (options.rememberFailedConnects || entry.failedConnect !== error) return Effect.void
          entry.failedConnect = undefined
          return RcMap.invalidate(connections, name)
        })),
        use
      ))
    }

    const get = (name: string): Effect.Effect<Connection, ServerUnavailable> => withConnection(name, Effect.succeed)

    /** Counts a failed request against its connection; true when the connection is gone. */
    const settle = (record: ConnectionRecord, error: RequestError) =>
      Effect.suspend(() => {
        const outcome: Outcome = { _tag: "Failed", error, terminal: isTerminal(error) }
        const verdict = afterRequest(record.kind, record.failures, outcome)
        record.failures = verdict.failures
        const gone = verdict.drop || records.get(record.server.name)!.live !== record
        if (!verdict.drop) return Effect.succeed(gone)
        return Effect.as(drop(record, dropReason(error, verdict.failures)), gone)
      })

    const run = <A>(
      name: string,
      method: string,
      use: (connection: Connection) => Effect.Effect<A, RequestError>,
      runOptions?: RunOptions
    ): Effect.Effect<A, ServerUnavailable | RequestError> => {
      const idempotent = runOptions?.idempotent ?? method !== "tools/call"
      // One attempt on the connection the pool hands out now. No settle on success: the answer
      // may have come from a cached list; real answers reset the count as they arrive.
      // (Suspended: a resend must take the connection the pool hands out then.)
      const attempt = Effect.suspend(() =>
        withConnection(name, (record: ConnectionRecord) =>
          Effect.catchAll(use(record), (error) => Effect.flatMap(settle(record, error), (dropped) => Effect.fail(new Attempt(error, dropped))))))
      // Sent once more at most, by hand: `Effect.retry` builds a schedule driver on every request,
      // success or not (a per-call cost, bench/).
      const settled = Effect.catchAll(attempt, (failure) => {
        if (!(failure instanceof Attempt)) return Effect.fail(failure)
        if (!mayResend(failure.error, { idempotent, dropped: failure.dropped })) return Effect.fail(failure.error)
        return Effect.zipRight(
          debug(name, `resending ${method} on a fresh connection after ${failure.error._tag}`),
          Effect.mapError(attempt, (again) => again instanceof Attempt ? again.error : again)
        )
      })
      // Tracing off (Effect's default tracer): no span. Tracing on: one client span per request;
      // the driver puts its traceparent in the request's `_meta` (internal/pool/request.ts).
      return Effect.withFiberRuntime((fiber) =>
        fiber.currentTracer === defaultTracer ? settled : Effect.withSpan(settled, method, {
          kind: "client",
          captureStackTrace: false,
          attributes: { "mcp.method.name": method, server: name }
        })
      )
    }

    const state = (name: string) =>
      Effect.suspend(() => {
        const entry = records.get(name)
        return entry ? Effect.succeed(entry.state) : Effect.fail(unknownServer(name))
      })

    const connectAll = (opts?: {
      readonly names?: ReadonlyArray<string> | undefined
      readonly onSettled?: ((state: ServerState) => Effect.Effect<void>) | undefined
    }) =>
      Effect.forEach(
        opts?.names ?? config.servers.filter((s) => !s.config.disabled).map((s) => s.name),
        (name) =>
          get(name).pipe(
            Effect.ignore,
            Effect.zipRight(state(name).pipe(Effect.orElseSucceed(() => undefined))),
            Effect.tap((s) => (s && opts?.onSettled ? opts.onSettled(s) : Effect.void))
          ),
        // The semaphores inside the lookup bound real concurrency per kind.
        { concurrency: "unbounded" }
      ).pipe(Effect.map((all) => all.filter((s): s is ServerState => s !== undefined)))

    const invalidate = (name: string) =>
      Effect.suspend(() => {
        const live = records.get(name)?.live
        return live ? drop(live, "invalidated") : RcMap.invalidate(connections, name)
      })

    return {
      servers: config.servers,
      get,
      run,
      connectAll,
      state,
      peek: (name: string): Connection | undefined => records.get(name)?.live,
      invalidate,
      events
    }
  })
}

/** Why a failed request made the pool close its connection, for the debug log. */
function dropReason(error: RequestError, failures: number): string {
  if (error._tag !== "TransportFailure") return error._tag
  return `${error._tag}${error.code ? ` ${error.code}` : ""}, ${failures} in a row`
}

/** A failed attempt of `run`, and whether its connection is gone (what the resend policy reads). */
class Attempt {
  constructor(readonly error: RequestError, readonly dropped: boolean) {}
}

function initialState(server: ResolvedServer): ServerState {
  return server.config.disabled ? { status: "disabled", server } : { status: "pending", server }
}
