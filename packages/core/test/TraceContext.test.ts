import { describe, expect, it } from "@effect/vitest"
import { Host, InMemory } from "@mcpctl/testing"
import { config, inMemory } from "@mcpctl/testing/Fixtures"
import { ToolRegistry } from "@mcpctl/core/ToolRegistry"
import * as CoreHost from "@mcpctl/core/Host"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import * as Option from "effect/Option"
import type * as Tracer from "effect/Tracer"
import {
  externalParent,
  formatTraceparent,
  parseTraceparent,
  traceMetaOf
} from "../src/internal/traceContext.js"
import { recording } from "./support/tracing.js"

/** A real SDK server in process that records the `_meta` of every request. */
const recordingServer = (seen: Array<{ method: string; meta: Record<string, unknown> | undefined }>) =>
  InMemory.scriptedServer([{ name: "echo", call: (args) => InMemory.text(String(args.text)) }], {
    onRequest: (method, params) => seen.push({ method, meta: params?._meta as Record<string, unknown> | undefined })
  })

const hostLayer = (seen: Array<{ method: string; meta: Record<string, unknown> | undefined }>) =>
  Host.layer({
    config: config({ servers: [inMemory("alpha")], permissions: { allow: ["mcp__*"] } }),
    transport: InMemory.layer({ alpha: recordingServer(seen) })
  })

describe("traceparent (pure)", () => {
  it("formats and parses W3C traceparent", () => {
    const value = formatTraceparent({ traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: "00f067aa0ba902b7", sampled: true })
    expect(value).toBe("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
    expect(parseTraceparent(value)).toEqual({ traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: "00f067aa0ba902b7", sampled: true })
    expect(parseTraceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00")?.sampled).toBe(false)
  })

  it("rejects malformed values, version ff and all-zero ids", () => {
    expect(parseTraceparent("nonsense")).toBeUndefined()
    expect(parseTraceparent("ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")).toBeUndefined()
    expect(parseTraceparent("00-00000000000000000000000000000000-00f067aa0ba902b7-01")).toBeUndefined()
    expect(parseTraceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01")).toBeUndefined()
  })

  it("a span under an external parent forwards the parent's tracestate; another trace's does not", () => {
    const parent = externalParent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "vendor=1")!
    expect(traceMetaOf(parent)).toEqual({ traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", tracestate: "vendor=1" })
    const tracer = Effect.runSync(Effect.tracer)
    const child = tracer.span("child", Option.some(parent), parent.context, [], 0n, "client", {})
    const meta = traceMetaOf(child)
    expect(meta.tracestate).toBe("vendor=1")
    expect(meta.traceparent).toBe(`00-4bf92f3577b34da6a3ce929d0e0e4736-${child.spanId}-01`)
  })
})

describe("trace context on the wire (SEP-414)", () => {
  it.scoped("with tracing on, every request carries its own client span as traceparent, a child of the call's span", () => {
    const spans: Array<Tracer.Span> = []
    const seen: Array<{ method: string; meta: Record<string, unknown> | undefined }> = []
    return Effect.gen(function*() {
      const registry = yield* ToolRegistry
      yield* registry.call("mcp__alpha__echo", { text: "hi" })
      const call = seen.find((s) => s.method === "tools/call")!
      const parsed = parseTraceparent(String(call.meta?.traceparent))
      expect(parsed).toBeDefined()
      const requestSpan = spans.find((s) => s.spanId === parsed!.spanId)!
      expect(requestSpan.name).toBe("tools/call")
      expect(requestSpan.kind).toBe("client")
      const callSpan = spans.find((s) => s.name === "ToolRegistry.call")!
      expect(Option.getOrUndefined(requestSpan.parent)?.spanId).toBe(callSpan.spanId)
      expect(parsed!.traceId).toBe(callSpan.traceId)
      expect(call.meta?.tracestate).toBeUndefined()
      // The listing that resolved the tool is traced too, with a span of its own.
      const list = seen.find((s) => s.method === "tools/list")!
      const listParent = parseTraceparent(String(list.meta?.traceparent))!
      expect(spans.find((s) => s.spanId === listParent.spanId)?.name).toBe("tools/list")
      expect(listParent.spanId).not.toBe(parsed!.spanId)
    }).pipe(Effect.provide(hostLayer(seen)), Effect.provide(recording(spans)))
  })

  it.scoped("an outside parent (TRACEPARENT/TRACESTATE) sets the trace id and its tracestate goes along", () => {
    const spans: Array<Tracer.Span> = []
    const seen: Array<{ method: string; meta: Record<string, unknown> | undefined }> = []
    const parent = externalParent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "rojo=00f067aa0ba902b7")!
    return Effect.gen(function*() {
      const registry = yield* ToolRegistry
      yield* registry.call("mcp__alpha__echo", { text: "hi" }).pipe(Effect.withParentSpan(parent))
      const call = seen.find((s) => s.method === "tools/call")!
      expect(String(call.meta?.traceparent)).toMatch(/^00-4bf92f3577b34da6a3ce929d0e0e4736-[0-9a-f]{16}-01$/)
      expect(call.meta?.tracestate).toBe("rojo=00f067aa0ba902b7")
    }).pipe(Effect.provide(hostLayer(seen)), Effect.provide(recording(spans)))
  })

  it.scoped("with tracing off nothing is added: no traceparent, no _meta keys of ours", () => {
    const seen: Array<{ method: string; meta: Record<string, unknown> | undefined }> = []
    return Effect.gen(function*() {
      const registry = yield* ToolRegistry
      yield* registry.call("mcp__alpha__echo", { text: "hi" }).pipe(Effect.withSpan("outer"))
      expect(seen.length).toBeGreaterThan(0)
      for (const s of seen) expect(s.meta?.traceparent).toBeUndefined()
    }).pipe(Effect.provide(hostLayer(seen)))
  })
})

describe("TRACEPARENT / TRACESTATE from the environment", () => {
  const withEnv = (env: Record<string, string>) => Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))

  it("tracing settings carry a valid parent, and ignore a malformed one", () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318" }
    const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
    expect(CoreHost.tracingSettings({ ...endpoint, TRACEPARENT: traceparent, TRACESTATE: "a=1" })?.parent)
      .toEqual({ traceparent, tracestate: "a=1" })
    expect(CoreHost.tracingSettings({ ...endpoint, TRACEPARENT: "00-zz" })?.parent).toBeUndefined()
    expect(CoreHost.tracingSettings({ ...endpoint })).not.toHaveProperty("parent")
  })

  it.live("the exported spans belong to the caller's trace", () =>
    Effect.gen(function*() {
      const bodies: Array<string> = []
      const collector = http.createServer((req, res) => {
        let body = ""
        req.on("data", (d) => (body += d))
        req.on("end", () => {
          bodies.push(body)
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
        Effect.provide(CoreHost.layerTracing()),
        withEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, TRACEPARENT: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" })
      )
      const spans = bodies.flatMap((b) => JSON.parse(b).resourceSpans.flatMap((r: any) => r.scopeSpans.flatMap((s: any) => s.spans)))
      const unit = spans.find((s: any) => s.name === "unit of work")
      expect(unit.traceId).toBe("4bf92f3577b34da6a3ce929d0e0e4736")
      expect(unit.parentSpanId).toBe("00f067aa0ba902b7")
    }).pipe(Effect.scoped))
})
