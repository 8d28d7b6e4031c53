/**
 * Remote transports (Streamable HTTP, SSE, WebSocket) as scoped resources, plus the pure error
 * predicates the pool and the call path use to decide between fallback, re-auth, session
 * re-initialization and reconnect. Only types are imported from `Transport.ts`, so that module
 * can import this one for its layer without an import cycle. The WebSocket transport itself is
 * in `WebSocketTransport.ts`, re-exported here; it reads this module's timeouts only at run time.
 */
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js"
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js"
import { SseError, SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js"
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError
} from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type { FetchLike, Transport as SdkTransport } from "@modelcontextprotocol/sdk/shared/transport.js"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import type { RemoteServerConfig, ResolvedServer } from "./Config.js"
import { ServerUnavailable } from "./Errors.js"
import type { OpenedTransport } from "./Transport.js"
import { WebSocketHandshakeError, WebSocketTransport } from "./WebSocketTransport.js"

export {
  WEBSOCKET_SUBPROTOCOL,
  WebSocketHandshakeError,
  WebSocketTransport,
  type WebSocketTransportOptions
} from "./WebSocketTransport.js"

// ---------------------------------------------------------------------------------------------
// Per-request timeout
// ---------------------------------------------------------------------------------------------

/**
 * Time a single HTTP request may take until its response headers arrive. 60 s, like the host the
 * seed describes: long enough for slow cold starts behind a proxy, short enough that a dead peer
 * does not hold a request forever. It bounds headers only: SSE bodies may stream for hours.
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000

/**
 * How long shutdown waits for the Streamable HTTP session DELETE (and a WebSocket closing
 * handshake) before giving up: ending a session is a courtesy and must never delay exit.
 */
export const CLOSE_GRACE_MS = 200

/**
 * The reason a request is aborted when its headers did not arrive in time. It carries
 * `code: "ETIMEDOUT"` so `isTerminalTransportError` counts it like a socket timeout.
 */
export class RequestTimeoutError extends Error {
  readonly code = "ETIMEDOUT"
  override readonly name = "RequestTimeoutError"
  constructor(readonly url: string, readonly timeoutMs: number) {
    super(`No response headers from ${url} within ${timeoutMs} ms`)
  }
}

const requestUrl = (input: string | URL | Request): string =>
  typeof input === "string" ? input : input instanceof URL ? input.href : input.url


/**
 * A `fetch` whose every request gets its own AbortController and an unref'd `setTimeout`, cleared
 * as soon as response headers arrive. Not `AbortSignal.timeout()`: the seed reports that runtimes
 * reclaim those lazily (~2.4 KB native memory per request for 60 s). Only the wait for headers is
 * bounded, because Streamable HTTP GET/POST responses may be SSE streams that legitimately stay
 * open. An incoming `init.signal` still aborts the request and its body; the listener forwarding
 * it is removed once the body ends, so a transport-lifetime signal does not collect listeners.
 */
export const fetchWithTimeout =
  (timeoutMs: number = DEFAULT_REQUEST_TIMEOUT_MS, baseFetch: FetchLike = fetch): FetchLike =>
  async (input, init) => {
    const controller = new AbortController()
    const url = requestUrl(input)
    const timer = setTimeout(() => controller.abort(new RequestTimeoutError(url, timeoutMs)), timeoutMs)
    timer.unref?.()
    // The transport's own signal lives as long as the connection: `AbortSignal.any` follows it
    // without adding a listener per request (its dependants are weakly held), so neither the
    // signal nor the response needs unhooking afterwards.
    const outer = init?.signal ?? undefined
    const signal = outer ? AbortSignal.any([outer, controller.signal]) : controller.signal
    try {
      return await baseFetch(input, { ...init, signal })
    } finally {
      clearTimeout(timer)
    }
  }

// ---------------------------------------------------------------------------------------------
// Streamable HTTP with session termination on close
// ---------------------------------------------------------------------------------------------

/**
 * Streamable HTTP whose `close()` first ends the server session (HTTP DELETE) for at most
 * `CLOSE_GRACE_MS`, then aborts everything. Done in `close()` rather than only in the scope
 * finalizer because `Client.close()` also closes the transport, and after the SDK's close the
 * DELETE could no longer be sent (it shares the aborted signal).
 */
class SessionEndingHttpTransport extends StreamableHTTPClientTransport {
  private closing: Promise<void> | undefined

  override close(): Promise<void> {
    this.closing ??= (async () => {
      if (this.sessionId !== undefined) {
        let timer: ReturnType<typeof setTimeout> | undefined
        await Promise.race([
          this.terminateSession().catch(() => undefined),
          new Promise<void>((resolve) => {
            timer = setTimeout(resolve, CLOSE_GRACE_MS)
            timer.unref?.()
          })
        ])
        clearTimeout(timer)
      }
      await super.close()
    })()
    return this.closing
  }
}

// ---------------------------------------------------------------------------------------------
// openRemote
// ---------------------------------------------------------------------------------------------

/** Per-connection knobs the config file does not carry. */
export interface RemoteOptions {
  /** OAuth for the SDK to attach tokens and run the flow on 401 (see Auth.ts). */
  readonly authProvider?: OAuthClientProvider | undefined
  /** Time to response headers per HTTP request (and to the WebSocket upgrade), ms. */
  readonly requestTimeoutMs?: number | undefined
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/**
 * Builds the SDK transport for a remote server, unstarted (`Client.connect` starts it), and ties
 * its closing to the scope. Configured headers go on every request of every kind, including the
 * SSE GET and the WebSocket upgrade; every HTTP request is bounded by `fetchWithTimeout`.
 */
export const openRemote = (
  server: ResolvedServer,
  config: RemoteServerConfig,
  kind: "http" | "sse" | "ws",
  options: RemoteOptions = {}
): Effect.Effect<OpenedTransport, ServerUnavailable, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.try({
      try: (): OpenedTransport => {
        const url = new URL(config.url)
        const headers: Record<string, string> = { ...config.headers }
        const timeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS
        const fetchImpl = fetchWithTimeout(timeoutMs)
        let transport: SdkTransport
        switch (kind) {
          case "http":
            transport = new SessionEndingHttpTransport(url, {
              requestInit: { headers },
              fetch: fetchImpl,
              authProvider: options.authProvider
            })
            break
          case "sse":
            transport = new SSEClientTransport(url, {
              requestInit: { headers },
              // The SDK merges `requestInit.headers` into the stream's GET itself; this fetch adds
              // them again underneath so they arrive even on SDK versions that did not.
              eventSourceInit: {
                fetch: (input, init) => {
                  const merged = new Headers(init?.headers)
                  for (const [name, value] of Object.entries(headers)) {
                    if (!merged.has(name)) merged.set(name, value)
                  }
                  return fetchImpl(input, { ...init, headers: merged })
                }
              },
              fetch: fetchImpl,
              authProvider: options.authProvider
            })
            break
          case "ws":
            transport = new WebSocketTransport(url, { headers, handshakeTimeoutMs: timeoutMs })
            break
        }
        return { kind, transport, diagnostics: () => undefined }
      },
      catch: (error) =>
        new ServerUnavailable({
          server: server.name,
          status: "failed",
          message: `Cannot open ${kind} transport to ${config.url} for server "${server.name}": ${messageOf(error)}. Check the "url" in ${server.source}.`
        })
    }),
    ({ transport }) =>
      // Each close is bounded internally (CLOSE_GRACE_MS), so shutdown cannot hang here.
      Effect.tryPromise(() => transport.close()).pipe(Effect.ignore)
  )

// ---------------------------------------------------------------------------------------------
// Error predicates
// ---------------------------------------------------------------------------------------------

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null

/** The HTTP status an SDK transport error carries (`StreamableHTTPError`, `SseError`, ws refusal). */
const httpStatusOf = (error: unknown): number | undefined => {
  if (!isObject(error) || typeof error.code !== "number") return undefined
  if (
    error instanceof StreamableHTTPError ||
    error instanceof SseError ||
    error instanceof WebSocketHandshakeError ||
    // another copy of the SDK (CJS next to ESM) fails instanceof; its messages still say so
    (error instanceof Error && /^(Streamable HTTP|SSE) error:/.test(error.message))
  ) {
    return error.code
  }
  return undefined
}

const isStreamableHttpError = (error: unknown): error is Error & { code: number } =>
  error instanceof StreamableHTTPError ||
  (error instanceof Error &&
    isObject(error) &&
    typeof (error as { code?: unknown }).code === "number" &&
    error.message.startsWith("Streamable HTTP error:"))

/**
 * The Streamable HTTP session is gone on the server: 404 whose body is JSON-RPC error -32001
 * (how the SDK's server answers an unknown `mcp-session-id`; the SDK client puts the body into the
 * `StreamableHTTPError` message), or any 404 to a request that carried a session id. Only an HTTP
 * 404 counts: an `McpError` -32001 is the SDK's own request timeout, not an expired session.
 * Callers re-initialize and resend once.
 */
export const isSessionExpired = (error: unknown, request?: { readonly sessionId?: string | undefined }): boolean => {
  if (isObject(error) && error._tag === "SessionExpired") return true
  if (!isStreamableHttpError(error) || error.code !== 404) return false
  if (/"code"\s*:\s*-32001\b/.test(error.message)) return true
  return request?.sessionId !== undefined
}

/**
 * The server wants credentials: the SDK's `UnauthorizedError` (no provider, or the OAuth flow
 * needs the user) or an HTTP 401 from any remote transport. The pool turns it into `needs-auth`.
 */
export const isAuthError = (error: unknown): boolean => {
  if (error instanceof UnauthorizedError) return true
  if (error instanceof Error && error.name === "UnauthorizedError") return true
  if (httpStatusOf(error) === 401) return true
  // SSEClientTransport.send reports a failed POST as a plain Error "… (HTTP 401): …"
  return error instanceof Error && /\(HTTP 401\)/.test(error.message)
}

const TERMINAL_CODES = new Set([
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ECONNREFUSED",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENETDOWN",
  "ECONNABORTED",
  "EAI_AGAIN",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT"
])

const TERMINAL_CODE_IN_TEXT =
  /\b(ECONNRESET|ETIMEDOUT|EPIPE|ECONNREFUSED|EHOSTUNREACH|ENETUNREACH|ENETDOWN|ECONNABORTED)\b/

const TERMINAL_MESSAGES = /socket hang up|other side closed|^terminated$|connection (was )?(reset|closed)/i

const isTerminalAt = (error: unknown, depth: number): boolean => {
  if (depth > 5 || !isObject(error)) return false
  if (typeof error.code === "string" && TERMINAL_CODES.has(error.code)) return true
  const message = typeof error.message === "string" ? error.message : ""
  if (TERMINAL_CODE_IN_TEXT.test(message) || TERMINAL_MESSAGES.test(message)) return true
  // undici: TypeError("fetch failed") with the socket error as `cause`; Node's happy-eyeballs
  // connect failures: AggregateError with one error per address.
  if (isTerminalAt(error.cause, depth + 1)) return true
  if (Array.isArray(error.errors) && error.errors.some((e) => isTerminalAt(e, depth + 1))) return true
  return false
}

/**
 * The connection itself is broken (reset, refused, timed out, unreachable, peer hung up), as
 * opposed to the server answering with an error. Three of these in a row close the connection so
 * the next use reconnects (CLI.md, Lifecycle). "fetch failed" alone does not count: only with
 * such a cause.
 */
export const isTerminalTransportError = (error: unknown): boolean => isTerminalAt(error, 0)

/**
 * The Streamable HTTP attempt of an `auto` server was refused in a way that means "this is not a
 * Streamable HTTP endpoint" (any 4xx except 401, e.g. 404/405 from an SSE-only server), so SSE
 * is tried next. 401 means auth, not the wrong protocol; 5xx and network errors are not fixed by
 * switching protocol.
 */
export const shouldFallBackToSse = (error: unknown): boolean => {
  if (!isStreamableHttpError(error)) return false
  return error.code >= 400 && error.code < 500 && error.code !== 401
}
