/**
 * What the transports share without importing each other: the timeouts, the WebSocket handshake
 * error, and the pure error predicates the pool and the call path use to decide between fallback
 * to SSE, re-auth, session re-initialization and reconnect. A leaf of the transport stage.
 */
// @ts-nocheck

import { UnauthorizedError, SseError, SdkHttpError } from "@modelcontextprotocol/client"
import type { Env } from "../../config/ServerConfig.js"
import { proxyFor } from "./Proxy.js"

/**
 * Time a single HTTP request may take until its response headers arrive. 60 s, as in the host mcpctl
 * was modelled on: long enough for slow cold starts behind a proxy, short enough that a dead peer
 * does not hold a request forever. It bounds headers only: SSE bodies may stream for hours.
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000

/**
 * How long shutdown waits for the Streamable HTTP session DELETE (and a WebSocket closing
 * handshake) before giving up: ending a session is a courtesy and must never delay exit.
 */
export const CLOSE_GRACE_MS = 200

/**
 * The server refused the WebSocket upgrade with an HTTP status. `code` is that status, the same
 * shape as the SDK's `SseError` (and the `status` of `SdkHttpError`), so one predicate recognises a 401 on every
 * remote transport.
 */
export class WebSocketHandshakeError extends Error {
  override readonly name = "WebSocketHandshakeError"
  constructor(readonly code: number, message: string) {
    super(message)
  }
}

// ---------------------------------------------------------------------------------------------
// Error predicates
// ---------------------------------------------------------------------------------------------

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null

/**
 * The HTTP status of a Streamable HTTP failure: SDK v2's `SdkHttpError` carries it as `status`
 * (its `code` is an `SdkErrorCode` string). `isInstance` also recognises another copy of the SDK
 * (CJS next to ESM), where `instanceof` fails.
 */
const streamableHttpStatusOf = (error: unknown): number | undefined =>
  SdkHttpError.isInstance(error) && typeof error.status === "number" ? error.status : undefined

/** The HTTP status an SDK transport error carries (`SdkHttpError`, `SseError`, ws refusal). */
const httpStatusOf = (error: unknown): number | undefined => {
  const streamable = streamableHttpStatusOf(error)
  if (streamable !== undefined) return streamable
  if (!isObject(error) || typeof error.code !== "number") return undefined
  if (
    error instanceof SseError ||
    error instanceof WebSocketHandshakeError ||
    // another copy of the SDK (CJS next to ESM) fails instanceof; its messages still say so
    (error instanceof Error && /^SSE error:/.test(error.message))
  ) {
    return error.code
  }
  return undefined
}

/**
 * The Streamable HTTP session is gone on the server: 404 whose body is JSON-RPC error -32001
 * (how the SDK's server answers an unknown `mcp-session-id`; the SDK client puts the body into the
 * `SdkHttpError` message), or any 404 to a request that carried a session id. Only an HTTP
 * 404 counts: a `ProtocolError` -32001 (or the SDK's own timeout) is no expired session.
 * Callers re-initialize and resend once.
 */
export const isSessionExpired = (error: unknown, request?: { readonly sessionId?: string | undefined }): boolean => {
  if (isObject(error) && error._tag === "SessionExpired") return true
  if (streamableHttpStatusOf(error) !== 404) return false
  if (/"code"\s*:\s*-32001\b/.test((error as Error).message)) return true
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
 * the next use reconnects (docs/CLI.md, Lifecycle). "fetch failed" alone does not count: only with
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
  const status = streamableHttpStatusOf(error)
  return status !== undefined && status >= 400 && status < 500 && status !== 401
}

const NETWORK_REASONS: Record<string, (host: string) => string> = {
  ECONNREFUSED: (host) => `nothing accepts connections at ${host} (connection refused); is the server running?`,
  ENOTFOUND: (host) => `the host name of ${host} does not resolve (DNS lookup failed); check the URL`,
  EAI_AGAIN: (host) => `the host name of ${host} could not be looked up (DNS unavailable); check the network`,
  ETIMEDOUT: (host) => `${host} did not answer in time (connection timed out)`,
  UND_ERR_CONNECT_TIMEOUT: (host) => `${host} did not answer in time (connection timed out)`,
  EHOSTUNREACH: (host) => `${host} is unreachable from this machine`,
  ENETUNREACH: (host) => `the network of ${host} is unreachable from this machine`,
  ECONNRESET: (host) => `${host} closed the connection (reset)`,
  CERT_HAS_EXPIRED: (host) => `the TLS certificate of ${host} has expired`,
  DEPTH_ZERO_SELF_SIGNED_CERT: (host) => `${host} has a self-signed TLS certificate (set NODE_EXTRA_CA_CERTS to trust it)`,
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: (host) => `the TLS certificate of ${host} cannot be verified (set NODE_EXTRA_CA_CERTS)`
}

/** Failures of the connection to a proxy (the only connection a proxied request makes itself). */
const PROXY_REASONS: Record<string, (proxy: string, variable: string) => string> = {
  ECONNREFUSED: (proxy, v) => `the proxy ${proxy} (from ${v}) refused the connection; check ${v}, or add the server's host to NO_PROXY`,
  ENOTFOUND: (proxy, v) => `the host name of the proxy ${proxy} (from ${v}) does not resolve; check ${v}`,
  EAI_AGAIN: (proxy, v) => `the host name of the proxy ${proxy} (from ${v}) could not be looked up (DNS unavailable)`,
  ETIMEDOUT: (proxy, v) => `the proxy ${proxy} (from ${v}) did not answer in time`,
  UND_ERR_CONNECT_TIMEOUT: (proxy, v) => `the proxy ${proxy} (from ${v}) did not answer in time`,
  EHOSTUNREACH: (proxy, v) => `the proxy ${proxy} (from ${v}) is unreachable from this machine`
}

const networkCodeAt = (error: unknown, depth: number): string | undefined => {
  if (depth > 5 || !isObject(error)) return undefined
  if (typeof error.code === "string" && error.code in NETWORK_REASONS) return error.code
  const nested = networkCodeAt(error.cause, depth + 1)
  if (nested !== undefined) return nested
  return Array.isArray(error.errors) ? error.errors.map((e) => networkCodeAt(e, depth + 1)).find((c) => c !== undefined) : undefined
}

/**
 * Why a request to `url` never reached an HTTP answer, in words (DNS, refused, timed out, TLS), or
 * undefined when the failure is something else. undici hides the reason in `cause` under a bare
 * "fetch failed", which says nothing to a user.
 */
export const networkFailure = (error: unknown, url: string, env: Env = process.env): string | undefined => {
  const code = networkCodeAt(error, 0)
  if (code === undefined) return undefined
  // Behind a proxy the connection that failed is the proxy's: say so, not "is the server running?".
  const via = proxyFor(url, env)
  if (via !== undefined && PROXY_REASONS[code] !== undefined) {
    let proxyHost = "the proxy"
    try {
      proxyHost = new URL(via.proxy).host
    } catch {
      // a proxy URL that does not parse is named by its variable only
    }
    return PROXY_REASONS[code]!(proxyHost, via.variable)
  }
  let host = url
  try {
    host = new URL(url).host
  } catch {
    // Not a URL: never named as it is (an expanded secret could be anywhere in it).
    host = "the server"
  }
  return NETWORK_REASONS[code]!(host)
}
