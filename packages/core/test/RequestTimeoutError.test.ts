/**
 * `RequestTimeoutError` (internal/transport/Http.ts): what `fetchWithTimeout` aborts a request
 * with when its headers do not arrive in time. A tagged error recognised by its tag, never by
 * its text; counted as a broken connection by its `ETIMEDOUT` code. In process: the `fetch`
 * under `fetchWithTimeout` is the test's own.
 */
import { describe, expect, it } from "@effect/vitest"
import type { FetchLike } from "@modelcontextprotocol/client"
import * as Effect from "effect/Effect"
import { classifyRequestFailure } from "../src/internal/pool/RequestErrors.js"
import { fetchWithTimeout, isRequestTimeout, RequestTimeoutError } from "../src/internal/transport/Http.js"
import { isTerminalTransportError } from "../src/internal/transport/TransportErrors.js"

/** A `fetch` that never answers and rejects with its signal's reason when aborted, as `fetch` does. */
const hanging: FetchLike = (_input, init) =>
  new Promise((_resolve, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal!.reason), { once: true }))

describe("RequestTimeoutError", () => {
  it("is a tagged error with its url and wait, and the message it always had", () => {
    const error = new RequestTimeoutError({ url: "http://127.0.0.1:9/mcp", timeoutMs: 250 })
    expect(error).toBeInstanceOf(Error)
    expect(error).toMatchObject({ _tag: "RequestTimeoutError", url: "http://127.0.0.1:9/mcp", timeoutMs: 250, code: "ETIMEDOUT" })
    expect(error.message).toBe("No response headers from http://127.0.0.1:9/mcp within 250 ms")
  })

  it("is recognised by its tag, also as another copy's; not by a message that reads the same", () => {
    const error = new RequestTimeoutError({ url: "http://x", timeoutMs: 1 })
    expect(isRequestTimeout(error)).toBe(true)
    expect(isRequestTimeout({ _tag: "RequestTimeoutError", url: "http://x", timeoutMs: 1 })).toBe(true)
    expect(isRequestTimeout(new Error(error.message))).toBe(false)
    expect(isRequestTimeout(undefined)).toBe(false)
    expect(isRequestTimeout("RequestTimeoutError")).toBe(false)
  })

  it("counts as a broken connection, also as the cause of undici's fetch failed", () => {
    const error = new RequestTimeoutError({ url: "http://x", timeoutMs: 1 })
    expect(isTerminalTransportError(error)).toBe(true)
    expect(isTerminalTransportError(new TypeError("fetch failed", { cause: error }))).toBe(true)
    expect(classifyRequestFailure("s", "tools/list", error)).toMatchObject({
      terminal: true,
      error: { _tag: "TransportFailure", reason: "broken", code: "ETIMEDOUT", cause: error }
    })
  })

  it.effect("is what fetchWithTimeout aborts a request with whose headers do not come in time", () =>
    Effect.gen(function*() {
      const url = new URL("http://127.0.0.1:9/mcp")
      const error = yield* Effect.promise(() => fetchWithTimeout(10, hanging)(url).then(() => undefined, (e: unknown) => e))
      expect(isRequestTimeout(error)).toBe(true)
      expect(error).toMatchObject({ url: url.href, timeoutMs: 10 })
    }))
})
