/**
 * What a failed request becomes, through the driver's API (`request`): one of three tagged
 * errors, with the fields the pool and the CLI read (`reason`, `mayHaveRun`, `code`,
 * `refusedAnswer`, `fromServer`) and a message that names the server. `isTerminal` is the pool's
 * question of the same error: does it count toward closing the connection? And what a failed
 * connect becomes (`classifyConnectError`, the handshake's). No server: the rejection is the
 * test's own.
 */
import { describe, expect, it } from "@effect/vitest"
import type { Client } from "@modelcontextprotocol/client"
import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError } from "@modelcontextprotocol/client"
import type { ResolvedServer, ServerConfig } from "@mcpctl/core/ServerConfig"
import { classifyConnectError, isTerminal } from "@mcpctl/core/internal/pool/RequestErrors"
import { request, type RequestOptions } from "@mcpctl/core/internal/pool/request"
import { MESSAGE_TOO_LARGE, MessageTooLargeError } from "@mcpctl/core/internal/transport/MessageSize"
import * as Effect from "effect/Effect"

const target = { server: { name: "alpha" }, client: {} as Client }

/** The error a request rejected with `cause` fails with. */
const failure = (method: string, cause: unknown, options?: RequestOptions) =>
  Effect.flip(request(target, method, () => Promise.reject(cause), options))

/** An error with a Node-style `code`, as sockets and undici throw them. */
const coded = (message: string, code: string, cause?: unknown) => Object.assign(new Error(message, { cause }), { code })

describe("request: the cause's text in the message", () => {
  it.effect("a rejected string, an object and an Error are each quoted after the server's name", () =>
    Effect.gen(function*() {
      expect((yield* failure("tools/list", "plain words")).message).toBe("alpha: plain words")
      expect((yield* failure("tools/list", { why: 1 })).message).toBe(`alpha: {"why":1}`)
      expect((yield* failure("tools/list", new Error("an error"))).message).toBe("alpha: an error")
    }))

  it.effect("a URL quoted in the cause has its secrets hidden", () =>
    Effect.gen(function*() {
      const error = yield* failure("tools/list", new Error("GET https://user:hunter2@example.com/mcp/abc failed"))
      expect(error.message).not.toContain("hunter2")
      expect(error.message).not.toContain("/mcp/abc")
      expect(error.message).toMatch(/^alpha: GET https:\/\/example\.com\/\S+ failed$/)
    }))
})

describe("request: a lost connection", () => {
  it.effect("a socket error under a bare 'fetch failed' is a broken connection with the socket's code", () =>
    Effect.gen(function*() {
      const cause = new TypeError("fetch failed", { cause: coded("read ECONNRESET", "ECONNRESET") })
      const error = yield* failure("tools/call", cause, { idempotent: true })
      expect(error).toMatchObject({ _tag: "TransportFailure", server: "alpha", code: "ECONNRESET", reason: "broken", mayHaveRun: true })
      expect(error.message).toBe(`Lost the connection to server "alpha" during tools/call: fetch failed. The call may have run on the server.`)
      expect(isTerminal(error)).toBe(true)
    }))

  it.effect("a code that names no broken connection is a transport failure that closes nothing", () =>
    Effect.gen(function*() {
      const error = yield* failure("tools/list", coded("odd", "EODD"))
      expect(error).toMatchObject({ _tag: "TransportFailure", code: "EODD", reason: "other", mayHaveRun: false })
      expect(isTerminal(error)).toBe(false)
    }))

  it.effect("a cause chain that loops and holds no code is a plain request failure (the walk ends)", () =>
    Effect.gen(function*() {
      const a = new Error("first") as Error & { cause?: unknown }
      const b = new Error("second", { cause: a })
      a.cause = b
      const error = yield* failure("tools/list", a)
      expect(error).toMatchObject({ _tag: "McpRequestError", code: -1, message: "alpha: first" })
      expect(isTerminal(error)).toBe(false)
    }))

  it.effect("a code found deeper in the chain is the failure's code", () =>
    Effect.gen(function*() {
      const error = yield* failure("tools/list", new Error("outer", { cause: { note: "no code here", cause: coded("inner", "EODD") } }))
      expect(error).toMatchObject({ _tag: "TransportFailure", code: "EODD" })
    }))

  it.effect("a list lost with its connection never 'may have run', and its message gives no advice", () =>
    Effect.gen(function*() {
      const error = yield* failure("tools/list", new SdkError(SdkErrorCode.ConnectionClosed, "Connection closed"))
      expect(error).toMatchObject({ _tag: "TransportFailure", code: "CONNECTION_CLOSED", reason: "closed", mayHaveRun: false })
      expect(error.message).toBe(`Lost the connection to server "alpha" during tools/list: Connection closed`)
      expect(isTerminal(error)).toBe(true)
    }))

  it.effect("a request that never left is not-sent and terminal, and a call that never left did not run", () =>
    Effect.gen(function*() {
      const error = yield* failure("tools/call", new SdkError(SdkErrorCode.NotConnected, "Not connected"), { idempotent: false })
      expect(error).toMatchObject({ _tag: "TransportFailure", code: "CONNECTION_CLOSED", reason: "not-sent", mayHaveRun: false })
      expect(error.message).toBe(`Lost the connection to server "alpha" during tools/call: Not connected`)
      expect(isTerminal(error)).toBe(true)
    }))

  it.effect("without options a tools/call is taken as not idempotent, anything else as idempotent", () =>
    Effect.gen(function*() {
      const closed = new SdkError(SdkErrorCode.ConnectionClosed, "Connection closed")
      expect((yield* failure("tools/call", closed)).message).toContain("it was not repeated because the tool is neither read-only nor idempotent")
    }))
})

describe("request: failures that keep the connection", () => {
  it.effect("the session the server forgot: a 404 with -32001, or a 400/404 that blames the session", () =>
    Effect.gen(function*() {
      // Built as SDK v2's Streamable HTTP send does: the body is in `data.text`.
      const specBody = `{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"Session not found"}}`
      const spec = new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, `Error POSTing to endpoint: ${specBody}`, { status: 404, text: specBody })
      const referenceBody = `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request: No valid session ID provided"}}`
      const reference = new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, `Error POSTing to endpoint: ${referenceBody}`, {
        status: 400,
        text: referenceBody
      })
      for (const cause of [spec, reference]) {
        const error = yield* failure("tools/call", cause)
        expect(error).toMatchObject({ _tag: "SessionExpired", server: "alpha", message: `The session with server "alpha" expired.` })
        expect(error.cause).toBe(cause)
        expect(isTerminal(error)).toBe(false)
      }
    }))

  it.effect("a 500 that names the session, and a 400 that does not, are no expired session", () =>
    Effect.gen(function*() {
      const server = new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, "Error POSTing: session store down", { status: 500 })
      const bad = new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, "Error POSTing: Bad Request", { status: 400 })
      expect((yield* failure("tools/call", server))._tag).toBe("McpRequestError")
      expect((yield* failure("tools/call", bad))._tag).toBe("McpRequestError")
    }))

  it.effect("the server's refusal of the protocol version names what it supports and the other era", () =>
    Effect.gen(function*() {
      const modern = yield* failure("tools/list", new ProtocolError(-32022, "Unsupported protocol version", { supported: ["2025-06-18", "2026-07-28", 7] }))
      expect(modern).toMatchObject({ _tag: "McpRequestError", code: -32022 })
      expect(modern.message).toBe(
        `Server "alpha" does not speak the protocol version mcpctl asked for: Unsupported protocol version. ` +
          `It supports 2025-06-18, 2026-07-28. Connect in the other era with \`--protocol modern\`, or set "protocol": "modern" in its settings.`
      )
      const legacy = yield* failure("tools/list", new ProtocolError(-32022, "Unsupported protocol version", { supported: ["2025-06-18"] }))
      expect(legacy.message).toContain("It supports 2025-06-18. Connect in the other era with `--protocol legacy`")
      const silent = yield* failure("tools/list", new ProtocolError(-32022, "Unsupported protocol version", { supported: [] }))
      expect(silent.message).toBe(
        `Server "alpha" does not speak the protocol version mcpctl asked for: Unsupported protocol version. ` +
          `Connect in the other era with \`--protocol legacy\`, or set "protocol": "legacy" in its settings.`
      )
      const negotiation = yield* failure("tools/list", new SdkError(SdkErrorCode.EraNegotiationFailed, "no common revision"))
      expect(negotiation).toMatchObject({ _tag: "McpRequestError", code: -32022 })
    }))

  it.effect("an answer the SDK refused against the tool's output schema is mcpctl's refusal, not the server's error", () =>
    Effect.gen(function*() {
      const mismatch = yield* failure("tools/call", new ProtocolError(-32602, "Structured content does not match the tool's output schema: x"))
      expect(mismatch).toMatchObject({ _tag: "McpRequestError", code: -32602, refusedAnswer: true })
      expect(mismatch).not.toHaveProperty("fromServer")
      const missing = yield* failure("tools/call", new ProtocolError(-32600, "Tool t has an output schema but did not return structured content"))
      expect(missing).toMatchObject({ refusedAnswer: true })
      const own = yield* failure("tools/call", new ProtocolError(-32603, "internal"))
      expect(own).toMatchObject({ fromServer: true })
      expect(own).not.toHaveProperty("refusedAnswer")
      expect(own).not.toHaveProperty("data")
    }))

  it.effect("an answer over the size limit is refused with its size; the connection stays", () =>
    Effect.gen(function*() {
      const cause = new MessageTooLargeError({ server: "alpha", size: 40_000_000, limit: 1_048_576, complete: false })
      const error = yield* failure("tools/call", cause)
      expect(error).toMatchObject({ _tag: "McpRequestError", code: MESSAGE_TOO_LARGE, refusedAnswer: true, message: `alpha: ${cause.message}` })
      expect(error.cause).toBe(cause)
      expect(isTerminal(error)).toBe(false)
    }))

  it.effect("the SDK's own timeout keeps -32001; a round limit without a tool names the method", () =>
    Effect.gen(function*() {
      const timeout = yield* failure("tools/list", new SdkError(SdkErrorCode.RequestTimeout, "Request timed out"))
      expect(timeout).toMatchObject({ _tag: "McpRequestError", code: -32001, message: "alpha: Request timed out" })
      const rounds = yield* failure("tools/call", new SdkError(SdkErrorCode.InputRequiredRoundsExceeded, "10 rounds"))
      expect(rounds).toMatchObject({ _tag: "McpRequestError", code: -1 })
      expect(rounds.message).toBe(
        `Server "alpha" kept asking for input: tools/call answered input_required more times than allowed (10 rounds). ` +
          `The server may be looping; report it to its authors.`
      )
    }))
})

const stdio: ResolvedServer = {
  name: "alpha",
  originalName: "alpha",
  scope: "flag",
  source: "/test/settings.json",
  transport: "stdio",
  config: { command: "run-alpha" } as ServerConfig
}
const http: ResolvedServer = {
  ...stdio,
  transport: "http",
  config: { url: "https://example.com/mcp?token=s3cr3t" } as ServerConfig
}
const httpError = (status: number, message = "Error POSTing to endpoint") =>
  new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, message, { status })

describe("classifyConnectError: a failed connect", () => {
  it("names the command and the server's last output, trailing blank lines cut", () => {
    const { error, fallback } = classifyConnectError(stdio, { cause: new Error("spawn run-alpha ENOENT"), diagnostics: "oops\nbye\n\n" })
    expect(fallback).toBe(false)
    expect(error).toMatchObject({ _tag: "ServerUnavailable", server: "alpha", status: "failed" })
    expect(error.message).toBe(`Server "alpha" (run-alpha) failed to connect: spawn run-alpha ENOENT\n--- last output of the server ---\noops\nbye`)
    expect(classifyConnectError(stdio, { cause: new Error("gone"), diagnostics: undefined }).error.message)
      .toBe(`Server "alpha" (run-alpha) failed to connect: gone`)
    expect(classifyConnectError(stdio, { cause: new Error("gone"), diagnostics: "" }).error.message)
      .toBe(`Server "alpha" (run-alpha) failed to connect: gone`)
  })

  it("a 401 is needs-auth with the command that signs in, and no fallback", () => {
    const { error, fallback } = classifyConnectError(http, { cause: httpError(401), diagnostics: undefined })
    expect(fallback).toBe(false)
    expect(error).toMatchObject({ status: "needs-auth", message: `Server "alpha" needs authorization. Run \`mcpctl auth alpha\` to sign in.` })
  })

  it("a 4xx other than 401 falls back to SSE, a 5xx does not; the URL's secret is never shown", () => {
    const notHere = classifyConnectError(http, { cause: httpError(404), diagnostics: undefined })
    expect(notHere.fallback).toBe(true)
    expect(notHere.error.status).toBe("failed")
    expect(notHere.error.message).toMatch(/^Server "alpha" \(https:\/\/example\.com\/mcp\?token=\S+\) failed to connect: Error POSTing to endpoint$/)
    expect(notHere.error.message).not.toContain("s3cr3t")
    expect(classifyConnectError(http, { cause: httpError(503), diagnostics: undefined }).fallback).toBe(false)
  })

  it("a refused connection is said in words, naming the host", () => {
    const cause = new TypeError("fetch failed", { cause: coded("connect ECONNREFUSED", "ECONNREFUSED") })
    const { error } = classifyConnectError(http, { cause, diagnostics: undefined })
    expect(error.message).toContain("failed to connect: nothing accepts connections at example.com (connection refused)")
  })

  it("a version refusal says what to pass instead of the --protocol given", () => {
    const cause = new ProtocolError(-32022, "Unsupported protocol version", { supported: ["2026-07-28"] })
    const pinned = classifyConnectError(stdio, { cause, diagnostics: "ignored" }, "modern")
    expect(pinned.fallback).toBe(false)
    expect(pinned.error.status).toBe("failed")
    expect(pinned.error.message).toBe(
      `Server "alpha" does not speak the protocol version mcpctl asked for (--protocol modern): Unsupported protocol version. ` +
        `It supports 2026-07-28. Connect in the other era with \`--protocol legacy\`, or set "protocol": "legacy" in its settings.`
    )
    const legacy = classifyConnectError(stdio, { cause: new ProtocolError(-32022, "no"), diagnostics: undefined }, "legacy")
    expect(legacy.error.message).toContain("(--protocol legacy): no. Connect in the other era with `--protocol modern`")
    const auto = classifyConnectError(stdio, { cause: new ProtocolError(-32022, "no"), diagnostics: undefined }, "auto")
    expect(auto.error.message).toBe(
      `Server "alpha" does not speak the protocol version mcpctl asked for: no. ` +
        `Connect in the other era with \`--protocol legacy\`, or set "protocol": "legacy" in its settings.`
    )
  })
})
