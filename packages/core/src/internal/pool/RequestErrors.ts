/**
 * SDK failures → the typed errors of Errors.ts. SDK v2 throws `ProtocolError`s (the server's
 * JSON-RPC errors), `SdkError`s (local: connection closed, not connected, timeout, invalid
 * result; `SdkHttpError` for an HTTP status), plain `Error`s and transport-specific classes;
 * callers of the pool only ever see these few tagged errors.
 */
import { ProtocolError, SdkError, SdkErrorCode } from "@modelcontextprotocol/client"
import type { Protocol, ResolvedServer } from "../../config/ServerConfig.js"
import { displayUrl, redactText } from "../config/Redact.js"
import {
  McpRequestError,
  ServerUnavailable,
  SessionExpired,
  TransportFailure
} from "../../Errors.js"
import { MESSAGE_TOO_LARGE, MessageTooLargeError } from "../transport/MessageSize.js"
import { isSdkOutputSchemaRefusal, isSdkPlainNotConnected } from "../transport/ErrorText.js"
import {
  isAuthError,
  isNotSent,
  isStaleSession,
  isTerminalTransportError,
  networkFailure,
  shouldFallBackToSse
} from "../transport/TransportErrors.js"

/** What a request on a connected server can fail with. */
export type RequestError = TransportFailure | McpRequestError | SessionExpired

/** The failure was a broken connection (what the pool counts toward closing one, Resilience.ts). */
export const isTerminal = (error: RequestError): boolean =>
  error._tag === "TransportFailure" && error.reason !== undefined && error.reason !== "other"

/**
 * The JSON-RPC code SDK 1.x gave its own request timeout (`McpError` -32001), kept for the
 * `McpRequestError` SDK v2's `SdkError` `REQUEST_TIMEOUT` becomes.
 */
const REQUEST_TIMEOUT = -32001

/** The `SdkErrorCode` of a local SDK failure, or undefined for anything else. */
const sdkCodeOf = (cause: unknown): string | undefined => SdkError.isInstance(cause) ? cause.code : undefined

/** The cause's text, with any URL in it redacted: SDK and fetch errors quote the URL they failed on. */
const messageOf = (cause: unknown): string =>
  redactText(cause instanceof Error ? cause.message : typeof cause === "string" ? cause : JSON.stringify(cause))

const codeOf = (cause: unknown): string | undefined => {
  const seen = new Set<unknown>()
  let current: unknown = cause
  while (current && typeof current === "object" && !seen.has(current)) {
    seen.add(current)
    const code = (current as { code?: unknown }).code
    if (typeof code === "string") return code
    current = (current as { cause?: unknown }).cause
  }
  return undefined
}

/** JSON-RPC -32022 (2026-07-28): the server does not support the protocol version asked for. */
export const UNSUPPORTED_PROTOCOL_VERSION = -32022

/** The versions a -32022 error says the server supports, when it says. */
const supportedVersions = (cause: unknown): ReadonlyArray<string> | undefined => {
  const data = (cause as { data?: { supported?: unknown } } | null)?.data
  const supported = data && typeof data === "object" ? data.supported : undefined
  return Array.isArray(supported) ? supported.filter((v): v is string => typeof v === "string") : undefined
}

/**
 * A protocol version error: the server's -32022 (UnsupportedProtocolVersion), or SDK v2's
 * `EraNegotiationFailed` (a pinned or probed modern connect found no common revision).
 */
export const isVersionError = (cause: unknown): boolean =>
  (ProtocolError.isInstance(cause) && cause.code === UNSUPPORTED_PROTOCOL_VERSION) ||
  sdkCodeOf(cause) === SdkErrorCode.EraNegotiationFailed

/**
 * The message of a version error: what the server refused, what it speaks, and the fix (the
 * other era with `--protocol`, or the server's `protocol` setting).
 */
export const versionErrorMessage = (server: string, cause: unknown, protocol: Protocol | undefined): string => {
  const supported = supportedVersions(cause)
  const speaks = supported && supported.length > 0 ? ` It supports ${supported.join(", ")}.` : ""
  const modern = supported?.some((v) => v >= "2026-07-28")
  const other: Protocol = protocol === "modern" ? "legacy" : protocol === "legacy" ? "modern" : modern ? "modern" : "legacy"
  return `Server "${server}" does not speak the protocol version mcpctl asked for` +
    `${protocol && protocol !== "auto" ? ` (--protocol ${protocol})` : ""}: ${messageOf(cause)}.${speaks} ` +
    `Connect in the other era with \`--protocol ${other}\`, or set "protocol": "${other}" in its settings.`
}

/**
 * A failed `initialize`: needs-auth on 401, otherwise failed with the server's own last words
 * (stderr tail). `fallback` says whether `auto` may try the next transport kind.
 */
export const classifyConnectError = (
  server: ResolvedServer,
  failure: { readonly cause: unknown; readonly diagnostics: string | undefined },
  protocol?: Protocol | undefined
): { readonly error: ServerUnavailable; readonly fallback: boolean } => {
  const { cause, diagnostics } = failure
  // undici's bare "fetch failed" hides the reason (refused, DNS, TLS) in its cause: say it,
  // naming the host as the settings wrote it (displayUrl), never a value spliced in from a variable.
  // A probe that never reached the server is an outage, not a version the server refused.
  const network = "url" in server.config ? networkFailure(cause, displayUrl(server)) : undefined
  if (isVersionError(cause) && network === undefined) {
    return {
      fallback: false,
      error: new ServerUnavailable({ server: server.name, status: "failed", message: versionErrorMessage(server.name, cause, protocol) })
    }
  }
  if (isAuthError(cause)) {
    return {
      fallback: false,
      error: new ServerUnavailable({
        server: server.name,
        status: "needs-auth",
        message: `Server "${server.name}" needs authorization. Run \`mcpctl auth ${server.name}\` to sign in.`
      })
    }
  }
  const tail = diagnostics ? `\n--- last output of the server ---\n${diagnostics.trimEnd()}` : ""
  // The URL may carry a token in its query or user info: never print it as is.
  const where = "url" in server.config ? displayUrl(server) : server.config.command
  return {
    fallback: shouldFallBackToSse(cause),
    error: new ServerUnavailable({
      server: server.name,
      status: "failed",
      message: `Server "${server.name}" (${where}) failed to connect: ${network ?? messageOf(cause)}${tail}`
    })
  }
}

/**
 * The request failed before any of it left this process: one of mcpctl's transports refused to
 * write (`NotSent`: the stdio server exited, its pipe or the WebSocket is closed), or the SDK found
 * no transport (`NotConnected`). Such a call cannot have run, so it is safe to send again whatever
 * the tool does.
 */
export const wasNotSent = (cause: unknown): boolean =>
  isNotSent(cause) || sdkCodeOf(cause) === SdkErrorCode.NotConnected || isSdkPlainNotConnected(cause)

/**
 * An error this side made of the server's answer, not one the server sent: the answer was over
 * the size limit (MessageSize.ts) or did not match the tool's output schema (the SDK client
 * checks it). The server misbehaved, so the request counts as a server that cannot be used.
 */
export const isRefusedAnswer = (error: ProtocolError): boolean =>
  error.code === MESSAGE_TOO_LARGE || isSdkOutputSchemaRefusal(error)

/**
 * A failed request on a live connection, and whether its cause was a broken connection (which
 * the pool counts toward closing a degraded one, Resilience.ts). `mayHaveRun` (and the message)
 * say whether a lost `tools/call` could have taken effect, so the user knows whether to check
 * before running it again.
 */
export const classifyRequestFailure = (
  server: string,
  method: string,
  cause: unknown,
  options: { readonly idempotent?: boolean | undefined; readonly tool?: string | undefined } = {}
): { readonly error: RequestError; readonly terminal: boolean } => {
  // An answer dropped for its size: the request failed, the connection is fine.
  if (cause instanceof MessageTooLargeError) {
    return {
      terminal: false,
      error: new McpRequestError({
        cause,
        server,
        method,
        code: MESSAGE_TOO_LARGE,
        message: `${server}: ${cause.message}`,
        refusedAnswer: true
      })
    }
  }
  if (isStaleSession(cause)) {
    return {
      terminal: false,
      error: new SessionExpired({ cause, server, message: `The session with server "${server}" expired.` })
    }
  }
  if (isVersionError(cause)) {
    return {
      terminal: false,
      error: new McpRequestError({ cause, server, method, code: UNSUPPORTED_PROTOCOL_VERSION, message: versionErrorMessage(server, cause, undefined) })
    }
  }
  if (ProtocolError.isInstance(cause)) {
    return {
      terminal: false,
      error: new McpRequestError({
        cause,
        server,
        method,
        code: cause.code,
        message: `${server}: ${cause.message}`,
        ...(isRefusedAnswer(cause) ? { refusedAnswer: true } : { fromServer: true }),
        ...(cause.data !== undefined ? { data: cause.data } : {})
      })
    }
  }
  const sdkCode = sdkCodeOf(cause)
  if (sdkCode === SdkErrorCode.InputRequiredRoundsExceeded) {
    const what = options.tool !== undefined ? `tool ${JSON.stringify(options.tool)}` : method
    return {
      terminal: false,
      error: new McpRequestError({
        cause,
        server,
        method,
        code: -1,
        message: `Server "${server}" kept asking for input: ${what} answered input_required more times than ` +
          `allowed (${messageOf(cause)}). The server may be ` +
          `looping; report it to its authors.`
      })
    }
  }
  if (sdkCode === SdkErrorCode.RequestTimeout) {
    return {
      terminal: false,
      error: new McpRequestError({ cause, server, method, code: REQUEST_TIMEOUT, message: `${server}: ${messageOf(cause)}` })
    }
  }
  const closedByPeer = sdkCode === SdkErrorCode.ConnectionClosed
  // Not sent: the connection is gone just as surely as on a close.
  const notSent = wasNotSent(cause)
  const closed = closedByPeer || notSent
  const terminal = isTerminalTransportError(cause)
  // An SdkError's own code (INVALID_RESULT, CLIENT_HTTP_…) names no broken connection.
  const code = sdkCode === undefined ? codeOf(cause) : undefined
  if (closed || terminal || code !== undefined) {
    const mayHaveRun = method === "tools/call" && !notSent
    return {
      terminal: closed || terminal,
      error: new TransportFailure({
        server,
        code: closed ? "CONNECTION_CLOSED" : code,
        mayHaveRun,
        reason: notSent ? "not-sent" : closedByPeer ? "closed" : terminal ? "broken" : "other",
        cause,
        message: `Lost the connection to server "${server}" during ${method}: ${messageOf(cause)}` +
          (!mayHaveRun
            ? ""
            : options.idempotent
            ? `. The call may have run on the server.`
            : `. The call may have run on the server; it was not repeated because the tool is neither ` +
              `read-only nor idempotent. Check its effect before calling it again.`)
      })
    }
  }
  return {
    terminal: false,
    error: new McpRequestError({ cause, server, method, code: -1, message: `${server}: ${messageOf(cause)}` })
  }
}
