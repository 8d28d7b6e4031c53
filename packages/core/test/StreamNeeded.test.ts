/** Which 2025 session POSTs serve answers on an event stream, and which as plain JSON (gatewayHttp.ts). */
import { describe, expect, it } from "@effect/vitest"
import { streamNeeded } from "../src/internal/gatewayHttp.js"

const call = (meta?: object) => ({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t", arguments: {}, ...(meta ? { _meta: meta } : {}) } })

describe("streamNeeded", () => {
  it("answers a plain request as JSON; progress, a batch, a notification or a session that streams keep the stream", () => {
    const plain = { streams: false }
    expect(streamNeeded(plain, call())).toBe(false)
    expect(streamNeeded(plain, { jsonrpc: "2.0", id: 2, method: "tools/list" })).toBe(false)
    expect(streamNeeded(plain, call({ progressToken: 7 }))).toBe(true)
    expect(streamNeeded(plain, [call()])).toBe(true)
    expect(streamNeeded(plain, { jsonrpc: "2.0", method: "notifications/cancelled", params: {} })).toBe(true)
    expect(streamNeeded({ streams: true }, call())).toBe(true)
  })

  it("leaves what the session's own gateway keeps to it: its log level and its subscriptions", () => {
    for (const method of ["logging/setLevel", "resources/subscribe", "resources/unsubscribe"]) {
      expect(streamNeeded({ streams: false }, { jsonrpc: "2.0", id: 3, method, params: {} }), method).toBe(true)
    }
  })
})
