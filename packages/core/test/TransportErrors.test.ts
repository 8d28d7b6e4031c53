import { Everything } from "@mcpctl/testing"
import { describe, expect, it } from "@effect/vitest"
import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError, UnauthorizedError } from "@modelcontextprotocol/client"
import * as Effect from "effect/Effect"
import { RequestTimeoutError } from "../src/internal/transport/Http.js"
import {
  isAuthError,
  isSessionExpired,
  isTerminalTransportError,
  shouldFallBackToSse,
  WebSocketHandshakeError
} from "../src/internal/transport/TransportErrors.js"
import { closeServer, connectError, listen } from "./support/remote.js"

const { freePort } = Everything

// ---------------------------------------------------------------------------------------------
// Real HTTP failures → predicates
// ---------------------------------------------------------------------------------------------

describe("predicates on real SDK errors", () => {
  it.effect("405 to POST → fall back to SSE", () =>
    Effect.gen(function*() {
      const { server, url } = yield* Effect.promise(() =>
        listen((_req, res) => {
          res.writeHead(405, { allow: "GET" })
          res.end("Method Not Allowed")
        })
      )
      yield* Effect.addFinalizer(() => Effect.promise(() => closeServer(server)))
      const error = yield* connectError({ url: `${url}/mcp` }, "http")
      expect(shouldFallBackToSse(error)).toBe(true)
      expect(isSessionExpired(error)).toBe(false)
    }).pipe(Effect.scoped))

  it.effect("401 → auth error, no fallback", () =>
    Effect.gen(function*() {
      const { server, url } = yield* Effect.promise(() =>
        listen((_req, res) => {
          res.writeHead(401)
          res.end()
        })
      )
      yield* Effect.addFinalizer(() => Effect.promise(() => closeServer(server)))
      const httpError = yield* connectError({ url: `${url}/mcp` }, "http")
      expect(isAuthError(httpError)).toBe(true)
      expect(shouldFallBackToSse(httpError)).toBe(false)
      const sseError = yield* connectError({ url: `${url}/sse` }, "sse")
      expect(isAuthError(sseError)).toBe(true)
      const wsError = yield* connectError({ url: url.replace("http", "ws") }, "ws")
      expect(wsError).toBeInstanceOf(WebSocketHandshakeError)
      expect(isAuthError(wsError)).toBe(true)
    }).pipe(Effect.scoped))

  it.effect("404 with JSON-RPC -32001 → session expired", () =>
    Effect.gen(function*() {
      const { server, url } = yield* Effect.promise(() =>
        listen((_req, res) => {
          res.writeHead(404, { "content-type": "application/json" })
          res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null }))
        })
      )
      yield* Effect.addFinalizer(() => Effect.promise(() => closeServer(server)))
      const error = yield* connectError({ url: `${url}/mcp` }, "http")
      expect(isSessionExpired(error)).toBe(true)
    }).pipe(Effect.scoped))

  it.effect("connection refused → terminal", () =>
    Effect.gen(function*() {
      const port = yield* Effect.promise(freePort)
      const error = yield* Effect.scoped(connectError({ url: `http://127.0.0.1:${port}/mcp` }, "http"))
      expect(isTerminalTransportError(error)).toBe(true)
      expect(shouldFallBackToSse(error)).toBe(false)
    }))
})

// ---------------------------------------------------------------------------------------------
// Pure predicates on constructed errors
// ---------------------------------------------------------------------------------------------

describe("isSessionExpired", () => {
  const body = JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null })
  it("404 with -32001 in the body", () => {
    expect(isSessionExpired(new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, `Error POSTing to endpoint: ${body}`, { status: 404, text: body }))).toBe(true)
  })
  it("404 without -32001 only when the request carried a session id", () => {
    const error = new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, "Error POSTing to endpoint: Not Found", { status: 404 })
    expect(isSessionExpired(error)).toBe(false)
    expect(isSessionExpired(error, { sessionId: "abc" })).toBe(true)
  })
  it("not for other statuses, nor for the SDK's own request timeout (McpError -32001)", () => {
    expect(isSessionExpired(new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, `Error POSTing to endpoint: ${body}`, { status: 400, text: body }))).toBe(false)
    expect(isSessionExpired(new ProtocolError(-32001, "Request timed out"))).toBe(false)
    expect(isSessionExpired(new Error("404 -32001"))).toBe(false)
    expect(isSessionExpired(undefined)).toBe(false)
  })
  it("the SessionExpired tagged error", () => {
    expect(isSessionExpired({ _tag: "SessionExpired", message: "x", server: "s" })).toBe(true)
  })
})

describe("isAuthError", () => {
  it("401 and UnauthorizedError", () => {
    expect(isAuthError(new UnauthorizedError())).toBe(true)
    expect(isAuthError(new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, "Error POSTing to endpoint: ", { status: 401 }))).toBe(true)
    expect(isAuthError(new WebSocketHandshakeError({ code: 401, message: "refused" }))).toBe(true)
    expect(isAuthError(new Error("Error POSTing to endpoint (HTTP 401): nope"))).toBe(true)
  })
  it("not other statuses or plain errors", () => {
    expect(isAuthError(new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, "forbidden", { status: 403 }))).toBe(false)
    expect(isAuthError(new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, "x", { status: 404 }))).toBe(false)
    expect(isAuthError(Object.assign(new Error("x"), { code: 401 }))).toBe(false)
    expect(isAuthError("401")).toBe(false)
  })
})

describe("isTerminalTransportError", () => {
  const sys = (code: string) => Object.assign(new Error(`read ${code}`), { code })
  it.each(["ECONNRESET", "ETIMEDOUT", "EPIPE", "ECONNREFUSED", "EHOSTUNREACH", "ENETUNREACH"])("%s", (code) => {
    expect(isTerminalTransportError(sys(code))).toBe(true)
  })
  it("undici shapes: fetch failed with a terminal cause, socket errors, terminated", () => {
    expect(isTerminalTransportError(new TypeError("fetch failed", { cause: sys("ECONNREFUSED") }))).toBe(true)
    expect(
      isTerminalTransportError(
        new TypeError("fetch failed", { cause: Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }) })
      )
    ).toBe(true)
    expect(isTerminalTransportError(new TypeError("terminated", { cause: sys("ECONNRESET") }))).toBe(true)
    expect(isTerminalTransportError(new TypeError("terminated"))).toBe(true)
    expect(isTerminalTransportError(new Error("socket hang up"))).toBe(true)
    expect(isTerminalTransportError(new AggregateError([sys("ECONNREFUSED")], "connect failed"))).toBe(true)
    expect(isTerminalTransportError(new RequestTimeoutError({ url: "http://x", timeoutMs: 1 }))).toBe(true)
  })
  it("not: fetch failed without such a cause, HTTP errors, protocol errors", () => {
    expect(isTerminalTransportError(new TypeError("fetch failed"))).toBe(false)
    expect(isTerminalTransportError(new TypeError("fetch failed", { cause: new Error("invalid url") }))).toBe(false)
    expect(isTerminalTransportError(new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, "boom", { status: 500 }))).toBe(false)
    expect(isTerminalTransportError(new ProtocolError(-32601, "Method not found"))).toBe(false)
    expect(isTerminalTransportError(null)).toBe(false)
  })
})

describe("shouldFallBackToSse", () => {
  it.each([400, 403, 404, 405, 406, 415])("%i → SSE", (code) => {
    expect(shouldFallBackToSse(new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, "x", { status: code }))).toBe(true)
  })
  it("not 401, 5xx, network errors or non-HTTP errors", () => {
    expect(shouldFallBackToSse(new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, "x", { status: 401 }))).toBe(false)
    expect(shouldFallBackToSse(new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, "x", { status: 500 }))).toBe(false)
    expect(shouldFallBackToSse(new SdkError(SdkErrorCode.ClientHttpUnexpectedContent, "Unexpected content type"))).toBe(false)
    expect(shouldFallBackToSse(new TypeError("fetch failed", { cause: Object.assign(new Error(), { code: "ECONNREFUSED" }) })))
      .toBe(false)
    expect(shouldFallBackToSse(Object.assign(new Error("x"), { code: 404 }))).toBe(false)
  })
})
