// @ts-nocheck
import { describe, expect, it } from "@effect/vitest"
import { classifyRequestFailure } from "@mcpctl/core/internal/pool/RequestErrors"
import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError } from "@modelcontextprotocol/client"

describe("classifyRequestFailure", () => {
  it("treats the SDK's 'Not connected' as a closed connection whose call never ran", () => {
    const { error, terminal } = classifyRequestFailure("s", "tools/call", new Error("Not connected"))
    expect(terminal).toBe(true)
    expect(error).toMatchObject({ _tag: "TransportFailure", code: "CONNECTION_CLOSED", mayHaveRun: false })
  })

  it("keeps a server's JSON-RPC error as a request error, not a transport failure", () => {
    const { error, terminal } = classifyRequestFailure("s", "tools/call", new ProtocolError(-32602, "bad params"))
    expect(terminal).toBe(false)
    expect(error).toMatchObject({ _tag: "McpRequestError", code: -32602 })
  })

  it("says a tools/call lost with its connection may have run", () => {
    const { error, terminal } = classifyRequestFailure("s", "tools/call", new SdkError(SdkErrorCode.ConnectionClosed, "Connection closed"))
    expect(terminal).toBe(true)
    expect(error).toMatchObject({ _tag: "TransportFailure", code: "CONNECTION_CLOSED", mayHaveRun: true })
  })

  it("treats SDK v2's NotConnected as a call that never ran", () => {
    const { error } = classifyRequestFailure("s", "tools/call", new SdkError(SdkErrorCode.NotConnected, "Transport is not connected"))
    expect(error).toMatchObject({ _tag: "TransportFailure", code: "CONNECTION_CLOSED", mayHaveRun: false })
  })

  it("keeps the SDK's own request timeout a request error with SDK 1.x's code -32001", () => {
    const { error, terminal } = classifyRequestFailure("s", "tools/list", new SdkError(SdkErrorCode.RequestTimeout, "Request timed out"))
    expect(terminal).toBe(false)
    expect(error).toMatchObject({ _tag: "McpRequestError", code: -32001 })
  })

  it("does not take an SdkError's string code for a broken connection", () => {
    const invalid = classifyRequestFailure("s", "tools/call", new SdkError(SdkErrorCode.InvalidResult, "Invalid result"))
    expect(invalid).toMatchObject({ terminal: false, error: { _tag: "McpRequestError", code: -1 } })
    const http = classifyRequestFailure("s", "tools/call", new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, "Error POSTing to endpoint: boom", { status: 500 }))
    expect(http).toMatchObject({ terminal: false, error: { _tag: "McpRequestError", code: -1 } })
  })

  it("a 400 that blames the session is a stale session", () => {
    const stale = new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, "Error POSTing to endpoint: Bad Request: No valid session ID provided", { status: 400 })
    expect(classifyRequestFailure("s", "tools/call", stale).error._tag).toBe("SessionExpired")
  })
})

describe("classifyRequestFailure: an answer dropped for its size", () => {
  it("fails the request with size and limit, and keeps the connection", async () => {
    const { MessageTooLargeError, MESSAGE_TOO_LARGE } = await import("@mcpctl/core/internal/transport/MessageSize")
    const { error, terminal } = classifyRequestFailure("h", "tools/call", new MessageTooLargeError("h", 40_000_000, 1_048_576, false))
    expect(terminal).toBe(false)
    expect(error).toMatchObject({ _tag: "McpRequestError", code: MESSAGE_TOO_LARGE })
    expect(error.message).toMatch(/^h: server "h" sent a message of more than 40,000,000 bytes .* over the limit of 1,048,576 bytes/)
  })
})
