/**
 * The pool against real servers that go away between two calls: a stdio fixture killed with its
 * whole process group, and a Streamable HTTP server-everything restarted on the same port (its
 * old session is gone, so the next request is answered only after re-initializing).
 */
import { describe, expect, it } from "@effect/vitest"
import { Everything, Host, InMemory } from "@mcpctl/testing"
import { echoServer } from "@mcpctl/testing/fixtures"
import { defaultLimits, type ResolvedServer, type ServerConfig } from "@mcpctl/core/ServerConfig"
import { McpConfig } from "@mcpctl/core/McpConfig"
import { ConnectionPool } from "@mcpctl/core/ConnectionPool"
import { ToolRegistry } from "@mcpctl/core/ToolRegistry"
import { Transport } from "@mcpctl/core/Transport"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as PubSub from "effect/PubSub"
import * as Queue from "effect/Queue"
import * as TestClock from "effect/TestClock"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"


const server = (name: string, transport: ResolvedServer["transport"], config: ServerConfig): ResolvedServer => ({
  name,
  originalName: name,
  scope: "flag",
  source: "/test/settings.json",
  transport,
  config
})

const hostLayer = (servers: ReadonlyArray<ResolvedServer>) => {
  const config = Layer.succeed(McpConfig, {
    servers,
    permissions: { allow: ["mcp__*"], ask: [], deny: [] },
    limits: defaultLimits,
    home: mkdtempSync(path.join(tmpdir(), "mcpctl-pool-")),
    projectDir: "/tmp",
    warnings: []
  })
  return Host.layer({ config, transport: Transport.layer })
}

const textOf = (result: { content: ReadonlyArray<unknown> }) =>
  (result.content[0] as { type: string; text: string }).text

/** server-everything over Streamable HTTP on `port` (a restart keeps the port). */
const startOn = async (port: number) => (await Everything.startEverything("streamableHttp", port)).child
const { freePort, stopServer: kill } = Everything


describe("ConnectionPool with real servers", () => {
  it.scoped("restarts a killed stdio server for the next call", () =>
    Effect.gen(function*() {
      const registry = yield* ToolRegistry
      const pool = yield* ConnectionPool
      const events = yield* PubSub.subscribe(pool.events)
      const first = yield* registry.call("mcp__echo__add", { a: 1, b: 2 })
      expect(textOf(first.result)).toBe("3")
      const pid1 = (yield* pool.get("echo")).pid!
      process.kill(-pid1, "SIGKILL")
      // Not read-only: it must go to a restarted process, never to the dead one.
      expect(yield* Queue.take(events)).toEqual({ _tag: "Closed", server: "echo" })
      const second = yield* registry.call("mcp__echo__add", { a: 2, b: 3 })
      expect(textOf(second.result)).toBe("5")
      const pid2 = (yield* pool.get("echo")).pid!
      expect(pid2).not.toBe(pid1)

      // Killed and used at once (no wait for the exit): the read-only call is replayed.
      process.kill(-pid2, "SIGKILL")
      const third = yield* registry.call("mcp__echo__echo", { text: "still here" })
      expect(textOf(third.result)).toBe("still here")
      expect((yield* pool.get("echo")).pid).not.toBe(pid2)
    }).pipe(
      Effect.provide(hostLayer([server("echo", "stdio", { command: process.execPath, args: [echoServer] } as ServerConfig)]))
    ), 30_000)

  it.scoped("re-initializes after a Streamable HTTP server restarted (old session gone)", () =>
    Effect.gen(function*() {
      const port = yield* Effect.promise(freePort)
      let child = yield* Effect.promise(() => startOn(port))
      yield* Effect.addFinalizer(() => Effect.promise(() => kill(child)))
      const url = `http://127.0.0.1:${port}/mcp`
      return yield* Effect.gen(function*() {
        const registry = yield* ToolRegistry
        const pool = yield* ConnectionPool
        const first = yield* registry.call("mcp__everything__echo", { message: "one" })
        expect(textOf(first.result)).toContain("one")
        const before = yield* pool.get("everything")

        yield* Effect.promise(() => kill(child))
        child = yield* Effect.promise(() => startOn(port))

        const second = yield* registry.call("mcp__everything__echo", { message: "two" })
        expect(textOf(second.result)).toContain("two")
        expect((yield* pool.get("everything")) === before).toBe(false)
      }).pipe(
        Effect.provide(hostLayer([server("everything", "http", { type: "http", url } as ServerConfig)]))
      )
    }), 30_000)
})

describe("ConnectionPool states a user reads", () => {
  const tools = InMemory.scriptedServer([{ name: "ping", annotations: { readOnlyHint: true }, call: () => InMemory.text("pong") }])

  it.scoped("an unset ${VAR} fails its server alone, never started; the others run", () =>
    Effect.gen(function*() {
      const pool = yield* ConnectionPool
      const registry = yield* ToolRegistry
      const states = yield* pool.connectAll()
      const byName = Object.fromEntries(states.map((s) => [s.server.name, s]))
      expect(byName.ok!.status).toBe("connected")
      expect(byName.api!.status).toBe("failed")
      expect("error" in byName.api! && byName.api.error.message).toContain("${API_TOKEN}")
      const { errors, tools: listed } = yield* registry.list()
      expect(listed.map((t) => t.name)).toEqual(["mcp__ok__ping"])
      expect(errors).toEqual([{ server: "api", status: "failed", message: expect.stringContaining("mcpServers.api.headers.Authorization") }])
    }).pipe(
      Effect.provide(Host.layer({
        config: McpConfig.layerStatic({
          servers: { ok: { command: "in-memory" }, api: { url: "http://127.0.0.1:9/mcp", headers: { Authorization: "Bearer ${API_TOKEN}" } } }
        }),
        // The transport would fail the test if the unresolved server were ever opened.
        transport: Layer.succeed(Transport, {
          open: (server, kind) =>
            server.name === "api" ? Effect.die(`opened ${server.name} with ${JSON.stringify(server.config)}`) : openInMemory(server, kind)
        })
      }))
    ))

  it.scoped("the connect time of a server leaves out its wait for a connection slot", () =>
    Effect.gen(function*() {
      const pool = yield* ConnectionPool
      const running = yield* Effect.fork(pool.connectAll())
      // One slot (MCP_SERVER_CONNECTION_BATCH_SIZE=1): b waits while a takes 150 ms, then takes 150 ms itself.
      yield* TestClock.adjust("150 millis")
      yield* TestClock.adjust("150 millis")
      const states = yield* Fiber.join(running)
      const ms = Object.fromEntries(states.map((s) => [s.server.name, s.status === "connected" ? s.connection.connectMs : -1]))
      expect(ms).toEqual({ a: 150, b: 150 })
    }).pipe(
      Effect.provide(Host.layer({
        config: McpConfig.layerStatic({
          servers: { a: { command: "in-memory" }, b: { command: "in-memory" } },
          limits: { localConcurrency: 1 }
        }),
        transport: Layer.succeed(Transport, {
          open: (server, kind) => Effect.zipRight(Effect.sleep("150 millis"), openInMemory(server, kind))
        })
      }))
    ))

  const memory = Layer.build(InMemory.layer({ ok: tools, a: tools, b: tools }))
  const openInMemory = (server: ResolvedServer, kind: Parameters<Transport["Type"]["open"]>[1]) =>
    Effect.flatMap(memory, (context) => Context.get(context, Transport).open(server, kind))
})
