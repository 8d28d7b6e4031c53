// @ts-nocheck
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import type { RemoteServerConfig } from "../src/config/ServerConfig.js"
import { Transport } from "../src/transport/Transport.js"
import { WebSocketTransport } from "../src/internal/transport/WebSocket.js"
import { resolved } from "./support/remote.js"

describe("Transport.layer", () => {
  it.scoped("dispatches remote kinds to openRemote and refuses a kind the entry cannot be", () =>
    Effect.gen(function*() {
      const transport = yield* Transport
      const config: RemoteServerConfig = { type: "ws", url: "ws://127.0.0.1:9/mcp" }
      const opened = yield* transport.open(resolved(config), "ws")
      expect(opened.kind).toBe("ws")
      expect(opened.transport).toBeInstanceOf(WebSocketTransport)
      const error = yield* Effect.flip(transport.open(resolved(config), "stdio"))
      expect(error._tag).toBe("ServerUnavailable")
      expect(error.message).toContain('no "command"')
      const bad = yield* Effect.flip(transport.open(resolved({ url: "not a url" }), "http"))
      // A URL that does not parse is not quoted (a spliced-in secret could be anywhere in it).
      expect(bad.message).toContain("Invalid URL")
      expect(bad.message).not.toContain("not a url")
    }).pipe(Effect.provide(Transport.layer)))
})
