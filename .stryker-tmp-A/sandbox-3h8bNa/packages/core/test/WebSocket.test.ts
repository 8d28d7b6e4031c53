// @ts-nocheck
import { describe, expect, it } from "@effect/vitest"
import { JSONRPCMessageSchema } from "@modelcontextprotocol/core"
import { Server } from "@modelcontextprotocol/server"
import type { Transport as SdkTransport, JSONRPCMessage } from "@modelcontextprotocol/server"
import * as Effect from "effect/Effect"
import { once } from "node:events"
import type * as http from "node:http"
import type { AddressInfo } from "node:net"
import { WebSocketServer, type WebSocket } from "ws"
import { connect, textOf } from "./support/remote.js"

// ---------------------------------------------------------------------------------------------
// WebSocket
// ---------------------------------------------------------------------------------------------

/** Server side of MCP over one `ws` socket, enough to run an SDK `Server` in the test. */
class ServerSocketTransport implements SdkTransport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void
  constructor(private readonly socket: WebSocket) {}
  async start() {
    this.socket.on("message", (data) => this.onmessage?.(JSONRPCMessageSchema.parse(JSON.parse(data.toString()))))
    this.socket.on("close", () => this.onclose?.())
  }
  async send(message: JSONRPCMessage) {
    this.socket.send(JSON.stringify(message))
  }
  async close() {
    this.socket.close()
  }
}

const startWsServer = async () => {
  const seen: Array<{ headers: http.IncomingHttpHeaders; protocol: string }> = []
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0 })
  await once(wss, "listening")
  wss.on("connection", (socket, request) => {
    seen.push({ headers: request.headers, protocol: socket.protocol })
    const server = new Server({ name: "ws-echo", version: "0.0.0" }, { capabilities: { tools: {} } })
    server.setRequestHandler("tools/list", async () => ({
      tools: [{ name: "echo", description: "echo", inputSchema: { type: "object", properties: { message: { type: "string" } } } }]
    }))
    server.setRequestHandler("tools/call", async (request) => ({
      content: [{ type: "text", text: `Echo: ${String(request.params.arguments?.message)}` }]
    }))
    void server.connect(new ServerSocketTransport(socket))
  })
  return { wss, seen, url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/mcp` }
}

describe("WebSocket", () => {
  it.scoped("sends headers and the mcp subprotocol, lists tools, calls echo, closes", () =>
    Effect.gen(function*() {
      const { seen, url, wss } = yield* Effect.promise(startWsServer)
      yield* Effect.addFinalizer(() =>
        Effect.promise(() => {
          for (const client of wss.clients) client.terminate()
          return new Promise<void>((resolve) => wss.close(() => resolve()))
        })
      )
      const closed = yield* Effect.scoped(
        Effect.gen(function*() {
          const { client, opened } = yield* connect(
            { type: "ws", url, headers: { Authorization: "Bearer ws-token", "X-Ide": "yes" } },
            "ws"
          )
          const { tools } = yield* Effect.promise(() => client.listTools())
          expect(tools.map((t) => t.name)).toEqual(["echo"])
          const result = yield* Effect.promise(() => client.callTool({ name: "echo", arguments: { message: "hi ws" } }))
          expect(textOf(result)).toBe("Echo: hi ws")
          let onclose = false
          const previous = opened.transport.onclose
          opened.transport.onclose = () => {
            onclose = true
            previous?.()
          }
          return () => onclose
        })
      )
      expect(closed()).toBe(true)
      expect(seen).toHaveLength(1)
      expect(seen[0]!.headers.authorization).toBe("Bearer ws-token")
      expect(seen[0]!.headers["x-ide"]).toBe("yes")
      expect(seen[0]!.protocol).toBe("mcp")
    }))
})
