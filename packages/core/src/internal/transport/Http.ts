/**
 * Remote transports (Streamable HTTP, SSE, WebSocket) as scoped resources: the SDK's HTTP and SSE
 * transports configured with a per-request timeout and OAuth, and mcpctl's WebSocket transport.
 * The error predicates that read their failures are in `TransportErrors.ts`.
 */
import { SSEClientTransport, StreamableHTTPClientTransport } from "@modelcontextprotocol/client"
import type { OAuthClientProvider, FetchLike, Transport as SdkTransport } from "@modelcontextprotocol/client"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import type { RemoteServerConfig, ResolvedServer } from "../../config/ServerConfig.js"
import { ServerUnavailable } from "../../Errors.js"
import { displayUrl } from "../config/Redact.js"
import { DEFAULT_MAX_RESPONSE_BYTES, fetchWithLimit } from "./MessageSize.js"
import type { OpenedTransport } from "./OpenedTransport.js"
import { proxyFetch } from "./Proxy.js"
import { CLOSE_GRACE_MS, DEFAULT_REQUEST_TIMEOUT_MS } from "./TransportErrors.js"
import { WebSocketTransport } from "./WebSocket.js"

// ---------------------------------------------------------------------------------------------
// Per-request timeout
// ---------------------------------------------------------------------------------------------

/**
 * The reason a request is aborted when its headers did not arrive in time (`fetch` rejects with
 * it). It carries `code: "ETIMEDOUT"` so `isTerminalTransportError` counts it like a socket
 * timeout, and messages name it as one; recognise it by its tag (`isRequestTimeout`).
 */
export class RequestTimeoutError extends Schema.TaggedError<RequestTimeoutError>()("RequestTimeoutError", {
  url: Schema.String,
  timeoutMs: Schema.Number
}) {
  get code(): "ETIMEDOUT" {
    return "ETIMEDOUT"
  }

  override get message(): string {
    return `No response headers from ${this.url} within ${this.timeoutMs} ms`
  }
}

/** A request aborted by {@link fetchWithTimeout}'s timer: {@link RequestTimeoutError}, by tag (any copy of this module). */
export const isRequestTimeout = (error: unknown): error is RequestTimeoutError =>
  typeof error === "object" && error !== null && (error as { _tag?: unknown })._tag === "RequestTimeoutError"

const requestUrl = (input: string | URL | Request): string =>
  typeof input === "string" ? input : input instanceof URL ? input.href : input.url


/**
 * A `fetch` whose every request gets its own AbortController and an unref'd `setTimeout`, cleared
 * as soon as response headers arrive. Not `AbortSignal.timeout()`: runtimes reclaim those lazily
 * (about 2.4 KB of native memory per request for 60 s). Only the wait for headers is bounded,
 * because Streamable HTTP GET/POST responses may be SSE streams that legitimately stay open. An incoming `init.signal` still aborts the request and its body; the listener forwarding
 * it is removed once the body ends, so a transport-lifetime signal does not collect listeners.
 */
export const fetchWithTimeout =
  (timeoutMs: number = DEFAULT_REQUEST_TIMEOUT_MS, baseFetch: FetchLike = fetch): FetchLike =>
  async (input, init) => {
    const controller = new AbortController()
    const url = requestUrl(input)
    const timer = setTimeout(() => controller.abort(new RequestTimeoutError({ url, timeoutMs })), timeoutMs)
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
// OAuth: a rejected token means discovery may be stale
// ---------------------------------------------------------------------------------------------

/**
 * A `fetch` that tells the OAuth provider to forget its cached discovery when a request that
 * carried a token is answered 401: the server may have moved to another authorization server
 * (its protected resource metadata changed), and the SDK's `auth()` would otherwise go back to
 * the old one with the old client. What the SDK asks of hosts (`invalidateCredentials('discovery')`).
 */
export const dropDiscoveryOnRejectedToken = (provider: OAuthClientProvider, baseFetch: FetchLike): FetchLike =>
  async (input, init) => {
    const response = await baseFetch(input, init)
    if (response.status === 401 && new Headers(init?.headers).has("authorization")) {
      await provider.invalidateCredentials?.("discovery")
    }
    return response
  }

// ---------------------------------------------------------------------------------------------
// openRemote
// ---------------------------------------------------------------------------------------------

/** Per-connection knobs the config file does not carry. */
export interface RemoteOptions {
  /** OAuth for the SDK to attach tokens and run the flow on 401 (see internal/auth/OAuthFlow.ts). */
  readonly authProvider?: OAuthClientProvider | undefined
  /** Time to response headers per HTTP request (and to the WebSocket upgrade), ms. */
  readonly requestTimeoutMs?: number | undefined
  /** The largest message accepted (a JSON body, one event, one WebSocket message), bytes; default 32 MiB. */
  readonly maxMessageBytes?: number | undefined
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/**
 * Builds the SDK transport for a remote server, unstarted (`Client.connect` starts it), and ties
 * its closing to the scope. Configured headers go on every request of every kind, including the
 * SSE GET and the WebSocket upgrade; every HTTP request is bounded by `fetchWithTimeout`, and
 * every body by `fetchWithLimit` (MessageSize.ts).
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
        const maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_RESPONSE_BYTES
        // HTTPS_PROXY/HTTP_PROXY/NO_PROXY (Proxy.ts); the SDK's OAuth requests use this fetch too.
        // Every body is held to the response size limit (MessageSize.ts).
        const base = fetchWithLimit(server.name, maxBytes, fetchWithTimeout(timeoutMs, proxyFetch()))
        const fetchImpl = options.authProvider ? dropDiscoveryOnRejectedToken(options.authProvider, base) : base
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
            transport = new WebSocketTransport(url, { headers, handshakeTimeoutMs: timeoutMs, maxMessageBytes: maxBytes, server: server.name })
            break
        }
        return { kind, transport, diagnostics: () => undefined }
      },
      catch: (error) =>
        new ServerUnavailable({
          server: server.name,
          status: "failed",
          // As written, not expanded: a `${TOKEN}` spliced into a URL that does not parse stays hidden.
          message: `Cannot open ${kind} transport to ${displayUrl(server)} for server "${server.name}": ${messageOf(error)}. Check the "url" in ${server.source}.`,
          cause: error
        })
    }),
    ({ transport }) =>
      // Each close is bounded internally (CLOSE_GRACE_MS), so shutdown cannot hang here.
      Effect.tryPromise(() => transport.close()).pipe(Effect.ignore)
  )
