/**
 * `Gateway.layerHttp`'s server: Streamable HTTP for one user, in both protocol eras. Every
 * request must name the exact endpoint, come with the run's bearer token (or over a 0600 Unix
 * socket), carry at most one body limit, and — on a port — loopback Host/Origin headers; only
 * then is its era looked at.
 *
 * - 2026-07-28 (modern): stateless. A request with the per-request `_meta` envelope (and no
 *   `Mcp-Session-Id`) is answered by the SDK's `createMcpHandler`, which checks the envelope
 *   against the `MCP-Protocol-Version` / `Mcp-Method` / `Mcp-Name` headers, answers
 *   `server/discover`, and keeps `subscriptions/listen` streams open for catalogue changes.
 *   One gateway server per request, nothing kept between requests.
 * - 2025 (legacy): sessions. They start only with `initialize`, are capped in number and closed
 *   after an idle time. One gateway server and transport per session, as the SDK requires, each
 *   with its own scope.
 *
 * In both, a client that drops a response cancels the calls it was waiting for.
 *
 * Behind a round-robin balancer (docs/serve.md): session ids are signed with the token the
 * replicas share (sessionId.ts), so a replica that does not hold a session answers its POSTs
 * statelessly (one gateway server per request, like the modern leg) and its DELETE with 200,
 * holding nothing; at the session cap the least recently used idle session is closed, since its
 * client is answered anywhere anyway. Only a server's question relayed mid-call needs the replica
 * that holds the session (hash on `Mcp-Session-Id`).
 */
import { createMcpHandler, isInitializeRequest, isLegacyRequest } from "@modelcontextprotocol/server"
import type { Server } from "@modelcontextprotocol/server"
import { NodeStreamableHTTPServerTransport, toNodeHandler, toWebRequest } from "@modelcontextprotocol/node"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as ExecutionStrategy from "effect/ExecutionStrategy"
import * as Exit from "effect/Exit"
import * as Runtime from "effect/Runtime"
import * as Schedule from "effect/Schedule"
import * as Scope from "effect/Scope"
import type { IncomingMessage, ServerResponse } from "node:http"
import { UsageError } from "../../Errors.js"
import { type HeaderParam, paramHeaderMismatch } from "./ParamHeaderCheck.js"
import {
  DEFAULT_MAX_BODY_BYTES,
  ENDPOINT_PATH,
  hasBearer,
  isAllowedRequest,
  isEndpoint,
  isLoopbackHost,
  newToken,
  readBody,
  requestIds
} from "../gateway/HttpAccess.js"
import {
  bind,
  createLimitedServer,
  DEFAULT_DRAIN_TIMEOUT_MS,
  healthAnswer,
  type ListenerLimits,
  makeDrain,
  stopAccepting
} from "./httpListener.js"
import { RELAYED_HEADER, relayCancel } from "./cancelRelay.js"
import { answersPlainly, asksForLogs, asksMidCall, cancelledRequest } from "./plainAnswer.js"
import { isSessionId, newSessionId } from "./sessionId.js"

/** How `serve --http` listens and whom it lets in. */
export interface HttpServeOptions {
  /** Port; 0 picks a free one. Ignored with `socket`. */
  readonly port?: number | undefined
  /**
   * Address to bind (default 127.0.0.1). Off loopback a `token` must be given (the replicas
   * share it); TLS belongs in the proxy in front.
   */
  readonly host?: string | undefined
  /** Host (and Origin) names a proxy presents, beyond loopback names (`--allowed-host`). */
  readonly allowedHosts?: ReadonlyArray<string> | undefined
  /**
   * The other replicas, `HOST:PORT` (`--peer`; a name counts for every address it resolves to),
   * read at each use: a 2025-era cancel for a request not running here goes to them (cancelRelay.ts).
   */
  readonly peers?: ReadonlyArray<string> | undefined
  /** Header/request/keep-alive timeouts and the connection cap (httpListener.ts). */
  readonly limits?: ListenerLimits | undefined
  /** On shutdown, calls in flight get this long to finish (default 10 s). */
  readonly drainTimeoutMs?: number | undefined
  /** Whether `/readyz` says ready (default: always); serve: once every server connected or failed. */
  readonly ready?: (() => boolean) | undefined
  /** A Unix socket path instead of a port: created 0600, so only its owner can connect. */
  readonly socket?: string | undefined
  /** The bearer token every request must carry; default a random one per run (none on a socket). */
  readonly token?: string | undefined
  /**
   * At most this many legacy sessions at once (default 32), an `initialize` beyond gets 503; and
   * at most this many open 2026-07-28 `subscriptions/listen` streams (beyond: `-32603`).
   */
  readonly maxSessions?: number | undefined
  /** A session without requests this long is closed (default 30 minutes). */
  readonly sessionIdleMs?: number | undefined
  /** The one body size limit, bytes (default 4 MiB). */
  readonly maxBodyBytes?: number | undefined
}

/** Who hears of catalogue changes: called once per change of each list. */
export interface CatalogNotify {
  readonly tools: () => void
  readonly resources: () => void
  readonly prompts: () => void
  /** A subscribed resource changed (2026-07-28 `subscriptions/listen` streams that name it). */
  readonly resourceUpdated?: ((uri: string) => void) | undefined
}

/** The gateway servers `serveHttp` builds, and the catalogue's changes. */
export interface GatewayServers<R> {
  /** A server for one legacy session, telling its client of changes itself; closed with the scope. */
  readonly session: Effect.Effect<Server, never, R | Scope.Scope>
  /** A server for one stateless (2026-07-28) request. */
  readonly request: Effect.Effect<Server, never, R>
  /** Calls `notify` on every catalogue change while the scope lasts. */
  readonly watch: (notify: CatalogNotify) => Effect.Effect<void, never, R | Scope.Scope>
  /** The header-bound arguments of a listed tool (`x-mcp-header`), none for a tool not listed. */
  readonly paramHeaders: (tool: string) => Effect.Effect<ReadonlyArray<HeaderParam>, never, R>
}

export const DEFAULT_MAX_SESSIONS = 32
export const DEFAULT_SESSION_IDLE_MS = 30 * 60 * 1000

interface Session {
  readonly transport: NodeStreamableHTTPServerTransport
  lastSeen: number
  /** Requests (and GET streams) in flight: a session with one is never idle. */
  active: number
  /** Answered on the session's own streams only (plainAnswer.ts): its client can be asked mid-call, or asked for logs. */
  streams: boolean
}

const jsonError = (
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
  id: string | number | null = null
) =>
  void res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify({
    jsonrpc: "2.0",
    error: { code, message },
    id
  }))

/** The JSON-RPC error of headers that disagree with the body (2026-07-28). */
const HEADER_MISMATCH = -32020

/** Serves the gateway (one server per legacy session or modern request) over HTTP, until the scope closes. */
export const serveHttp = <R>(options: HttpServeOptions, servers: GatewayServers<R>) =>
  Effect.gen(function*() {
    const makeServer = servers.session
    const socket = options.socket
    const host = options.host ?? "127.0.0.1"
    const loopback = socket !== undefined || isLoopbackHost(host)
    if (!loopback && options.token === undefined) {
      return yield* new UsageError({
        message: `Serving on ${host} (off loopback) needs a token every replica shares: give --token-file FILE, ` +
          `and put TLS in the proxy in front (docs/serve.md).`
      })
    }
    const token = options.token ?? (socket === undefined ? newToken() : undefined)
    // Signs session ids: the shared token behind a balancer, else a secret of this run.
    const secret = token ?? newToken()
    const policy = { loopback, allowedHosts: options.allowedHosts }
    const drain = makeDrain()
    const ready = options.ready ?? (() => true)
    const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS
    const idleMs = options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS
    const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
    const sessions = new Map<string, Session>()
    const parent = yield* Effect.scope
    const runtime = yield* Effect.runtime<R>()
    const runSession = Runtime.runPromise(runtime)
    const now = () => Runtime.runSync(runtime)(Clock.currentTimeMillis)

    // Each session has its own scope (its gateway, its event subscription), closed with it.
    const makeSession = (streams: boolean) => Effect.gen(function*() {
      const scope = yield* Scope.fork(parent, ExecutionStrategy.sequential)
      const server = yield* makeServer.pipe(Scope.extend(scope))
      const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
        sessionIdGenerator: () => newSessionId(secret),
        onsessioninitialized: (id) => void sessions.set(id, { transport, lastSeen: now(), active: 0, streams }),
        maxRequestBodySize: maxBody
      } as ConstructorParameters<typeof NodeStreamableHTTPServerTransport>[0])
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId)
        runSession(Scope.close(scope, Exit.void)).catch(() => undefined)
      }
      yield* Effect.promise(() => server.connect(transport))
      return transport
    })

    // The modern leg: strict 2026-07-28 (legacy traffic never reaches it, see `handle`).
    const modern = yield* Effect.acquireRelease(
      Effect.sync(() =>
        // Open `subscriptions/listen` streams hold a connection each, like sessions: one cap for both.
        createMcpHandler(() => runSession(servers.request), { legacy: "reject", maxRequestBodySize: maxBody, maxSubscriptions: maxSessions })
      ),
      (handler) => Effect.promise(() => handler.close().catch(() => undefined))
    )
    yield* servers.watch({
      tools: () => modern.notify.toolsChanged(),
      resources: () => modern.notify.resourcesChanged(),
      prompts: () => modern.notify.promptsChanged(),
      resourceUpdated: (uri) => modern.notify.resourceUpdated(uri)
    })
    const serveModern = toNodeHandler(modern, { maxRequestBodySize: maxBody })
    /** Why a modern `tools/call`'s `Mcp-Param-*` headers disagree with its arguments, if they do. */
    const paramMismatch = async (req: IncomingMessage, body: unknown): Promise<string | undefined> => {
      const call = body as { method?: unknown; params?: { name?: unknown; arguments?: unknown } } | null
      if (call === null || typeof call !== "object" || call.method !== "tools/call" || typeof call.params?.name !== "string") return undefined
      const params = await runSession(servers.paramHeaders(call.params.name))
      return paramHeaderMismatch(params, call.params.arguments, (name) => {
        const value = req.headers[name.toLowerCase()]
        return Array.isArray(value) ? value[0] : value
      })
    }

    const closeIdle = Effect.sync(() => {
      const t = now()
      for (const s of sessions.values()) {
        if (s.active === 0 && t - s.lastSeen >= idleMs) void s.transport.close().catch(() => undefined)
      }
    })
    // The sweep runs on Effect's clock, so tests drive expiry with TestClock.
    yield* closeIdle.pipe(
      Effect.repeat(Schedule.spaced(Duration.millis(Math.max(1_000, Math.min(idleMs / 4, 60_000))))),
      Effect.forkScoped
    )

    /**
     * A POST of a session served by a gateway server and a stateless transport for this request
     * alone, like the modern leg: a session another replica opened (its id is signed with our
     * token), or one of ours whose request needs nothing of it (plainAnswer.ts). Answered as
     * plain JSON where nothing but the answer is sent back.
     */
    const serveOneRequest = async (req: IncomingMessage, res: ServerResponse, body: unknown, id: string, session?: Session) => {
      // Nothing of the session is held here: closing it leaves nothing behind either.
      if (req.method === "DELETE") {
        terminate(id)
        return void res.writeHead(200).end()
      }
      if (req.method !== "POST") return jsonError(res, 405, -32000, "Method not allowed: this replica holds no stream of the session")
      const server = await runSession(servers.request)
      const transport = new NodeStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        maxRequestBodySize: maxBody,
        enableJsonResponse: answersPlainly(body)
      } as ConstructorParameters<typeof NodeStreamableHTTPServerTransport>[0])
      await server.connect(transport)
      const requestId = (body as { id?: string | number }).id
      if (requestId !== undefined) oneOffs.set(oneOffKey(id, requestId), transport)
      if (session && requestId !== undefined) {
        session.active++
        session.lastSeen = now()
      }
      // A dropped response (the client or the balancer hung up, answer sent or not) closes the
      // transport, which aborts the calls it carried.
      res.once("close", () => {
        if (requestId !== undefined && oneOffs.get(oneOffKey(id, requestId)) === transport) oneOffs.delete(oneOffKey(id, requestId))
        if (session && requestId !== undefined) {
          session.active--
          session.lastSeen = now()
        }
        void transport.close().catch(() => undefined).then(() => server.close()).catch(() => undefined)
      })
      res.setHeader("mcp-session-id", id)
      return transport.handleRequest(req, res, body)
    }

    /** Requests running on servers of their own, of any session (held here or not), by session and request id. */
    const oneOffs = new Map<string, NodeStreamableHTTPServerTransport>()
    const oneOffKey = (session: string, request: string | number) => `${session} ${typeof request} ${request}`

    /**
     * Sessions ended by a DELETE that reached this replica: a later request naming one gets 404,
     * as the spec asks of a terminated session (a replica that never saw the DELETE cannot know;
     * docs/serve.md). Bounded, oldest forgotten first.
     */
    const terminated = new Set<string>()
    const terminate = (id: string) => {
      terminated.add(id)
      if (terminated.size > 10_000) terminated.delete(terminated.values().next().value!)
    }

    /** At the cap: the least recently used idle session goes (its client is answered statelessly). */
    const evictOne = (): boolean => {
      let oldest: Session | undefined
      for (const s of sessions.values()) if (s.active === 0 && (!oldest || s.lastSeen < oldest.lastSeen)) oldest = s
      if (oldest) void oldest.transport.close().catch(() => undefined)
      return oldest !== undefined
    }

    /** While `res` is open the session is busy; a response closed early cancels its requests. */
    const track = (session: Session | undefined, res: ServerResponse, ids: ReadonlyArray<string | number>) => {
      if (session) {
        session.active++
        session.lastSeen = now()
      }
      res.once("close", () => {
        if (session) {
          session.active--
          session.lastSeen = now()
        }
        if (res.writableFinished || ids.length === 0) return
        const transport = session?.transport
        // The client went away: the calls it waited for are cancelled upstream too, through the
        // protocol's own cancellation (the gateway's handlers abort their signals on it).
        for (const requestId of ids) {
          transport?.onmessage?.({
            jsonrpc: "2.0",
            method: "notifications/cancelled",
            params: { requestId, reason: "the client closed the response" }
          })
        }
      })
    }

    let bound = options.port ?? 0
    const handle = async (req: IncomingMessage, res: ServerResponse) => {
      // Probes of a balancer or an orchestrator: no token, no details.
      const health = healthAnswer(req.method, req.url, ready() && !drain.draining)
      if (health) return void res.writeHead(health.status, { "content-type": "text/plain" }).end(health.body)
      drain.track(res)
      // Only the endpoint itself: `/mcp-admin`, `/mcp/x` or `/mcpx` are not it.
      if (!isEndpoint(req.url)) return void res.writeHead(404).end()
      if (socket === undefined) {
        // DNS rebinding: a web page must not reach the user's tools through a name that resolves
        // to this listener, so only loopback names, `--allowed-host` names (and, off loopback,
        // addresses) are served as Host and Origin.
        if (!isAllowedRequest(req.headers.host, req.headers.origin, policy)) {
          return void res.writeHead(403, { "content-type": "text/plain" }).end(
            "mcpctl serve answers only loopback hosts and origins, and those given with --allowed-host\n"
          )
        }
      } else if (req.headers.origin !== undefined) {
        return void res.writeHead(403, { "content-type": "text/plain" }).end("mcpctl serve answers no browser origins on its socket\n")
      }
      // Another local user can reach 127.0.0.1 too: only the holder of the run's token gets in.
      if (token !== undefined && !hasBearer(req.headers.authorization, token)) {
        return jsonError(res, 401, -32001, "Unauthorized: send the token mcpctl serve printed as Authorization: Bearer <token>", {
          "www-authenticate": `Bearer realm="mcpctl serve"`
        })
      }
      let body: unknown = undefined
      if (req.method === "POST") {
        const read = await readBody(req, maxBody)
        if (read._tag === "TooLarge") {
          res.setHeader("connection", "close")
          return jsonError(res, 413, -32600, `Payload Too Large: a request body must not exceed ${maxBody} bytes`)
        }
        if (read._tag === "Invalid") return jsonError(res, 400, -32700, "Parse error: the body is not JSON")
        body = read.value
      }
      // A response that never ends on its own (a stream) is cut by a drain; a call may finish.
      if (req.method === "GET" || (body as { method?: unknown } | null)?.method === "subscriptions/listen") drain.isStream(res)
      const id = req.headers["mcp-session-id"]
      // No session named and the body claims 2026-07-28 (the SDK's own classification): stateless.
      if (id === undefined && req.method === "POST" && !(await isLegacyRequest(await toWebRequest(req, body), body, { maxRequestBodySize: maxBody }))) {
        const mismatch = await paramMismatch(req, body)
        if (mismatch !== undefined) {
          const requestId = (body as { id?: unknown }).id
          return jsonError(res, 400, HEADER_MISMATCH, `Bad Request: the request headers and body disagree: ${mismatch}`, {},
            typeof requestId === "string" || typeof requestId === "number" ? requestId : null)
        }
        return serveModern(req, res, body)
      }
      const existing = typeof id === "string" ? sessions.get(id) : undefined
      // The client cancels a request it sent: where it runs on a server of its own here, it is
      // cancelled there; else it may run on another replica, which hears of it (cancelRelay.ts).
      const cancelled = typeof id === "string" ? cancelledRequest(body) : undefined
      if (cancelled !== undefined) {
        const runsOn = oneOffs.get(oneOffKey(id as string, cancelled))
        if (runsOn !== undefined) {
          runsOn.onmessage?.(body as Parameters<NonNullable<typeof runsOn.onmessage>>[0])
          return void res.writeHead(202).end()
        }
        // Only a session this fleet signed can run on a peer: a made-up id is not fanned out.
        const ours = isSessionId(id as string, secret)
        if (ours && req.headers[RELAYED_HEADER] === undefined && (options.peers?.length ?? 0) > 0) {
          const protocolVersion = req.headers["mcp-protocol-version"]
          void relayCancel(options.peers!, body, { token, session: id as string, protocolVersion: typeof protocolVersion === "string" ? protocolVersion : undefined })
        }
        // Nothing of a session held elsewhere runs here.
        if (!existing && ours) return void res.writeHead(202).end()
      }
      if (existing) {
        if (req.method === "DELETE") terminate(id as string)
        if (asksForLogs(body)) existing.streams = true
        if (req.method === "POST" && !existing.streams && answersPlainly(body)) return serveOneRequest(req, res, body, id as string, existing)
        track(existing, res, requestIds(body))
        return existing.transport.handleRequest(req, res, body)
      }
      if (typeof id === "string" && terminated.has(id)) return jsonError(res, 404, -32001, "Session not found: it was terminated")
      if (typeof id === "string" && isSessionId(id, secret)) return serveOneRequest(req, res, body, id)
      if (req.method !== "POST" || id !== undefined) return jsonError(res, 404, -32001, "Session not found")
      // Only an initialize request opens a session (and builds a gateway).
      if (!isInitializeRequest(body)) return jsonError(res, 400, -32600, "No session: send initialize first")
      if (sessions.size >= maxSessions) {
        await runSession(closeIdle)
        if (sessions.size >= maxSessions && !evictOne()) {
          return jsonError(res, 503, -32000, `Too many sessions (at most ${maxSessions}); close one (DELETE) and retry`, { "retry-after": "5" })
        }
      }
      const transport = await runSession(makeSession(asksMidCall(body))).catch(() => undefined)
      if (!transport) return void res.writeHead(500).end()
      return transport.handleRequest(req, res, body)
    }
    const listener = createLimitedServer(options.limits ?? {}, (req, res) => void handle(req, res).catch(() => res.headersSent || res.writeHead(500).end()))
    const hostPart = host.includes(":") ? `[${host}]` : host
    bound = yield* bind(listener, { host, port: bound, socket })
    yield* Effect.addFinalizer(() =>
      Effect.promise(async () => {
        // The drain: no new connections (a balancer's connect fails and it tries the next
        // replica), requests on open ones still served but with `Connection: close`, streams cut,
        // calls in flight given the grace period.
        const closed = stopAccepting(listener)
        const grace = options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS
        let timer: ReturnType<typeof setTimeout> | undefined
        // Every call answered and every connection closed (responses now say `Connection: close`,
        // idle keep-alive ones end at their timeout), or the grace period is over.
        await Promise.race([
          Promise.all([drain.drain(grace), closed]),
          new Promise((resolve) => (timer = setTimeout(resolve, grace)))
        ])
        clearTimeout(timer)
        for (const s of sessions.values()) await s.transport.close().catch(() => undefined)
        listener.closeAllConnections()
        await closed
      }))
    return {
      address: socket === undefined ? `http://${hostPart}:${bound}${ENDPOINT_PATH}` : `unix:${socket}:${ENDPOINT_PATH}`,
      token,
      sessions: () => sessions.size
    }
  })
