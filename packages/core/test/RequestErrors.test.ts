import { describe, expect, it } from "@effect/vitest"
import { classifyRequestFailure } from "@mcpctl/core/RequestErrors"
import { McpError } from "@modelcontextprotocol/sdk/types.js"

describe("classifyRequestFailure", () => {
  it("treats the SDK's 'Not connected' as a closed connection whose call never ran", () => {
    const { error, terminal } = classifyRequestFailure("s", "tools/call", new Error("Not connected"))
    expect(terminal).toBe(true)
    expect(error).toMatchObject({ _tag: "TransportFailure", code: "CONNECTION_CLOSED", mayHaveRun: false })
  })

  it("keeps a server's JSON-RPC error as a request error, not a transport failure", () => {
    const { error, terminal } = classifyRequestFailure("s", "tools/call", new McpError(-32602, "bad params"))
    expect(terminal).toBe(false)
    expect(error).toMatchObject({ _tag: "McpRequestError", code: -32602 })
  })

  it("says a tools/call lost with its connection may have run", () => {
    const { error } = classifyRequestFailure("s", "tools/call", new McpError(-32000, "Connection closed"))
    expect(error).toMatchObject({ _tag: "TransportFailure", code: "CONNECTION_CLOSED", mayHaveRun: true })
  })
})

describe("classifyRequestFailure: an answer dropped for its size", () => {
  it("fails the request with size and limit, and keeps the connection", async () => {
    const { MessageTooLargeError, MESSAGE_TOO_LARGE } = await import("@mcpctl/core/MessageSize")
    const { error, terminal } = classifyRequestFailure("h", "tools/call", new MessageTooLargeError("h", 40_000_000, 1_048_576, false))
    expect(terminal).toBe(false)
    expect(error).toMatchObject({ _tag: "McpRequestError", code: MESSAGE_TOO_LARGE })
    expect(error.message).toMatch(/^h: server "h" sent a message of more than 40,000,000 bytes .* over the limit of 1,048,576 bytes/)
  })
})
