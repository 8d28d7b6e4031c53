import { describe, expect, it } from "@effect/vitest"
import { Host, InMemory } from "@mcpctl/testing"
import { echoServer } from "@mcpctl/testing/Fixtures"
import { defaultLimits, type ResolvedServer, type ServerConfig } from "@mcpctl/core/ServerConfig"
import { McpConfig } from "@mcpctl/core/McpConfig"
import { ConnectionPool } from "@mcpctl/core/ConnectionPool"
import { ServerUnavailable } from "@mcpctl/core/Errors"
import { Transport } from "@mcpctl/core/Transport"
import { mergeToolPools, toMcpTool, ToolRegistry } from "@mcpctl/core/ToolRegistry"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as TestClock from "effect/TestClock"
import type * as Tracer from "effect/Tracer"
import { recording } from "./support/tracing.js"

/** Resolves after `ms` of real time, whatever the TestClock says. */
const realTimeout = <A>(ms: number, value: A) => new Promise<A>((resolve) => setTimeout(() => resolve(value), ms))

const stdio = (name: string, extra: Partial<ServerConfig> = {}): ResolvedServer => ({
  name,
  originalName: name,
  scope: "flag",
  source: "/test/settings.json",
  transport: "stdio",
  config: { command: "in-memory", ...extra } as ServerConfig
})

const configLayer = (servers: ReadonlyArray<ResolvedServer>, allow: ReadonlyArray<string> = ["mcp__*"]) =>
  Layer.succeed(McpConfig, {
    servers,
    permissions: { allow, ask: [], deny: ["mcp__alpha__forbidden"] },
    limits: defaultLimits,
    home: "/tmp/mcpctl-test-home",
    projectDir: "/tmp",
    warnings: []
  })

const hostLayer = (
  servers: ReadonlyArray<ResolvedServer>,
  factories: Record<string, InMemory.ServerFactory>,
  allow?: ReadonlyArray<string>
) => {
  return Host.layer({ config: configLayer(servers, allow), transport: InMemory.layer(factories) })
}

const echoTools: ReadonlyArray<InMemory.ScriptedTool> = [
  {
    name: "echo",
    title: "Echo",
    annotations: { readOnlyHint: true },
    call: (args) => InMemory.text(String(args.text))
  },
  {
    name: "rm.rf",
    annotations: { destructiveHint: true, openWorldHint: true },
    call: () => InMemory.text("gone")
  },
  { name: "forbidden", call: () => InMemory.text("should not run") }
]

describe("toMcpTool", () => {
  it("maps annotations to host capabilities and qualifies the name", () => {
    const tool = toMcpTool("fs", {
      name: "read.file",
      description: "x".repeat(5000),
      inputSchema: { type: "object" },
      annotations: { readOnlyHint: true, openWorldHint: true, title: "Read" }
    })
    expect(tool.name).toBe("mcp__fs__read_file")
    expect(tool.tool).toBe("read.file")
    expect(tool.title).toBe("Read")
    expect(tool.readOnly && tool.concurrencySafe && tool.openWorld).toBe(true)
    expect(tool.destructive).toBe(false)
    expect(tool.description.length).toBe(2048)
  })

  it("merges built-ins first and reports conflicting MCP tools", () => {
    const mcp = toMcpTool("fs", { name: "read", inputSchema: { type: "object" } })
    const other = toMcpTool("fs", { name: "write", inputSchema: { type: "object" } })
    const merged = mergeToolPools([{ name: "mcp__fs__read" }, { name: "Bash" }], [mcp, other])
    expect(merged.tools.map((t) => t.name)).toEqual(["mcp__fs__read", "Bash", "mcp__fs__write"])
    expect(merged.conflicts).toEqual(["mcp__fs__read"])
  })
})

describe("ToolRegistry over in-memory servers", () => {
  it.scoped("lists every server's tools and keeps going when one server fails", () =>
    Effect.gen(function*() {
      const registry = yield* ToolRegistry
      const { errors, tools } = yield* registry.list()
      expect(tools.map((t) => t.name).sort()).toEqual([
        "mcp__alpha__echo",
        "mcp__alpha__forbidden",
        "mcp__alpha__rm_rf",
        "mcp__beta__echo",
        "mcp__beta__forbidden",
        "mcp__beta__rm_rf"
      ])
      expect(errors).toEqual([
        { server: "broken", status: "failed", message: expect.stringContaining("broken") }
      ])
      const rm = tools.find((t) => t.name === "mcp__alpha__rm_rf")!
      expect(rm.destructive && rm.openWorld && !rm.readOnly).toBe(true)
      const pool = yield* ConnectionPool
      expect((yield* pool.state("off")).status).toBe("disabled")
      expect((yield* pool.state("alpha")).status).toBe("connected")
      expect((yield* pool.state("broken")).status).toBe("failed")
    }).pipe(
      Effect.provide(hostLayer(
        [stdio("alpha"), stdio("beta"), stdio("broken"), stdio("off", { disabled: true })],
        { alpha: InMemory.scriptedServer(echoTools), beta: InMemory.scriptedServer(echoTools) }
      ))
    ))

  it.scoped("calls a tool by its qualified name", () =>
    Effect.gen(function*() {
      const registry = yield* ToolRegistry
      const { result, tool } = yield* registry.call("mcp__alpha__echo", { text: "hi" })
      expect(tool.tool).toBe("echo")
      expect(result.content).toEqual([{ type: "text", text: "hi" }])
    }).pipe(Effect.provide(hostLayer([stdio("alpha")], { alpha: InMemory.scriptedServer(echoTools) }))))

  it.scoped("refuses a denied tool before contacting the server", () => {
    const requests: Array<string> = []
    return Effect.gen(function*() {
      const registry = yield* ToolRegistry
      // Listed first (the name is resolved from the list), so only the call is in question.
      yield* registry.list()
      const error = yield* Effect.flip(registry.call("mcp__alpha__forbidden", {}))
      expect(error._tag).toBe("PermissionDenied")
      expect(requests).toEqual(["tools/list"])
    }).pipe(Effect.provide(hostLayer([stdio("alpha")], {
      alpha: InMemory.scriptedServer(echoTools, { onRequest: (method) => requests.push(method) })
    })))
  })

  it.scoped("names the rule to add when a call needs approval and nobody can answer", () =>
    Effect.gen(function*() {
      const registry = yield* ToolRegistry
      const error = yield* Effect.flip(registry.call("mcp__alpha__echo", { text: "x" }))
      expect(error._tag).toBe("PermissionDenied")
      expect(error.message).toContain(`add "mcp__alpha__echo" to permissions.allow`)
    }).pipe(
      Effect.provide(hostLayer([stdio("alpha")], { alpha: InMemory.scriptedServer(echoTools) }, []))
    ))

  it.scoped("gives usage errors that list what exists", () =>
    Effect.gen(function*() {
      const registry = yield* ToolRegistry
      const noServer = yield* Effect.flip(registry.call("mcp__nope__echo", {}))
      expect(noServer.message).toContain("alpha")
      const noTool = yield* Effect.flip(registry.call("mcp__alpha__nope", {}))
      expect(noTool.message).toContain("mcp__alpha__echo")
      const notAName = yield* Effect.flip(registry.call("echo", {}))
      expect(notAName._tag).toBe("UsageError")
    }).pipe(Effect.provide(hostLayer([stdio("alpha")], { alpha: InMemory.scriptedServer(echoTools) }))))

  it.scoped("cancels a call that outlives its timeout (TestClock)", () => {
    let inFlight: () => void = () => {}
    const serverHasCall = new Promise<void>((resolve) => (inFlight = resolve))
    let cancelled: (reason: unknown) => void = () => {}
    const serverCancelled = new Promise<unknown>((resolve) => (cancelled = resolve))
    const hang: InMemory.ScriptedTool = {
      name: "hang",
      call: (_, { signal }) => {
        signal.addEventListener("abort", () => cancelled(signal.reason))
        return new Promise(() => {})
      }
    }
    return Effect.gen(function*() {
      const registry = yield* ToolRegistry
      const fiber = yield* Effect.fork(registry.call("mcp__slow__hang", {}, { timeoutMs: 5_000 }))
      // Move time only once the server really has the request.
      yield* Effect.promise(() => serverHasCall)
      yield* TestClock.adjust("5 seconds")
      const error = yield* Effect.flip(Fiber.join(fiber))
      expect(error._tag).toBe("ToolTimeout")
      expect(error.message).toContain("5000 ms")
      // The server's handler was told (notifications/cancelled aborts its signal).
      const seen = yield* Effect.promise(() => Promise.race([serverCancelled, realTimeout(2_000, "not cancelled")]))
      expect(String(seen)).not.toBe("not cancelled")
    }).pipe(
      Effect.provide(hostLayer([stdio("slow")], {
        slow: InMemory.scriptedServer([hang], {
          onRequest: (method) => method === "tools/call" && inFlight()
        })
      }))
    )
  })

  it.live("cancels on a real stdio server a call that outlives its timeout (notifications/cancelled, right id)", () =>
    Effect.gen(function*() {
      const registry = yield* ToolRegistry
      const error = yield* Effect.flip(registry.call("mcp__echo__slow", { ms: 20_000 }, { timeoutMs: 200 }))
      expect(error._tag).toBe("ToolTimeout")
      // Sent after the cancellation on the same pipe, so the server has handled it by now.
      const { result } = yield* registry.call("mcp__echo__cancellations", {})
      const seen = JSON.parse((result.content[0] as { text: string }).text) as {
        slowCalls: Array<{ requestId: number; aborted: boolean }>
        cancelled: Array<{ requestId: number; reason?: string }>
      }
      expect(seen.slowCalls).toEqual([{ requestId: expect.any(Number), aborted: true }])
      expect(seen.cancelled).toEqual([{ requestId: seen.slowCalls[0]!.requestId, reason: expect.any(String) }])
    }).pipe(
      Effect.scoped,
      Effect.provide(Host.layer({
        config: configLayer([{ ...stdio("echo"), config: { command: process.execPath, args: [echoServer, "--cancellations"] } as ServerConfig }]),
        transport: Transport.layer
      }))
    ), 20_000)

  it.live("a caller's signal cancels the call on the server", () => {
    let cancelled: () => void = () => {}
    const serverCancelled = new Promise<void>((resolve) => (cancelled = resolve))
    let inFlight: () => void = () => {}
    const serverHasCall = new Promise<void>((resolve) => (inFlight = resolve))
    const hang: InMemory.ScriptedTool = {
      name: "hang",
      call: (_, { signal }) => {
        signal.addEventListener("abort", () => cancelled())
        inFlight()
        return new Promise(() => {})
      }
    }
    return Effect.gen(function*() {
      const registry = yield* ToolRegistry
      const controller = new AbortController()
      const fiber = yield* Effect.fork(registry.call("mcp__slow__hang", {}, { signal: controller.signal }))
      yield* Effect.promise(() => serverHasCall)
      controller.abort()
      const error = yield* Effect.flip(Fiber.join(fiber).pipe(Effect.timeout("2 seconds")))
      expect(error._tag).toBe("McpRequestError")
      const seen = yield* Effect.promise(() => Promise.race([serverCancelled.then(() => "cancelled"), realTimeout(2_000, "not cancelled")]))
      expect(seen).toBe("cancelled")
    }).pipe(Effect.scoped, Effect.provide(hostLayer([stdio("slow")], { slow: InMemory.scriptedServer([hang]) })))
  })

  it.scoped("fetches a tools list once per connection, again after the connection closes", () => {
    let listings = 0
    let connects = 0
    const factory = InMemory.scriptedServer(echoTools, {
      onRequest: (method) => method === "tools/list" && listings++
    })
    return Effect.gen(function*() {
      const registry = yield* ToolRegistry
      const pool = yield* ConnectionPool
      yield* registry.list()
      yield* registry.list()
      yield* registry.resolve("mcp__alpha__echo")
      expect(listings).toBe(1)
      const first = yield* pool.get("alpha")
      yield* Effect.promise(() => first.client.close())
      yield* registry.list()
      expect(listings).toBe(2)
      expect(connects).toBe(2)
    }).pipe(
      Effect.provide(hostLayer([stdio("alpha")], {
        alpha: () => {
          connects++
          return factory()
        }
      }))
    )
  })
})

describe("spans", () => {
  /** The tracer in place, recording every span it makes. */
  it.scoped("one span per call (server, tool) and per connect; none for the permission check", () => {
    const spans: Array<Tracer.Span> = []
    return Effect.gen(function*() {
      const registry = yield* ToolRegistry
      yield* registry.call("mcp__alpha__echo", { text: "1" })
      yield* registry.call("mcp__alpha__echo", { text: "2" })
      const calls = spans.filter((s) => s.name === "ToolRegistry.call")
      expect(calls.length).toBe(2)
      expect(Object.fromEntries(calls[0]!.attributes)).toEqual({ server: "alpha", tool: "mcp__alpha__echo" })
      expect(calls.every((s) => s.status._tag === "Ended")).toBe(true)
      const connects = spans.filter((s) => s.name === "ConnectionPool.connect")
      expect(connects.map((s) => s.attributes.get("server"))).toEqual(["alpha"])
      expect(spans.map((s) => s.name)).not.toContain("Permission.authorize")
    }).pipe(
      Effect.provide(hostLayer([stdio("alpha")], { alpha: InMemory.scriptedServer(echoTools) })),
      Effect.provide(recording(spans))
    )
  })
})

describe("a failed connect is not remembered", () => {
  it.scoped("the next use connects again, also when several fibers waited on the failure", () => {
    let opens = 0
    const healthy = InMemory.layer({ flaky: InMemory.scriptedServer(echoTools) })
    const flakyTransport = Layer.effect(
      Transport,
      Effect.map(Transport, (inner) => ({
        open: (server: ResolvedServer, kind: Parameters<typeof inner.open>[1]) =>
          ++opens === 1
            ? Effect.fail(new ServerUnavailable({ server: server.name, status: "failed", message: "first start fails" }))
            : inner.open(server, kind)
      }))
    ).pipe(Layer.provide(healthy))
    const config = configLayer([stdio("flaky")])
    return Effect.gen(function*() {
      const pool = yield* ConnectionPool
      const failures = yield* Effect.all([pool.get("flaky"), pool.get("flaky"), pool.get("flaky")].map(Effect.flip), {
        concurrency: "unbounded"
      })
      expect(failures.map((e) => e.message)).toEqual(Array(3).fill(expect.stringContaining("first start fails")))
      const connection = yield* pool.get("flaky")
      expect(connection.server.name).toBe("flaky")
      expect(opens).toBe(2)
      // The fresh connection stays: using it again opens nothing new.
      yield* pool.get("flaky")
      expect(opens).toBe(2)
    }).pipe(Effect.provide(ConnectionPool.layer.pipe(Layer.provide(flakyTransport), Layer.provide(config))))
  })
})
