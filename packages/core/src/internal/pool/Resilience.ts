/**
 * The pool's recovery policy as pure functions: what one failed request means for the connection
 * it ran on (keep it, count it, drop it) and whether the request may be sent again. Kept apart
 * from the pool so the rules of docs/CLI.md (Lifecycle) are testable without a server.
 * Also the guard that turns a malformed answer into an error for its own request.
 */
import { isJSONRPCErrorResponse, isJSONRPCNotification, isJSONRPCRequest, isJSONRPCResultResponse, ProtocolErrorCode } from "@modelcontextprotocol/client"
import type { Transport as SdkTransport, JSONRPCNotification } from "@modelcontextprotocol/client"
import type { NotificationShortcut } from "./hostClient.js"
import type { Era } from "./EraCache.js"
import type { ConcreteKind } from "../transport/OpenedTransport.js"
import type { RequestError } from "./RequestErrors.js"

/**
 * Terminal transport errors in a row after which a connection is closed (the next use
 * reconnects). Three, as in the host mcpctl was modelled on: one reset is noise, three is a dead peer.
 */
export const DEGRADED_AFTER = 3

/** How one request ended, as the policy needs to see it. */
export type Outcome =
  | { readonly _tag: "Answered" }
  | {
    readonly _tag: "Failed"
    readonly error: RequestError
    /** The cause was a broken connection (reset, refused, timed out, pipe closed, …). */
    readonly terminal: boolean
  }

/** What the pool does with a connection after a request. */
export interface Verdict {
  /** Consecutive terminal errors on the connection after this request. */
  readonly failures: number
  /** Close the connection now; the next use reconnects. */
  readonly drop: boolean
}

/**
 * Stream transports (stdio pipes, WebSocket) cannot recover from a broken stream, so one terminal
 * error is enough; request/response transports (HTTP, SSE's POSTs) open a new socket per request,
 * so a single reset may be noise and only `DEGRADED_AFTER` in a row mean the peer is gone.
 */
const isStream = (kind: ConcreteKind): boolean => kind === "stdio" || kind === "ws"

/**
 * The connection's fate after a request. Any answer from the server (also a JSON-RPC error)
 * proves the transport works and resets the count; an expired session or a closed connection is
 * dropped at once so the next attempt re-initializes. (The pool also resets the count on every
 * message the server sends, because a request served from a cached list proves nothing.)
 */
export const afterRequest = (kind: ConcreteKind, failures: number, outcome: Outcome): Verdict => {
  if (outcome._tag === "Answered") return { failures: 0, drop: false }
  const error = outcome.error
  if (error._tag === "SessionExpired") return { failures, drop: true }
  if (error._tag === "TransportFailure" && error.code === "CONNECTION_CLOSED") return { failures: failures + 1, drop: true }
  if (error._tag === "TransportFailure" && outcome.terminal) {
    const next = failures + 1
    return { failures: next, drop: isStream(kind) || next >= DEGRADED_AFTER }
  }
  return { failures: 0, drop: false }
}

/**
 * Whether a failed request may be sent once more on a fresh connection. An expired session never
 * ran the request, and neither did one that never left the process (`mayHaveRun: false`), so
 * those are always resent; a request lost with its connection is resent only when running it
 * twice is harmless (lists, `readOnlyHint`/`idempotentHint` tools).
 */
export const mayResend = (error: RequestError, context: { readonly idempotent: boolean; readonly dropped: boolean }): boolean => {
  if (error._tag === "SessionExpired") return true
  return error._tag === "TransportFailure" && context.dropped && (context.idempotent || error.mayHaveRun === false)
}

/**
 * The common case, an ordinary result, recognized without a schema parse: the SDK parses every
 * message again anyway, and a second full parse per message showed in the per-call benchmark.
 * Anything unusual still goes through the SDK's own type guards below.
 */
const looksLikeResult = (message: unknown): boolean => {
  const m = message as { jsonrpc?: unknown; id?: unknown; result?: { _meta?: unknown } | null; error?: unknown; method?: unknown }
  return m.jsonrpc === "2.0" && (typeof m.id === "number" || typeof m.id === "string") &&
    typeof m.result === "object" && m.result !== null && !Array.isArray(m.result) &&
    (m.result._meta === undefined || (typeof m.result._meta === "object" && m.result._meta !== null)) &&
    m.error === undefined && m.method === undefined
}

/**
 * A result without `resultType` is a complete one: the 2026-07-28 revision tells clients to assume
 * "complete" when it is absent, but the SDK's modern-era decoder refuses such a result outright
 * ("missing required resultType"). The legacy decoder strips the field again, by copying the
 * result: `answerInvalidResponses` adds it on modern connections only.
 */
export const completeByDefault = <M>(message: M): M => {
  // In place: this is every answer's path, and a copy per result was measurable per call.
  const result = (message as { result: Record<string, unknown> }).result
  if (!("resultType" in result)) result.resultType = "complete"
  return message
}

/** A notification recognized without a schema parse: version, a method, no id. */
const looksLikeNotification = (message: unknown): message is JSONRPCNotification => {
  const m = message as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown }
  return m.jsonrpc === "2.0" && typeof m.method === "string" && m.id === undefined &&
    (m.params === undefined || (typeof m.params === "object" && m.params !== null))
}

/** A `notifications/progress` token, as the SDK compares them (it sends the request id). */
const tokenKey = (token: unknown): number | undefined =>
  typeof token === "number" || typeof token === "string" ? Number(token) : undefined

/**
 * The notifications nobody would handle, dropped before the SDK sees them: the SDK's dispatcher
 * runs four schema parses on every message before it finds a notification, and a server sending
 * 1,000,000 during one call cost 95 s of CPU that way. `listens` says whether the client has a
 * handler for a method (`internal/pool/hostClient.ts`); progress counts only for a request of
 * ours still in flight (the SDK would build an error, and its JSON, for each other one), known
 * from the `progressToken`s this connection sent. Only public surface: the transport's
 * `send`/`onmessage` and the handlers the client registered.
 */
const notificationGate = (transport: SdkTransport, listens: (method: string) => boolean) => {
  /** request id → progress token, for requests sent with one and not yet answered. */
  const inFlight = new Map<string | number, number>()
  const tokens = new Map<number, number>()
  const send = transport.send.bind(transport)
  transport.send = (message, options) => {
    const m = message as { id?: unknown; method?: unknown; params?: { _meta?: { progressToken?: unknown } } }
    const token = tokenKey(m.params?._meta?.progressToken)
    if (token !== undefined && typeof m.method === "string" && (typeof m.id === "number" || typeof m.id === "string")) {
      inFlight.set(m.id, token)
      tokens.set(token, (tokens.get(token) ?? 0) + 1)
    }
    return send(message, options)
  }
  return {
    /** An answer arrived: its request's progress token is no longer ours. */
    answered: (id: unknown): void => {
      if (typeof id !== "number" && typeof id !== "string") return
      const token = inFlight.get(id)
      if (token === undefined) return
      inFlight.delete(id)
      const left = tokens.get(token)! - 1
      if (left === 0) tokens.delete(token)
      else tokens.set(token, left)
    },
    /** Whether the SDK should see this notification at all. */
    wanted: (message: JSONRPCNotification): boolean => {
      if (message.method === "notifications/progress") {
        const token = tokenKey((message.params as { progressToken?: unknown } | undefined)?.progressToken)
        if (token === undefined || !tokens.has(token)) return false
      }
      return listens(message.method)
    }
  }
}

/**
 * A server message the SDK cannot classify is only reported to `onerror`, and the request it
 * answers would wait for its timeout. One that carries a request id is turned into a JSON-RPC
 * error for that id, so the bad answer fails its own request at once and nothing else. With
 * `listens` (whether the client handles a notification method), notifications nobody handles,
 * and progress for no request in flight, are dropped before the SDK's schema dispatch. `direct`
 * takes a notification off the SDK's path altogether when it returns true (server logs: dropped
 * below the host's threshold or handed to its handler; that dispatch cost ~0.1 ms a message).
 * `era`: a legacy connection's results are passed on without `resultType` added (completeByDefault
 * is for the modern decoder; the legacy one copies every result that has the field to strip it).
 */
export const answerInvalidResponses = (
  transport: SdkTransport,
  server: string,
  onReceive?: () => void,
  listens?: ((method: string) => boolean) | undefined,
  direct?: NotificationShortcut | undefined,
  era: Era = "modern"
): void => {
  const deliver = transport.onmessage
  if (!deliver) return
  // Stdio reads lines: a server log below the threshold is dropped before it is parsed.
  if (direct !== undefined && "skipLine" in transport) (transport as { skipLine: unknown }).skipLine = direct.skipsLine
  const gate = listens === undefined ? undefined : notificationGate(transport, listens)
  transport.onmessage = (message, extra) => {
    onReceive?.()
    if (gate !== undefined || direct !== undefined) {
      if (looksLikeNotification(message)) {
        // Server logs: dropped below the threshold, or handed to the host's handler, without
        // the SDK's schema dispatch (hostClient.ts `notificationShortcut`).
        if (direct?.takes(message) === true) return
        if (gate !== undefined && !gate.wanted(message)) return
      } else if (gate !== undefined && typeof message === "object" && message !== null && !("method" in message)) {
        // A response (a server's own request may reuse one of our ids).
        gate.answered((message as { readonly id?: unknown }).id)
      }
    }
    if (looksLikeResult(message)) return deliver(era === "modern" ? completeByDefault(message) : message, extra)
    if (
      isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message) || isJSONRPCRequest(message) ||
      isJSONRPCNotification(message)
    ) {
      return deliver(message, extra)
    }
    const id = (message as { readonly id?: unknown } | null)?.id
    if ((typeof id === "string" || typeof id === "number") && !("method" in (message as object))) {
      const text = JSON.stringify(message)
      return deliver({
        jsonrpc: "2.0",
        id,
        error: {
          code: ProtocolErrorCode.InternalError,
          message: `server "${server}" answered with invalid JSON-RPC: ${text.length > 200 ? text.slice(0, 200) + "…" : text}`
        }
      }, extra)
    }
    transport.onerror?.(new Error(`server "${server}" sent invalid JSON-RPC, ignored: ${JSON.stringify(message)}`))
  }
}
