/**
 * What serve passes on besides answers (gateway/GatewayNotices.ts): a server's log lines during a
 * call reach the client that called, at the level it set, and `resources/updated` reaches the
 * sessions that subscribed; the server is subscribed once, while anyone is.
 */
import { slow } from "./support/slow.js"
import { describe, expect, it } from "@effect/vitest"
import { Gateway } from "@mcpctl/core/Gateway"
import * as Host from "@mcpctl/core/Host"
import { McpConfig } from "@mcpctl/core/McpConfig"
import { defaultLimits } from "@mcpctl/core/ServerConfig"
import { Fixtures, InMemory } from "@mcpctl/testing"
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client"
import { McpServer } from "@modelcontextprotocol/server"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

/** What the server saw: its subscribe and unsubscribe requests. */
const seen: Array<string> = []

const logsServer = () => {
  const server = new McpServer({ name: "logs", version: "1" }, { capabilities: { logging: {}, resources: { subscribe: true } } })
  server.registerTool("work", { description: "logs three lines, then answers" }, async (ctx) => {
    await ctx.mcpReq.log("debug", "a debug line")
    await ctx.mcpReq.log("info", { step: 1 }, "worker")
    await ctx.mcpReq.log("error", "an error line")
    return { content: [{ type: "text", text: "done" }] }
  })
  server.registerTool("touch", { description: "says test://doc changed" }, async () => {
    await server.server.sendResourceUpdated({ uri: "test://doc" })
    return { content: [{ type: "text", text: "touched" }] }
  })
  server.registerResource("doc", "test://doc", { mimeType: "text/plain" }, async (uri) => ({ contents: [{ uri: uri.href, text: "v" }] }))
  server.server.setRequestHandler("resources/subscribe", async (r) => (seen.push(`subscribe ${r.params.uri}`), {}))
  server.server.setRequestHandler("resources/unsubscribe", async (r) => (seen.push(`unsubscribe ${r.params.uri}`), {}))
  return server
}

const host = Host.layer({
  config: Layer.succeed(McpConfig, {
    servers: [Fixtures.inMemory("logs")],
    permissions: { allow: ["mcp__logs"], ask: [], deny: [] },
    limits: defaultLimits,
    home: "/tmp/mcpctl-gateway-notices-home",
    projectDir: "/tmp",
    warnings: []
  }),
  transport: InMemory.layer({ logs: logsServer }),
  serverLogs: { threshold: "debug", write: () => undefined }
})

const connect = (address: string, token: string | undefined) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const client = new Client({ name: "test", version: "1" })
      await client.connect(new StreamableHTTPClientTransport(new URL(address), { requestInit: { headers: { authorization: `Bearer ${token}` } } }))
      return client
    }),
    (client) => Effect.promise(() => client.close())
  )

describe("serve passes notices on", () => {
  it.scoped("log lines during a call go to the caller at its level; resources/updated to the sessions that subscribed", () =>
    Effect.gen(function*() {
      const context = yield* Layer.build(Gateway.layerHttp({ port: 0, drainTimeoutMs: 0 }).pipe(Layer.provide(host)))
      const { address, token } = Context.get(context, Gateway)
      const a = yield* connect(address, token)
      const b = yield* connect(address, token)
      const lines: Record<string, Array<unknown>> = { a: [], b: [] }
      a.setNotificationHandler("notifications/message", (n) => void lines.a!.push(n.params))
      b.setNotificationHandler("notifications/message", (n) => void lines.b!.push(n.params))

      // No level set: nothing forwarded.
      yield* Effect.promise(() => a.callTool({ name: "mcp__logs__work", arguments: {} }))
      expect(lines.a).toEqual([])
      yield* Effect.promise(() => a.setLoggingLevel("info"))
      const done = yield* Effect.promise(() => a.callTool({ name: "mcp__logs__work", arguments: {} }))
      expect(done.content).toEqual([{ type: "text", text: "done" }])
      // With the request, before its answer; below info dropped; b set no level and got nothing.
      expect(lines.a).toEqual([
        { level: "info", logger: "worker", data: { step: 1 } },
        { level: "error", data: "an error line" }
      ])
      expect(lines.b).toEqual([])

      const updated = yield* Deferred.make<string>()
      a.setNotificationHandler("notifications/resources/updated", (n) => void Deferred.unsafeDone(updated, Effect.succeed(n.params.uri)))
      yield* Effect.promise(() => a.subscribeResource({ uri: "test://doc" }))
      yield* Effect.promise(() => b.subscribeResource({ uri: "test://doc" }))
      // Once upstream, however many clients subscribe.
      expect(seen).toEqual(["subscribe test://doc"])
      yield* Effect.promise(() => b.callTool({ name: "mcp__logs__touch", arguments: {} }))
      expect(yield* Deferred.await(updated)).toBe("test://doc")
      yield* Effect.promise(() => a.unsubscribeResource({ uri: "test://doc" }))
      expect(seen).toEqual(["subscribe test://doc"])
      yield* Effect.promise(() => b.unsubscribeResource({ uri: "test://doc" }))
      expect(seen).toEqual(["subscribe test://doc", "unsubscribe test://doc"])
    }), slow(60_000))
})
