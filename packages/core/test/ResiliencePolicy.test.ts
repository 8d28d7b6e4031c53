/**
 * The pool's recovery policy (pool/Resilience.ts) as the pure functions it is: every verdict of
 * `afterRequest` per transport kind, the whole `mayResend` table, and the guard that turns a
 * malformed answer into an error for its own request. The same rules through the pool, over
 * fault-injecting transports, are in Resilience.test.ts.
 */
import { describe, expect, it } from "@effect/vitest"
import type { Transport as SdkTransport, JSONRPCMessage } from "@modelcontextprotocol/server"
import { McpRequestError, SessionExpired, TransportFailure } from "../src/Errors.js"
import type { RequestError } from "../src/internal/pool/RequestErrors.js"
import { afterRequest, answerInvalidResponses, DEGRADED_AFTER, mayResend, type Outcome } from "../src/internal/pool/Resilience.js"
import type { ConcreteKind } from "../src/internal/transport/OpenedTransport.js"

const reset = new TransportFailure({ message: "read ECONNRESET", server: "s", code: "ECONNRESET" })
const closed = new TransportFailure({ message: "Connection closed", server: "s", code: "CONNECTION_CLOSED", mayHaveRun: true })
const notSent = new TransportFailure({ message: "Not connected", server: "s", code: "CONNECTION_CLOSED", mayHaveRun: false })
const expired = new SessionExpired({ message: "Session not found", server: "s" })
const rpc = new McpRequestError({ message: "bad params", server: "s", method: "tools/call", code: -32602 })

const failed = (error: RequestError, terminal: boolean): Outcome => ({ _tag: "Failed", error, terminal })

const streams: ReadonlyArray<ConcreteKind> = ["stdio", "ws"]
const requestResponse: ReadonlyArray<ConcreteKind> = ["http", "sse"]

describe("afterRequest", () => {
  it("three terminal errors in a row, not fewer, drop a request/response connection", () => {
    expect(DEGRADED_AFTER).toBe(3)
    for (const kind of requestResponse) {
      expect(afterRequest(kind, 0, failed(reset, true))).toEqual({ failures: 1, drop: false })
      expect(afterRequest(kind, 1, failed(reset, true))).toEqual({ failures: 2, drop: false })
      expect(afterRequest(kind, 2, failed(reset, true))).toEqual({ failures: 3, drop: true })
      expect(afterRequest(kind, 5, failed(reset, true))).toEqual({ failures: 6, drop: true })
    }
  })

  it("one terminal error drops a stream (stdio, WebSocket)", () => {
    for (const kind of streams) {
      expect(afterRequest(kind, 0, failed(reset, true))).toEqual({ failures: 1, drop: true })
    }
  })

  it("an answer, even a JSON-RPC error, resets the count and keeps the connection", () => {
    for (const kind of [...streams, ...requestResponse]) {
      expect(afterRequest(kind, 2, { _tag: "Answered" })).toEqual({ failures: 0, drop: false })
      expect(afterRequest(kind, 2, failed(rpc, false))).toEqual({ failures: 0, drop: false })
      // Even when the cause looked like a broken connection: the server did answer.
      expect(afterRequest(kind, 2, failed(rpc, true))).toEqual({ failures: 0, drop: false })
      expect(afterRequest(kind, 2, failed(new McpRequestError({ message: "Connection closed", server: "s", method: "tools/call", code: -32000 }), true))).toEqual({ failures: 0, drop: false })
    }
  })

  it("a transport failure that is not terminal is not counted", () => {
    for (const kind of [...streams, ...requestResponse]) {
      expect(afterRequest(kind, 2, failed(reset, false))).toEqual({ failures: 0, drop: false })
    }
  })

  it("an expired session is dropped at once, keeping the count", () => {
    for (const kind of [...streams, ...requestResponse]) {
      expect(afterRequest(kind, 0, failed(expired, false))).toEqual({ failures: 0, drop: true })
      expect(afterRequest(kind, 2, failed(expired, true))).toEqual({ failures: 2, drop: true })
    }
  })

  it("a closed connection is dropped at once and counted, terminal or not", () => {
    for (const kind of requestResponse) {
      expect(afterRequest(kind, 0, failed(closed, false))).toEqual({ failures: 1, drop: true })
      expect(afterRequest(kind, 1, failed(notSent, true))).toEqual({ failures: 2, drop: true })
    }
  })
})

describe("mayResend", () => {
  it("an expired session never ran the request: always resent", () => {
    for (const idempotent of [true, false]) {
      for (const dropped of [true, false]) expect(mayResend(expired, { idempotent, dropped })).toBe(true)
    }
  })

  it("a request lost with its dropped connection is resent only when idempotent or never sent", () => {
    expect(mayResend(closed, { idempotent: true, dropped: true })).toBe(true)
    expect(mayResend(closed, { idempotent: false, dropped: true })).toBe(false)
    expect(mayResend(notSent, { idempotent: false, dropped: true })).toBe(true)
    expect(mayResend(reset, { idempotent: false, dropped: true })).toBe(false)
    expect(mayResend(reset, { idempotent: true, dropped: true })).toBe(true)
  })

  it("nothing is resent on a connection that stays", () => {
    for (const error of [closed, notSent, reset]) {
      for (const idempotent of [true, false]) expect(mayResend(error, { idempotent, dropped: false })).toBe(false)
    }
  })

  it("a server's JSON-RPC error is its answer: never resent", () => {
    for (const idempotent of [true, false]) {
      for (const dropped of [true, false]) expect(mayResend(rpc, { idempotent, dropped })).toBe(false)
    }
  })
})

/** A transport whose `onmessage` records what the client would receive, and `onerror` what it would be told. */
const guarded = (server = "srv") => {
  const delivered: Array<unknown> = []
  const errors: Array<string> = []
  let received = 0
  const transport = {
    onmessage: (message: JSONRPCMessage) => void delivered.push(message),
    onerror: (error: Error) => void errors.push(error.message)
  } as unknown as SdkTransport
  answerInvalidResponses(transport, server, () => received++)
  const send = (message: unknown) => transport.onmessage!(message as JSONRPCMessage)
  return { delivered, errors, send, received: () => received, transport }
}

describe("answerInvalidResponses", () => {
  it("delivers results, errors, requests and notifications unchanged but for a missing resultType read as complete", () => {
    const g = guarded()
    const messages = [
      { jsonrpc: "2.0", id: 1, result: {} },
      { jsonrpc: "2.0", id: "a", result: { tools: [], _meta: { progressToken: 1 } } },
      { jsonrpc: "2.0", id: 2, error: { code: -32602, message: "bad" } },
      { jsonrpc: "2.0", id: 3, method: "sampling/createMessage", params: {} },
      { jsonrpc: "2.0", method: "notifications/tools/list_changed" }
    ]
    for (const m of messages) g.send(structuredClone(m))
    expect(g.delivered).toEqual([
      { jsonrpc: "2.0", id: 1, result: { resultType: "complete" } },
      { jsonrpc: "2.0", id: "a", result: { tools: [], _meta: { progressToken: 1 }, resultType: "complete" } },
      ...messages.slice(2)
    ])
    expect(g.errors).toEqual([])
    expect(g.received()).toBe(messages.length)
  })

  it("on a legacy connection passes results on without resultType (the legacy decoder would copy each to strip it)", () => {
    const delivered: Array<unknown> = []
    const transport = { onmessage: (m: unknown) => void delivered.push(m) } as unknown as SdkTransport
    answerInvalidResponses(transport, "s", undefined, undefined, undefined, "legacy")
    const sent = { jsonrpc: "2.0" as const, id: 1, result: { content: [] } }
    transport.onmessage!(sent)
    expect(delivered).toEqual([{ jsonrpc: "2.0", id: 1, result: { content: [] } }])
    expect(delivered[0]).toBe(sent)
    // The malformed-answer check is the same in both eras.
    transport.onmessage!({ jsonrpc: "2.0", id: 2, result: "not a result object" } as unknown as JSONRPCMessage)
    expect(delivered[1]).toMatchObject({ id: 2, error: { code: -32603 } })
  })

  it("turns a malformed answer with an id into an InternalError for that id, naming the server", () => {
    const g = guarded("weird")
    const bad = [
      { jsonrpc: "2.0", id: 7, result: "this is not a result object" },
      { jsonrpc: "2.0", id: "x", result: null },
      { jsonrpc: "2.0", id: 8, result: [1, 2] },
      { jsonrpc: "2.0", id: 9, result: { _meta: 5 } },
      { jsonrpc: "2.0", id: 10, result: { _meta: null } },
      { jsonrpc: "1.0", id: 11, result: {} },
      { jsonrpc: "2.0", id: 12, result: {}, error: { code: 1, message: "both" } }
    ]
    for (const m of bad) g.send(m)
    expect(g.errors).toEqual([])
    expect(g.delivered).toHaveLength(bad.length)
    for (const [i, m] of bad.entries()) {
      const out = g.delivered[i] as { jsonrpc: string; id: unknown; error: { code: number; message: string } }
      expect(out.jsonrpc).toBe("2.0")
      expect(out.id).toBe(m.id)
      expect(out.error.code).toBe(-32603)
      expect(out.error.message).toBe(`server "weird" answered with invalid JSON-RPC: ${JSON.stringify(m)}`)
    }
  })

  it("quotes at most 200 characters of a long malformed answer", () => {
    const g = guarded()
    const m = { jsonrpc: "2.0", id: 1, result: "x".repeat(500) }
    g.send(m)
    const message = (g.delivered[0] as { error: { message: string } }).error.message
    const quoted = message.slice(message.indexOf(": ") + 2)
    expect(quoted).toBe(JSON.stringify(m).slice(0, 200) + "…")
    const short = { jsonrpc: "2.0", id: 1, result: "y".repeat(200 - 36) }
    expect(JSON.stringify(short)).toHaveLength(200)
    g.send(short)
    expect((g.delivered[1] as { error: { message: string } }).error.message.endsWith(`${JSON.stringify(short)}`)).toBe(true)
  })

  it("reports what it cannot answer (no id, a null id, or a malformed request) to onerror and delivers nothing", () => {
    const g = guarded("srv")
    const unanswerable = [
      { jsonrpc: "2.0", result: {} },
      { jsonrpc: "2.0", id: null, result: {} },
      { jsonrpc: "2.0", id: { nested: 1 }, result: {} },
      { jsonrpc: "2.0", id: 4, method: "tools/list", result: {} },
      { jsonrpc: "2.0", id: 5, method: 42 }
    ]
    for (const m of unanswerable) g.send(m)
    expect(g.delivered).toEqual([])
    expect(g.errors).toEqual(
      unanswerable.map((m) => `server "srv" sent invalid JSON-RPC, ignored: ${JSON.stringify(m)}`)
    )
    expect(g.received()).toBe(unanswerable.length)
  })

  it("without an onerror handler, what it cannot answer is dropped quietly", () => {
    const delivered: Array<unknown> = []
    const transport = { onmessage: (m: unknown) => void delivered.push(m) } as unknown as SdkTransport
    answerInvalidResponses(transport, "s")
    expect(() => transport.onmessage!({ jsonrpc: "2.0", result: {} } as unknown as JSONRPCMessage)).not.toThrow()
    expect(delivered).toEqual([])
  })

  it("leaves a transport without a message handler alone", () => {
    const transport = {} as SdkTransport
    answerInvalidResponses(transport, "s")
    expect(transport.onmessage).toBeUndefined()
  })

  it("works without a receive hook", () => {
    const delivered: Array<unknown> = []
    const transport = { onmessage: (m: unknown) => void delivered.push(m) } as unknown as SdkTransport
    answerInvalidResponses(transport, "s")
    const sent = { jsonrpc: "2.0" as const, id: 1, result: {} }
    transport.onmessage!(sent)
    expect(delivered).toEqual([{ jsonrpc: "2.0", id: 1, result: { resultType: "complete" } }])
    expect(delivered[0]).toBe(sent)
  })
})
