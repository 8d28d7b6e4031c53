/**
 * The only place that reads the text of an error. Each function names whose text it reads (SDK
 * v2, Node and undici, a server's answer) and why nothing typed says the same. mcpctl's own
 * errors are never read here: they are tagged (`NotSent`, `MessageTooLargeError`, …) and are
 * classified by `_tag`. A leaf: imports nothing of mcpctl's.
 *
 * When an SDK upgrade changes one of these sentences, the test of that function fails
 * (ErrorText.test.ts builds each error the way the SDK does).
 */

/**
 * SDK v2's `Protocol` request path (`_requestWithSchemaViaCodec`) rejects with a plain
 * `new Error("Not connected")` when the client has no transport any more; its other paths throw
 * `SdkError(NotConnected)`, which is recognised by code. This one has no code.
 */
export const isSdkPlainNotConnected = (error: unknown): boolean =>
  error instanceof Error && error.constructor === Error && error.message === "Not connected"

/** The JSON-RPC codes SDK v2's `Client.callTool` gives its refusals of a tool's result. */
const INVALID_REQUEST = -32600
const INVALID_PARAMS = -32602

/**
 * SDK v2's `Client.callTool` checks a result against the tool's output schema after it arrived and
 * throws `ProtocolError(InvalidParams, "Structured content does not match the tool's output
 * schema: …")` or `ProtocolError(InvalidRequest, "Tool X has an output schema but did not return
 * structured content")`. Those are the codes a server's own error could carry too: only the
 * sentence tells the SDK's refusal from the server's answer.
 */
export const isSdkOutputSchemaRefusal = (error: { readonly code: number; readonly message: string }): boolean =>
  (error.code === INVALID_PARAMS && error.message.startsWith("Structured content does not match the tool's output schema")) ||
  (error.code === INVALID_REQUEST && / has an output schema but did not return structured content$/.test(error.message))

/**
 * The HTTP status of a failed POST of SDK v2's `SSEClientTransport`: its `send` throws a plain
 * `Error("Error POSTing to endpoint (HTTP 401): …")`, not the `SdkHttpError` Streamable HTTP
 * throws, so the status is only in the sentence.
 */
export const sseSendStatus = (error: unknown): number | undefined => {
  if (!(error instanceof Error)) return undefined
  const match = /^Error POSTing to endpoint \(HTTP (\d{3})\)/.exec(error.message)
  return match ? Number(match[1]) : undefined
}

/**
 * SDK v2's version negotiation fails a probe that got no answer in time with
 * `SdkError(RequestTimeout, "Version negotiation probe timed out after N ms", { timeout })`: the
 * same code and data as any request timeout, so only the sentence says it was the probe.
 */
export const isSdkProbeTimeout = (error: { readonly message: string }): boolean =>
  error.message.startsWith("Version negotiation probe timed out")

/**
 * A server's JSON-RPC error that blames the session id. The spec says 404 with -32001 for an
 * unknown session (recognised by code); the reference server-everything answers 400 with -32000
 * "Bad Request: No valid session ID provided", whose code names nothing, so its words are read.
 */
export const blamesSessionId = (serverMessage: string): boolean => /session/i.test(serverMessage)

/** Error codes Node and undici put in a message when the error object itself lost them. */
const BROKEN_CODE_IN_TEXT = /\b(ECONNRESET|ETIMEDOUT|EPIPE|ECONNREFUSED|EHOSTUNREACH|ENETUNREACH|ENETDOWN|ECONNABORTED)\b/

/**
 * Sentences of a broken connection with no code beside them: Node's "socket hang up", undici's
 * "other side closed" and bare `TypeError("terminated")`, and the same flattened into the text of
 * an SDK `SseError` or an `eventsource` error event, which keep only a message.
 */
const BROKEN_TEXT = /socket hang up|other side closed|^terminated$|connection (was )?(reset|closed)/i

/** The message names a broken connection (see the two patterns above). */
export const namesBrokenConnection = (message: string): boolean =>
  BROKEN_CODE_IN_TEXT.test(message) || BROKEN_TEXT.test(message)
