// Which 2025-era POSTs serve answers as plain JSON from a server of their own (plainAnswer.ts).
import { describe, expect, it } from "@effect/vitest"
import { answersPlainly, asksForLogs, asksMidCall, cancelledRequest } from "@mcpctl/core/internal/gateway/plainAnswer"

const request = (method: string, params: object = {}) => ({ jsonrpc: "2.0", id: 1, method, params })

describe("plain answers", () => {
  it("one request of a session-free method without a progress token, nothing else", () => {
    expect(answersPlainly(request("tools/call", { name: "x" }))).toBe(true)
    expect(answersPlainly(request("resources/read", { uri: "a://b" }))).toBe(true)
    expect(answersPlainly(request("tools/call", { name: "x", _meta: { progressToken: 1 } }))).toBe(false)
    expect(answersPlainly([request("tools/call")])).toBe(false)
    for (const method of ["initialize", "logging/setLevel", "resources/subscribe", "tasks/get"]) expect(answersPlainly(request(method))).toBe(false)
    expect(answersPlainly({ jsonrpc: "2.0", method: "tools/call" })).toBe(false)
    expect(answersPlainly({ jsonrpc: "2.0", id: 1, result: {} })).toBe(false)
    expect(answersPlainly(null)).toBe(false)
  })

  it("a client that can be asked mid-call, or asked for logs, keeps its stream", () => {
    expect(asksMidCall(request("initialize", { capabilities: {} }))).toBe(false)
    expect(asksMidCall(request("initialize", { capabilities: { elicitation: {} } }))).toBe(true)
    expect(asksMidCall(request("initialize", { capabilities: { sampling: {} } }))).toBe(true)
    expect(asksMidCall(request("initialize", { capabilities: { roots: { listChanged: true } } }))).toBe(true)
    expect(asksForLogs(request("logging/setLevel", { level: "info" }))).toBe(true)
    expect(asksForLogs([request("ping"), request("logging/setLevel")])).toBe(true)
    expect(asksForLogs(request("ping"))).toBe(false)
  })

  it("a cancellation names its request", () => {
    expect(cancelledRequest({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7 } })).toBe(7)
    expect(cancelledRequest({ jsonrpc: "2.0", method: "notifications/progress", params: { requestId: 7 } })).toBeUndefined()
  })
})
