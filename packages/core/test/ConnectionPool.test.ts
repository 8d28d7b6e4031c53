/**
 * The pool against real servers that go away between two calls: a stdio fixture killed with its
 * whole process group, and a Streamable HTTP server-everything restarted on the same port (its
 * old session is gone, so the next request is answered only after re-initializing).
 */
import { describe, expect, it } from "@effect/vitest"
import { Everything, Host, Processes } from "@mcpctl/testing"
import { echoServer, hostileServer } from "@mcpctl/testing/fixtures"
import { defaultLimits, type ResolvedServer, type ServerConfig } from "@mcpctl/core/ServerConfig"
import { McpConfig } from "@mcpctl/core/McpConfig"
import { ConnectionPool } from "@mcpctl/core/ConnectionPool"
import { ToolRegistry } from "@mcpctl/core/ToolRegistry"
import { Transport } from "@mcpctl/core/Transport"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Scope from "effect/Scope"
import * as PubSub from "effect/PubSub"
import * as Queue from "effect/Queue"
import { mkdtempSync, readFileSync } from "node:fs"
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

describe("ConnectionPool under hostile servers", () => {
  const hostileHost = (names: ReadonlyArray<string>, args: (name: string) => Array<string>, pool?: { rememberFailedConnects?: boolean }) =>
    Host.layer({
      config: McpConfig.layerStatic({
        servers: Object.fromEntries(names.map((n) => [n, { command: process.execPath, args: [hostileServer, ...args(n)] }])),
        home: mkdtempSync(path.join(tmpdir(), "mcpctl-pool-"))
      }),
      transport: Transport.layer,
      ...(pool ? { pool } : {})
    })

  it.live("closes every server at once: 8 stubborn servers are gone in about one escalation, not eight", () =>
    Effect.gen(function*() {
      const dir = mkdtempSync(path.join(tmpdir(), "mcpctl-stubborn-"))
      const names = Array.from({ length: 8 }, (_, i) => `s${i}`)
      const scope = yield* Scope.make()
      const context = yield* Layer.buildWithScope(
        hostileHost(names, (n) => ["--stubborn", "--pid-file", path.join(dir, `${n}.json`)]),
        scope
      )
      const states = yield* Effect.flatMap(ConnectionPool, (pool) => pool.connectAll()).pipe(Effect.provide(context))
      expect(states.map((s) => s.status)).toEqual(names.map(() => "connected"))
      const pids = names.flatMap((n) => Object.values(JSON.parse(readFileSync(path.join(dir, `${n}.json`), "utf8")) as Array<number>))
      expect(pids.filter(Processes.isAlive)).toHaveLength(16)
      const started = Date.now()
      yield* Scope.close(scope, Exit.void)
      const ms = Date.now() - started
      expect(pids.filter(Processes.isAlive)).toEqual([])
      // One SIGINT → SIGTERM → SIGKILL escalation is 0.5 s; eight in a row were 4 s.
      expect(ms).toBeLessThan(2_000)
    }))

  it.live("with rememberFailedConnects, a failed connect is not tried again", () =>
    Effect.gen(function*() {
      const log = path.join(mkdtempSync(path.join(tmpdir(), "mcpctl-once-")), "starts.log")
      const layer = Host.layer({
        config: McpConfig.layerStatic({
          servers: { never: { command: process.execPath, args: [echoServer, "--never-initialize", "--start-log", log] } },
          limits: { connectTimeoutMs: 500 },
          home: mkdtempSync(path.join(tmpdir(), "mcpctl-pool-"))
        }),
        transport: Transport.layer,
        pool: { rememberFailedConnects: true }
      })
      const { errors, ms } = yield* Effect.gen(function*() {
        const pool = yield* ConnectionPool
        const registry = yield* ToolRegistry
        yield* pool.connectAll()
        const started = Date.now()
        const { errors } = yield* registry.list()
        return { errors, ms: Date.now() - started }
      }).pipe(Effect.provide(layer))
      expect(errors.map((e) => e.message)).toEqual([expect.stringContaining("did not finish connecting within 500 ms")])
      expect(ms).toBeLessThan(400)
      expect(readFileSync(log, "utf8").trim().split("\n").filter((l) => l.includes(" start "))).toHaveLength(1)
    }))
})
