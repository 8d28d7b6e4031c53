// @ts-nocheck
import { describe, expect, it } from "@effect/vitest"
import * as Host from "@mcpctl/core/Host"
import { McpConfig } from "@mcpctl/core/McpConfig"
import { Prompter, RuleWriter } from "@mcpctl/core/Permission"
import type { ServerLog } from "@mcpctl/core/Resources"
import { defaultLimits } from "@mcpctl/core/ServerConfig"
import { RemoteAuth } from "@mcpctl/core/SignIn"
import { ToolRegistry } from "@mcpctl/core/ToolRegistry"
import { Fixtures, InMemory } from "@mcpctl/testing"
import { Server } from "@modelcontextprotocol/server"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Console from "effect/Console"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as LogLevel from "effect/LogLevel"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"

describe("log levels and OpenTelemetry variables (pure)", () => {
  it("maps MCP log levels to Effect's", () => {
    expect(Host.effectLogLevel("debug")).toBe(LogLevel.Debug)
    expect(Host.effectLogLevel("notice")).toBe(LogLevel.Info)
    expect(Host.effectLogLevel("warning")).toBe(LogLevel.Warning)
    expect(Host.effectLogLevel("error")).toBe(LogLevel.Error)
    expect(Host.effectLogLevel("emergency")).toBe(LogLevel.Fatal)
  })

  it("reads the endpoint, headers and service name; off without an endpoint or when disabled", () => {
    expect(Host.tracingSettings({})).toBeUndefined()
    expect(Host.tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318/" })).toEqual({
      url: "http://c:4318/v1/traces",
      headers: {},
      serviceName: "mcpctl"
    })
    expect(Host.tracingSettings({
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318",
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://t/traces",
      OTEL_EXPORTER_OTLP_HEADERS: "a=1,b=x%20y",
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: "b=2",
      OTEL_SERVICE_NAME: "agent"
    })).toEqual({ url: "http://t/traces", headers: { a: "1", b: "2" }, serviceName: "agent" })
    expect(Host.tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c", OTEL_SDK_DISABLED: "TRUE" })).toBeUndefined()
    expect(Host.tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c", OTEL_TRACES_EXPORTER: "none" })).toBeUndefined()
    expect(Host.parseOtlpHeaders("=x,novalue,k = v ,bad=%E0%A4%A")).toEqual({ k: "v" })
  })
})

/** A console that records what the logger writes to each stream. */
const recordingConsole = () => {
  const out: Array<string> = []
  const err: Array<string> = []
  const unsafe = {
    ...globalThis.console,
    log: (...args: Array<unknown>) => void out.push(args.join(" ")),
    error: (...args: Array<unknown>) => void err.push(args.join(" ")),
    group: () => undefined,
    groupEnd: () => undefined
  }
  return { out, err, console: { ...Effect.runSync(Effect.console), unsafe } as Console.Console }
}

describe("Host.layerLogger", () => {
  it.effect("writes to the console's error stream at the level and above, never to its log stream", () =>
    Effect.gen(function*() {
      const { console, err, out } = recordingConsole()
      const logAll = Effect.all([Effect.logDebug("d"), Effect.logInfo("i"), Effect.logWarning("w")])
      yield* logAll.pipe(Effect.provide(Host.layerLogger(LogLevel.Warning)), Effect.withConsole(console))
      expect(out).toEqual([])
      expect(err.length).toBe(1)
      expect(err[0]).toMatch(/WARN .*: w$/)
      err.length = 0
      yield* logAll.pipe(Effect.provide(Host.layerLogger(LogLevel.Debug)), Effect.withConsole(console))
      expect(err.map((l) => l.slice(-1))).toEqual(["d", "i", "w"])
      expect(out).toEqual([])
    }))
})

describe("Host.layerTracing", () => {
  const withEnv = (env: Record<string, string>) => Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))

  it.effect("changes nothing without an endpoint", () =>
    Effect.gen(function*() {
      const before = yield* Effect.tracer
      const inside = yield* Effect.tracer.pipe(Effect.provide(Host.layerTracing()), withEnv({}))
      expect(inside).toBe(before)
    }))

  it.live("posts the spans of the scope to <endpoint>/v1/traces when it closes", () =>
    Effect.gen(function*() {
      const bodies: Array<{ path: string; body: string }> = []
      const collector = http.createServer((req, res) => {
        let body = ""
        req.on("data", (d) => (body += d))
        req.on("end", () => {
          bodies.push({ path: req.url ?? "", body })
          res.writeHead(200, { "content-type": "application/json" }).end("{}")
        })
      })
      yield* Effect.acquireRelease(
        Effect.promise(() => new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve))),
        () => Effect.sync(() => collector.close())
      )
      const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`
      yield* Effect.void.pipe(
        Effect.withSpan("unit of work"),
        Effect.provide(Host.layerTracing({ serviceVersion: "9.9.9" })),
        withEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SERVICE_NAME: "host-test" })
      )
      expect(bodies.map((b) => b.path)).toEqual(["/v1/traces"])
      expect(bodies[0]!.body).toContain(`"name":"unit of work"`)
      expect(bodies[0]!.body).toContain(`"stringValue":"host-test"`)
      expect(bodies[0]!.body).toContain(`"stringValue":"9.9.9"`)
    }).pipe(Effect.scoped))
})

// ---------------------------------------------------------------------------------------------
// The composition
// ---------------------------------------------------------------------------------------------

const server = Fixtures.inMemory("notes")

/** A server with one tool that logs at two levels before it answers. */
const notes: InMemory.ServerFactory = () => {
  const s = new Server({ name: "notes", version: "1" }, { capabilities: { tools: {}, logging: {} } })
  s.setRequestHandler("tools/list", () => ({ tools: [{ name: "write", inputSchema: { type: "object" } }] }))
  s.setRequestHandler("tools/call", async () => {
    await s.sendLoggingMessage({ level: "debug", data: "quiet" })
    await s.sendLoggingMessage({ level: "warning", logger: "disk", data: "almost full" })
    return { content: [{ type: "text", text: "written" }] }
  })
  return s
}

describe("Host.layer", () => {
  it.scoped("asks through the prompter, writes 'always' with the rule writer, forwards server logs", () =>
    Effect.gen(function*() {
      const projectDir = mkdtempSync(join(tmpdir(), "mcpctl-host-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(projectDir, { recursive: true, force: true })))
      const logs: Array<ServerLog> = []
      const asked: Array<string> = []
      const context = yield* Layer.build(Host.layer({
        config: Layer.succeed(McpConfig, {
          servers: [server],
          permissions: { allow: [], ask: [], deny: [] },
          limits: defaultLimits,
          home: join(projectDir, "home"),
          projectDir,
          warnings: []
        }),
        transport: InMemory.layer({ notes }),
        prompter: Layer.succeed(Prompter, { ask: (request) => Effect.sync(() => (asked.push(request.tool), "always" as const)) }),
        ruleWriter: RuleWriter.layerLocalSettings,
        serverLogs: { threshold: "warning", write: (log) => void logs.push(log) }
      }))
      const registry = Context.get(context, ToolRegistry)
      const { result } = yield* registry.call("mcp__notes__write", {})
      expect(result.content).toEqual([{ type: "text", text: "written" }])
      expect(asked).toEqual(["mcp__notes__write"])
      const local = JSON.parse(readFileSync(join(projectDir, ".mcpctl/settings.local.json"), "utf8"))
      expect(local.permissions.allow).toEqual(["mcp__notes__write"])
      expect(logs).toEqual([{ server: "notes", level: "warning", logger: "disk", data: "almost full" }])
      // No inline sign-in unless asked for.
      expect(Context.get(context, RemoteAuth).inline).toBe(false)
    }))
})
