import { describe, expect, it } from "@effect/vitest"
import { Gateway } from "@mcpctl/core/Gateway"
import * as Host from "@mcpctl/core/Host"
import { McpConfig } from "@mcpctl/core/McpConfig"
import { defaultLimits } from "@mcpctl/core/ServerConfig"
import { Fixtures, InMemory } from "@mcpctl/testing"
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as http from "node:http"

const server = Fixtures.inMemory("notes")

const host = Host.layer({
  config: Layer.succeed(McpConfig, {
    servers: [server],
    permissions: { allow: ["mcp__notes__search"], ask: [], deny: ["mcp__notes__erase"] },
    limits: defaultLimits,
    home: "/tmp/mcpctl-gateway-test-home",
    projectDir: "/tmp",
    warnings: []
  }),
  transport: InMemory.layer({
    notes: InMemory.scriptedServer([
      { name: "search", annotations: { readOnlyHint: true }, call: (args) => InMemory.text(`found ${args.q}`) },
      { name: "erase", call: () => InMemory.text("erased") },
      { name: "edit", call: () => InMemory.text("edited") }
    ])
  })
})

/** A plain request with the headers a browser or a rebinding page would send. */
const status = (url: string, headers: Record<string, string>) =>
  new Promise<number>((resolve, reject) => {
    const req = http.request(url, { method: "POST", headers: { "content-type": "application/json", ...headers } }, (res) => {
      res.resume()
      resolve(res.statusCode ?? 0)
    })
    req.on("error", reject)
    req.end("{}")
  })

describe("Gateway.layerHttp", () => {
  it.scoped("serves the catalogue on 127.0.0.1 with the host's rules, and refuses foreign hosts and origins", () =>
    Effect.gen(function*() {
      const context = yield* Layer.build(Gateway.layerHttp({ port: 0, drainTimeoutMs: 0 }).pipe(Layer.provide(host)))
      const { address, token } = Context.get(context, Gateway)
      expect(address).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/)
      const authorization = `Bearer ${token}`
      const client = new Client({ name: "test", version: "1" })
      yield* Effect.acquireRelease(
        Effect.promise(() =>
          client.connect(new StreamableHTTPClientTransport(new URL(address), { requestInit: { headers: { authorization } } }))
        ),
        () => Effect.promise(() => client.close())
      )
      const { tools } = yield* Effect.promise(() => client.listTools())
      // Denied tools are not listed at all.
      expect(tools.map((t) => t.name).sort()).toEqual(["mcp__notes__edit", "mcp__notes__search"])
      const found = yield* Effect.promise(() => client.callTool({ name: "mcp__notes__search", arguments: { q: "effect" } }))
      expect(found.content).toEqual([{ type: "text", text: "found effect" }])
      // An ask nobody can answer comes back as a tool error naming the rule to add.
      const asked = yield* Effect.promise(() => client.callTool({ name: "mcp__notes__edit", arguments: {} }))
      expect(asked.isError).toBe(true)
      expect(JSON.stringify(asked.content)).toContain("permissions.allow")

      const port = new URL(address).port
      expect(yield* Effect.promise(() => status(address, { host: `evil.test:${port}` }))).toBe(403)
      expect(yield* Effect.promise(() => status(address, { origin: "http://evil.test" }))).toBe(403)
      // Loopback, but no session and no initialize: not a session.
      expect(yield* Effect.promise(() => status(address, { authorization }))).toBe(400)
    }))

  it.scoped("a port that cannot be bound is a usage error", () =>
    Effect.gen(function*() {
      const first = yield* Layer.build(Gateway.layerHttp({ port: 0, drainTimeoutMs: 0 }).pipe(Layer.provide(host)))
      const port = Number(new URL(Context.get(first, Gateway).address).port)
      const error = yield* Layer.build(Gateway.layerHttp({ port, drainTimeoutMs: 0 }).pipe(Layer.provide(host))).pipe(Effect.flip)
      expect(error).toMatchObject({ _tag: "UsageError" })
      expect(error.message).toContain(`Cannot serve on 127.0.0.1:${port}`)
    }))
})
