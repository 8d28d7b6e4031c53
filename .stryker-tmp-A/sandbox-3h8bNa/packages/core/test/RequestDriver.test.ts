/**
 * The request driver (internal/pool/request.ts), the pool's one Promise boundary, directly: a
 * settled Promise becomes a success or a classified `RequestError` (with its cause), a throw
 * before the Promise exists too, and interruption aborts the signal the SDK watches. No server:
 * `send` is the test's own function.
 */
// @ts-nocheck

import { describe, expect, it } from "@effect/vitest"
import type { Client } from "@modelcontextprotocol/client"
import { ProtocolError, SdkError, SdkErrorCode } from "@modelcontextprotocol/client"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import { request } from "../src/internal/pool/request.js"

const target = { server: { name: "alpha" }, client: {} as Client }

describe("request (the driver)", () => {
  it.effect("succeeds with the Promise's value, handing send the connection's client and a live signal", () =>
    Effect.gen(function*() {
      let seen: { client: unknown; aborted: boolean } | undefined
      const value = yield* request(target, "tools/list", (client, signal) => {
        seen = { client, aborted: signal.aborted }
        return Promise.resolve(42)
      })
      expect(value).toBe(42)
      expect(seen).toEqual({ client: target.client, aborted: false })
    }))

  it.effect("a rejection is classified once: a closed connection is a TransportFailure with its cause and reason", () =>
    Effect.gen(function*() {
      const cause = new SdkError(SdkErrorCode.ConnectionClosed, "Connection closed")
      const error = yield* Effect.flip(request(target, "tools/call", () => Promise.reject(cause), { idempotent: false }))
      expect(error).toMatchObject({ _tag: "TransportFailure", server: "alpha", code: "CONNECTION_CLOSED", reason: "closed", mayHaveRun: true })
      expect(error.cause).toBe(cause)
      expect(error.message).toContain("it was not repeated because the tool is neither read-only nor idempotent")
    }))

  it.effect("an idempotent call's message says only that it may have run", () =>
    Effect.gen(function*() {
      const cause = new SdkError(SdkErrorCode.ConnectionClosed, "Connection closed")
      const error = yield* Effect.flip(request(target, "tools/call", () => Promise.reject(cause), { idempotent: true }))
      expect(error.message).toMatch(/The call may have run on the server\.$/)
    }))

  it.effect("a request that never left the process is not-sent, and a list never 'may have run'", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(request(target, "tools/list", () => Promise.reject(new SdkError(SdkErrorCode.NotConnected, "Not connected"))))
      expect(error).toMatchObject({ _tag: "TransportFailure", reason: "not-sent", mayHaveRun: false })
    }))

  it.effect("a server's JSON-RPC error is an McpRequestError from the server, with its code and data", () =>
    Effect.gen(function*() {
      const cause = new ProtocolError(-32602, "bad params", { field: "x" })
      const error = yield* Effect.flip(request(target, "tools/call", () => Promise.reject(cause)))
      expect(error).toMatchObject({ _tag: "McpRequestError", method: "tools/call", code: -32602, fromServer: true, data: { field: "x" } })
      expect(error.cause).toBe(cause)
    }))

  it.effect("a round-limit failure names the tool given in the options", () =>
    Effect.gen(function*() {
      const cause = new SdkError(SdkErrorCode.InputRequiredRoundsExceeded, "too many rounds")
      const error = yield* Effect.flip(request(target, "tools/call", () => Promise.reject(cause), { tool: "book" }))
      expect(error.message).toContain(`tool "book" answered input_required more times than allowed (too many rounds)`)
    }))

  it.effect("a throw before any Promise exists is classified the same way", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(request(target, "resources/read", () => {
        throw new Error("boom")
      }))
      expect(error).toMatchObject({ _tag: "McpRequestError", code: -1, message: "alpha: boom" })
    }))

  it.effect("interruption aborts the signal the SDK watches, once, and ends the effect at once", () =>
    Effect.gen(function*() {
      let signal: AbortSignal | undefined
      let aborts = 0
      const fiber = yield* Effect.fork(request(target, "tools/call", (_, s) => {
        signal = s
        s.addEventListener("abort", () => aborts++)
        return new Promise<never>(() => {})
      }))
      yield* Effect.yieldNow()
      expect(signal?.aborted).toBe(false)
      const exit = yield* Fiber.interrupt(fiber)
      expect(Exit.isInterrupted(exit)).toBe(true)
      expect(signal?.aborted).toBe(true)
      expect(aborts).toBe(1)
    }))

  it.effect("a caller's signal aborts the request too; the SDK's rejection then fails it", () =>
    Effect.gen(function*() {
      const caller = new AbortController()
      const fiber = yield* Effect.fork(Effect.flip(request(target, "tools/call", (_, s) =>
        new Promise<never>((_, reject) => s.addEventListener("abort", () => reject(new SdkError(SdkErrorCode.RequestTimeout, "cancelled")))), { signal: caller.signal })))
      yield* Effect.yieldNow()
      caller.abort()
      const error = yield* Fiber.join(fiber)
      expect(error).toMatchObject({ _tag: "McpRequestError", code: -32001 })
    }))
})
