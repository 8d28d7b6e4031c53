// @ts-nocheck
import { describe, expect, it } from "@effect/vitest"
import { exitCodeOf, McpRequestError, ServerUnavailable, TransportFailure } from "@mcpctl/core/Errors"

describe("exit codes (docs/CLI.md, Exit codes)", () => {
  const answered = (code: number) => new McpRequestError({ server: "pg", method: "tools/call", code, message: "pg: refused" })

  it("a server that answered with a JSON-RPC error is up: 2 when it blames the request, 1 otherwise, never 4", () => {
    expect(exitCodeOf(answered(-32602))).toBe(2) // invalid params (a missing argument)
    expect(exitCodeOf(answered(-32002))).toBe(2) // resource not found
    expect(exitCodeOf(answered(-32603))).toBe(1) // internal error (bad SQL)
    expect(exitCodeOf(answered(-32601))).toBe(1) // method not found
    expect(exitCodeOf(answered(-1))).toBe(1)
  })

  it("an answer mcpctl refused (too large, not matching the output schema) is the server's fault: 4", () => {
    const refused = new McpRequestError({ server: "h", method: "tools/call", code: -32602, message: "h: bad", refusedAnswer: true })
    expect(exitCodeOf(refused)).toBe(4)
  })

  it("a server that could not be used is 4", () => {
    expect(exitCodeOf(new ServerUnavailable({ server: "x", status: "failed", message: "down" }))).toBe(4)
    expect(exitCodeOf(new TransportFailure({ server: "x", message: "reset" }))).toBe(4)
  })
})
