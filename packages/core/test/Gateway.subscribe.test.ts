/**
 * `resources/updated` from a 2026-07-28 server through serve: such a server has no
 * `resources/subscribe`, its updates come on a `subscriptions/listen` stream naming the URI
 * (internal/gateway/UpstreamListen.ts). A 2025-era client subscribed through serve hears them;
 * the stream upstream is held while anyone is subscribed, and closed after.
 */
import { describe, expect, it } from "@effect/vitest"
import { Gateway } from "@mcpctl/core/Gateway"
import * as Host from "@mcpctl/core/Host"
import { ConnectionPool } from "@mcpctl/core/ConnectionPool"
import { Transport } from "@mcpctl/core/Transport"
import { config, server } from "@mcpctl/testing/Fixtures"
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client"
import { toNodeHandler } from "@modelcontextprotocol/node"
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Queue from "effect/Queue"
import { mkdtempSync } from "node:fs"
import * as http from "node:http"
import { tmpdir } from "node:os"
import * as path from "node:path"

const DOC = "test://doc"

/**
 * A real SDK v2 server over HTTP on 127.0.0.1 (2026-07-28 and 2025 stateless), with the resource
 * `test://doc`, resource subscriptions, and `touch`, which publishes that the resource changed.
 * `listening()`: how many of its `subscriptions/listen` streams are open.
 */
const upstream = Effect.acquireRelease(
  Effect.async<{ url: string; handler: ReturnType<typeof createMcpHandler>; listener: http.Server }>((resume) => {
    const handler: ReturnType<typeof createMcpHandler> = createMcpHandler(() => {
      const s = new McpServer({ name: "up", version: "1" }, { capabilities: { resources: { subscribe: true } } })
      s.registerResource("doc", DOC, { mimeType: "text/plain" }, async (uri) => ({ contents: [{ uri: uri.href, text: "v" }] }))
      s.registerTool("touch", { description: "says test://doc changed" }, async () => {
        handler.notify.resourceUpdated(DOC)
        return { content: [{ type: "text", text: "touched" }] }
      })
      return s
    })
    const node = toNodeHandler(handler)
    const listener = http.createServer((req, res) => void node(req, res))
    listener.listen(0, "127.0.0.1", () =>
      resume(Effect.succeed({ url: `http://127.0.0.1:${(listener.address() as { port: number }).port}/mcp`, handler, listener })))
  }),
  ({ handler, listener }) =>
    Effect.promise(async () => {
      await handler.close().catch(() => undefined)
      listener.closeAllConnections()
      await new Promise((resolve) => listener.close(resolve))
    })
)

const gatewayOf = (url: string) =>
  Effect.map(
    Layer.build(Gateway.layerHttp({ port: 0, drainTimeoutMs: 0 }).pipe(Layer.provideMerge(Host.layer({
      config: config({ servers: [server("up", { url })], home: mkdtempSync(path.join(tmpdir(), "mcpctl-gw-subscribe-")), permissions: { allow: ["mcp__*"] } }),
      transport: Transport.layer,
      pins: false
    })))),
    (context) => ({ gateway: Context.get(context, Gateway), pool: Context.get(context, ConnectionPool) })
  )

const clientIn = (era: "legacy" | "modern", address: string, token: string | undefined) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const client = new Client({ name: "t", version: "1" }, { versionNegotiation: { mode: era === "modern" ? { pin: "2026-07-28" } : "legacy" } })
      await client.connect(new StreamableHTTPClientTransport(new URL(address), { requestInit: { headers: { authorization: `Bearer ${token}` } } }))
      return client
    }),
    (client) => Effect.promise(() => client.close())
  )

/** The URIs `client` hears are updated, in order. */
const updatesOf = (client: Client) =>
  Effect.tap(Queue.unbounded<string>(), (queue) =>
    Effect.sync(() => client.setNotificationHandler("notifications/resources/updated", (n) => void Queue.unsafeOffer(queue, n.params.uri))))

describe("resources/updated from a 2026-07-28 server through serve", () => {
  it.scopedLive("a 2025-era session subscribed through serve hears the update", () =>
    Effect.gen(function*() {
      const up = yield* upstream
      const { gateway, pool } = yield* gatewayOf(up.url)
      expect((yield* pool.get("up")).era).toBe("modern")
      const client = yield* clientIn("legacy", gateway.address, gateway.token)
      const updates = yield* updatesOf(client)
      yield* Effect.promise(() => client.subscribeResource({ uri: DOC }))
      const touched = yield* Effect.promise(() => client.callTool({ name: "mcp__up__touch", arguments: {} }))
      expect(touched.content).toEqual([{ type: "text", text: "touched" }])
      expect(yield* Queue.take(updates)).toBe(DOC)
      yield* Effect.promise(() => client.unsubscribeResource({ uri: DOC }))
    }))
})
