/**
 * The HTTP listener under `serve --http`, as a replica behind a load balancer needs it: limits
 * that close connections which send nothing (or too slowly) and cap how many are open, the
 * health endpoints (no token, no details), and the drain of a shutdown: stop accepting, let the
 * calls in flight finish within a grace period, cut long-lived streams at once.
 */
import * as Effect from "effect/Effect"
import * as fs from "node:fs/promises"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import * as net from "node:net"
import { UsageError } from "../../Errors.js"

/** The listener's limits (Node's own server settings). */
export interface ListenerLimits {
  /** A connection must have sent its request headers within this (default 10 s). */
  readonly headersTimeoutMs?: number | undefined
  /** …and its whole request (headers and body) within this (default 30 s). */
  readonly requestTimeoutMs?: number | undefined
  /** An idle keep-alive connection is closed after this (default 5 s). */
  readonly keepAliveTimeoutMs?: number | undefined
  /** At most this many open connections; one more is closed at once (default 512). */
  readonly maxConnections?: number | undefined
}

export const DEFAULT_LIMITS = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 512
} as const

/** Default grace period of a drain: calls in flight get this long to finish (`--drain-timeout`). */
export const DEFAULT_DRAIN_TIMEOUT_MS = 10_000

/**
 * A server with the limits applied. Node checks the header and request timeouts every
 * `connectionsCheckingInterval`; a tenth of the header timeout keeps the bound close.
 */
export const createLimitedServer = (
  limits: ListenerLimits,
  handler: (req: IncomingMessage, res: ServerResponse) => void
): Server => {
  const headersTimeout = limits.headersTimeoutMs ?? DEFAULT_LIMITS.headersTimeoutMs
  const requestTimeout = Math.max(limits.requestTimeoutMs ?? DEFAULT_LIMITS.requestTimeoutMs, headersTimeout)
  const server = createServer({
    headersTimeout,
    requestTimeout,
    keepAliveTimeout: limits.keepAliveTimeoutMs ?? DEFAULT_LIMITS.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.max(100, Math.min(1_000, Math.floor(headersTimeout / 10)))
  }, handler)
  server.maxConnections = limits.maxConnections ?? DEFAULT_LIMITS.maxConnections
  return server
}

/**
 * Tracks the responses in flight and the drain. A `call` (a POST with requests) may finish
 * within the grace period; a `stream` (a session's GET, a `subscriptions/listen`) never finishes
 * on its own, so a drain cuts it: the client reconnects to another replica.
 */
export const makeDrain = () => {
  const calls = new Set<ServerResponse>()
  const streams = new Set<ServerResponse>()
  let draining = false
  let idle: (() => void) | undefined
  return {
    get draining() {
      return draining
    },
    /** Counts `res` as a call until it closes: from its first byte on, so a drain waits for it. */
    track(res: ServerResponse) {
      calls.add(res)
      res.once("close", () => {
        calls.delete(res)
        streams.delete(res)
        if (calls.size === 0) idle?.()
      })
      if (draining) res.setHeader("connection", "close")
    },
    /** `res` turned out to be a stream (known once its body is read): a drain cuts it. */
    isStream(res: ServerResponse) {
      if (!calls.delete(res)) return
      streams.add(res)
      if (calls.size === 0) idle?.()
      if (draining) res.destroy()
    },
    inFlight: () => calls.size,
    /**
     * Starts the drain: every later response closes its connection, streams are cut; resolves
     * when no call is in flight or after `timeoutMs`, whichever is first (true: all finished).
     */
    drain(timeoutMs: number): Promise<boolean> {
      draining = true
      for (const res of streams) res.destroy()
      // A call answered now must not leave its keep-alive connection open for another request.
      for (const res of calls) res.once("finish", () => res.socket?.end())
      if (calls.size === 0) return Promise.resolve(true)
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(calls.size === 0), timeoutMs)
        idle = () => {
          clearTimeout(timer)
          resolve(true)
        }
      })
    }
  }
}

/** `GET /healthz` and `GET /readyz` (pure): the status and the tiny body, or undefined for any other path. */
export const healthAnswer = (
  method: string | undefined,
  url: string | undefined,
  ready: boolean
): { status: number; body: string } | undefined => {
  const path = (url ?? "").split(/[?#]/, 1)[0]
  if (path !== "/healthz" && path !== "/readyz") return undefined
  if (method !== "GET" && method !== "HEAD") return { status: 405, body: "GET only\n" }
  if (path === "/healthz") return { status: 200, body: "ok\n" }
  return ready ? { status: 200, body: "ready\n" } : { status: 503, body: "not ready\n" }
}

/**
 * Stops accepting connections without closing the idle ones, as `http.Server.close` does: a
 * connection accepted a moment ago whose request is not parsed yet counts as idle, and closing
 * it resets a request a balancer already sent (and will not send again). Resolves when every
 * connection has closed.
 */
export const stopAccepting = (server: Server): Promise<void> =>
  new Promise((resolve) => void net.Server.prototype.close.call(server, () => resolve()))

/** A socket path another live gateway listens on is refused; a stale one is removed. */
const claimSocket = async (path: string): Promise<void> => {
  const stat = await fs.lstat(path).catch(() => undefined)
  if (!stat) return
  if (!stat.isSocket()) throw new Error(`${path} exists and is not a socket; remove it or choose another path`)
  const live = await new Promise<boolean>((resolve) => {
    const c = net.connect(path)
    c.once("connect", () => (c.destroy(), resolve(true)))
    c.once("error", () => resolve(false))
  })
  if (live) throw new Error(`${path} is in use by another server`)
  await fs.rm(path, { force: true })
}

/**
 * Binds `listener` on `host:port` or, with `socket`, on a Unix socket created 0600; the port
 * bound (0 for a socket). An address that cannot be bound is a `UsageError`.
 */
export const bind = (
  listener: Server,
  at: { readonly host: string; readonly port: number; readonly socket?: string | undefined }
): Effect.Effect<number, UsageError> =>
  Effect.async<number, UsageError>((resume) => {
    const { host, port, socket } = at
    const where = socket ?? `${host.includes(":") ? `[${host}]` : host}:${port}`
    const fail = (e: Error) => resume(Effect.fail(new UsageError({ message: `Cannot serve on ${where}: ${e.message}`, cause: e })))
    listener.once("error", fail)
    if (socket === undefined) {
      try {
        listener.listen(port, host, () => resume(Effect.succeed((listener.address() as { port: number }).port)))
      } catch (e) {
        // Node throws (not emits) for a port outside 0-65535.
        resume(Effect.fail(new UsageError({ message: `Cannot serve on port ${port}: a port is a number from 0 to 65535.`, cause: e })))
      }
      return
    }
    claimSocket(socket).then(() => {
      // Created 0600 from the start: the umask covers the moment between bind and chmod.
      const umask = process.umask(0o177)
      try {
        listener.listen(socket, () => {
          fs.chmod(socket, 0o600).then(() => resume(Effect.succeed(0)), fail)
        })
      } finally {
        process.umask(umask)
      }
    }, fail)
  })
