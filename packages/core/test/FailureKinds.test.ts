/**
 * Each kind of failure the request driver meets, classified once (RequestErrors.ts), by type:
 * mcpctl's own transport errors by `_tag`, the SDK's by class and code, and the few SDK sentences
 * with no type behind them (ErrorText.ts) against errors the real SDK throws.
 */
import { describe, expect, it } from "@effect/vitest"
import { classifyRequestFailure, isRefusedAnswer, wasNotSent } from "@mcpctl/core/internal/pool/RequestErrors"
import { isSdkOutputSchemaRefusal, isSdkPlainNotConnected, isSdkProbeTimeout, sseSendStatus } from "@mcpctl/core/internal/transport/ErrorText"
import { MESSAGE_TOO_LARGE, MessageTooLargeError } from "@mcpctl/core/internal/transport/MessageSize"
import { isAuthError, isStaleSession, NotSent, WebSocketHandshakeError } from "@mcpctl/core/internal/transport/TransportErrors"
import { Client, InMemoryTransport, ProtocolError, SdkError, SdkErrorCode, SdkHttpError } from "@modelcontextprotocol/client"
import { Server } from "@modelcontextprotocol/server"

/** An SDK client on an in-memory server whose tools declare an output schema and break it. */
const clientOfBrokenTools = async () => {
  const server = new Server({ name: "broken", version: "1.0.0" }, { capabilities: { tools: {} } })
  const outputSchema = { type: "object" as const, properties: { n: { type: "number" } }, required: ["n"] }
  server.setRequestHandler("tools/list", () => ({
    tools: [
      { name: "mismatch", inputSchema: { type: "object" as const }, outputSchema },
      { name: "missing", inputSchema: { type: "object" as const }, outputSchema },
      { name: "refuses", inputSchema: { type: "object" as const } }
    ]
  }))
  server.setRequestHandler("tools/call", (request) => {
    if (request.params.name === "mismatch") return { content: [], structuredContent: { n: "not a number" } }
    if (request.params.name === "missing") return { content: [{ type: "text" as const, text: "no structure" }] }
    // The server's own -32602: the same code as the SDK's refusal. (A server that sent the SDK's
    // exact sentence would be taken for the refusal: nothing else tells them apart.)
    throw new ProtocolError(-32602, "Invalid arguments: n must be a number")
  })
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  const client = new Client({ name: "t", version: "0" })
  await client.connect(clientSide)
  await client.listTools()
  return client
}

const failureOf = (promise: Promise<unknown>): Promise<unknown> => promise.then(() => undefined, (e: unknown) => e)

describe("mcpctl's own transport errors, by tag", () => {
  it("NotSent: never ran, so a lost tools/call did not run and the connection counts as closed", () => {
    for (const reason of ["exited", "closed", "not-open"] as const) {
      const cause = new NotSent({ to: `MCP server "s"`, reason, detail: "gone" })
      expect(wasNotSent(cause)).toBe(true)
      const { error, terminal } = classifyRequestFailure("s", "tools/call", cause)
      expect(terminal).toBe(true)
      expect(error).toMatchObject({ _tag: "TransportFailure", reason: "not-sent", mayHaveRun: false, code: "CONNECTION_CLOSED", cause })
    }
  })

  it("the same sentence without the tag is no NotSent: text says nothing", () => {
    const lookalike = new Error(`MCP server "s": cannot send, the process has exited (exit 1)`)
    expect(wasNotSent(lookalike)).toBe(false)
    expect(classifyRequestFailure("s", "tools/call", lookalike).error).toMatchObject({ _tag: "McpRequestError", code: -1 })
  })

  it("NotSent keeps mcpctl's message", () => {
    const cause = new NotSent({ to: `MCP server "s"`, reason: "exited", detail: "the process has exited (killed by SIGKILL)" })
    expect(cause.message).toBe(`MCP server "s": cannot send, the process has exited (killed by SIGKILL)`)
    expect(cause).toBeInstanceOf(Error)
  })

  it("MessageTooLargeError: a refused answer, the connection kept", () => {
    const cause = new MessageTooLargeError({ server: "s", size: 10, limit: 5, complete: true })
    expect(cause.message).toMatch(/^server "s" sent a message of 10 bytes/)
    const { error, terminal } = classifyRequestFailure("s", "tools/call", cause)
    expect(terminal).toBe(false)
    expect(error).toMatchObject({ _tag: "McpRequestError", code: MESSAGE_TOO_LARGE, refusedAnswer: true, cause })
  })

  it("WebSocketHandshakeError 401: an auth error, by its code", () => {
    expect(isAuthError(new WebSocketHandshakeError({ code: 401, message: "refused" }))).toBe(true)
    expect(isAuthError(new WebSocketHandshakeError({ code: 403, message: "refused" }))).toBe(false)
  })
})

describe("the SDK's errors, by class and code", () => {
  it("an unconnected SDK client's plain 'Not connected' is a call that never ran", async () => {
    const cause = await failureOf(new Client({ name: "t", version: "0" }).request({ method: "tools/list", params: {} }))
    expect(isSdkPlainNotConnected(cause)).toBe(true)
    expect(classifyRequestFailure("s", "tools/call", cause).error).toMatchObject({ reason: "not-sent", mayHaveRun: false })
    // A subclass with the same words is not the SDK's plain Error.
    expect(isSdkPlainNotConnected(new TypeError("Not connected"))).toBe(false)
  })

  it("SdkError NotConnected, ConnectionClosed, RequestTimeout", () => {
    expect(classifyRequestFailure("s", "tools/call", new SdkError(SdkErrorCode.NotConnected, "x")).error).toMatchObject({ reason: "not-sent" })
    expect(classifyRequestFailure("s", "tools/call", new SdkError(SdkErrorCode.ConnectionClosed, "x")).error).toMatchObject({ reason: "closed", mayHaveRun: true })
    expect(classifyRequestFailure("s", "tools/list", new SdkError(SdkErrorCode.RequestTimeout, "x")).error).toMatchObject({ _tag: "McpRequestError", code: -32001 })
  })

  it("a 400 whose JSON-RPC error blames the session id is a stale session; other 400s are not", () => {
    const http = (status: number, body: unknown) => {
      const text = JSON.stringify(body)
      return new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, `Error POSTing to endpoint: ${text}`, { status, text })
    }
    const stale = http(400, { jsonrpc: "2.0", error: { code: -32000, message: "Bad Request: No valid session ID provided" }, id: null })
    expect(isStaleSession(stale)).toBe(true)
    expect(classifyRequestFailure("s", "tools/call", stale).error._tag).toBe("SessionExpired")
    expect(isStaleSession(http(404, { jsonrpc: "2.0", error: { code: -32001, message: "Not found" }, id: null }))).toBe(true)
    expect(isStaleSession(http(400, { jsonrpc: "2.0", error: { code: -32600, message: "Bad request" }, id: null }))).toBe(false)
    expect(isStaleSession(http(500, { jsonrpc: "2.0", error: { code: -32000, message: "session store down" }, id: null }))).toBe(false)
    // The word in the SDK's message alone (no body) is nothing.
    expect(isStaleSession(new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, "Error POSTing to endpoint: session", { status: 400 }))).toBe(false)
  })
})

describe("the SDK sentences with no type behind them (ErrorText.ts)", () => {
  it("the SDK client's output-schema refusals, from a real client; the server's own -32602 is the server's", async () => {
    const client = await clientOfBrokenTools()
    const mismatch = await failureOf(client.callTool({ name: "mismatch", arguments: {} }))
    const missing = await failureOf(client.callTool({ name: "missing", arguments: {} }))
    const refuses = await failureOf(client.callTool({ name: "refuses", arguments: {} }))
    for (const refused of [mismatch, missing]) {
      expect(ProtocolError.isInstance(refused) && isSdkOutputSchemaRefusal(refused)).toBe(true)
      expect(classifyRequestFailure("s", "tools/call", refused).error).toMatchObject({ _tag: "McpRequestError", refusedAnswer: true })
    }
    expect(ProtocolError.isInstance(refuses) && isRefusedAnswer(refuses)).toBe(false)
    expect(classifyRequestFailure("s", "tools/call", refuses).error).toMatchObject({ _tag: "McpRequestError", code: -32602, fromServer: true })
    await client.close()
  })

  it("the SSE transport's failed POST: the status from its sentence", () => {
    expect(sseSendStatus(new Error("Error POSTing to endpoint (HTTP 401): nope"))).toBe(401)
    expect(isAuthError(new Error("Error POSTing to endpoint (HTTP 401): nope"))).toBe(true)
    expect(sseSendStatus(new Error("the server said (HTTP 401)"))).toBeUndefined()
  })

  it("the version probe's timeout, not any request timeout", () => {
    expect(isSdkProbeTimeout(new SdkError(SdkErrorCode.RequestTimeout, "Version negotiation probe timed out after 5000ms"))).toBe(true)
    expect(isSdkProbeTimeout(new SdkError(SdkErrorCode.RequestTimeout, "Request timed out"))).toBe(false)
  })
})
