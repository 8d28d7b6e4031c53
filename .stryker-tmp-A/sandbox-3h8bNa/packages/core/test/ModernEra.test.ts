/**
 * What the host itself does in the modern era (2026-07-28), against real SDK v2 servers:
 * `input_required` answered through the elicitation port (the path legacy `elicitation/create`
 * takes), `requestState` echoed byte-exact, bounded rounds; catalogue changes through
 * `subscriptions/listen`; schemas (no network `$ref` fetched, 2020-12 passed through); a
 * `structuredContent` that is not an object.
 */
// @ts-nocheck

import { describe, expect, it } from "@effect/vitest"
import { httpServer, nodeServer, server, v2ErasServer, v2HttpServer, v2StdioServer } from "@mcpctl/testing/Fixtures"
import { ConnectionPool, type PoolEvent } from "@mcpctl/core/ConnectionPool"
import { Elicitation } from "@mcpctl/core/Elicitation"
import { ToolRegistry } from "@mcpctl/core/ToolRegistry"
import * as Effect from "effect/Effect"
import * as PubSub from "effect/PubSub"
import * as Queue from "effect/Queue"
import { createServer } from "node:http"
import { call, hostWith, textOf } from "./support/sdkHost.js"

/** The era of each server's connection. */
const eraOf = (name: string) => Effect.map(Effect.flatMap(ConnectionPool, (pool) => pool.get(name)), (c) => c.era)

describe("input_required (SEP-2322) through the elicitation port", () => {
  it.live("two rounds answered with the forms' defaults (--yes), on stdio and HTTP, and the same forms in the legacy era", () =>
    Effect.scoped(Effect.gen(function*() {
      const { url } = yield* httpServer(v2HttpServer)
      const servers = [
        nodeServer("stdio", v2StdioServer),
        server("http", { url }),
        server("old", { command: process.execPath, args: [v2StdioServer], protocol: "legacy" })
      ]
      yield* Effect.gen(function*() {
        expect(yield* eraOf("stdio")).toBe("modern")
        expect(yield* eraOf("http")).toBe("modern")
        expect(yield* eraOf("old")).toBe("legacy")
        for (const name of ["stdio", "http", "old"]) {
          const { result } = yield* call(`mcp__${name}__deploy`, { env: "prod" })
          expect(textOf(result)).toBe("deployed to prod: tests")
        }
      }).pipe(Effect.provide(hostWith(servers)))
    })), 60_000)

  it.live("requestState comes back byte-exact", () =>
    Effect.gen(function*() {
      const { result } = yield* call("mcp__e__stateful").pipe(Effect.provide(hostWith([nodeServer("e", v2ErasServer)])))
      expect(textOf(result)).toBe("state ok, answer yes")
    }), 60_000)

  it.live("declined without a terminal: the server gets a decline and says so", () =>
    Effect.gen(function*() {
      const { result } = yield* call("mcp__e__stateful").pipe(Effect.provide(hostWith([nodeServer("e", v2ErasServer)], Elicitation.layerDecline)))
      expect(textOf(result)).toBe("state ok, answer undefined")
    }), 60_000)

  it.live("a server that never stops asking fails after the round limit, naming the server and the tool", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(call("mcp__e__forever").pipe(Effect.provide(hostWith([nodeServer("e", v2ErasServer)]))))
      expect(error.message).toContain(`Server "e" kept asking for input: tool "forever" answered input_required`)
    }), 60_000)
})

describe("catalogue changes on modern servers (subscriptions/listen)", () => {
  for (const transport of ["stdio", "http"] as const) {
    it.live(`a tool added on a ${transport} server drops the cached list and publishes ListChanged`, () =>
      Effect.scoped(Effect.gen(function*() {
        const target = transport === "http"
          ? server("v2", { url: (yield* httpServer(v2HttpServer)).url })
          : nodeServer("v2", v2StdioServer)
        yield* Effect.gen(function*() {
          const pool = yield* ConnectionPool
          const registry = yield* ToolRegistry
          const events = yield* PubSub.subscribe(pool.events)
          expect(yield* eraOf("v2")).toBe("modern")
          const before = (yield* registry.listServer("v2")).map((t) => t.tool)
          expect(before).not.toContain("extra_x")
          yield* call("mcp__v2__add_tool", { name: "x" })
          let event: PoolEvent
          do event = yield* Queue.take(events)
          while (event._tag !== "ListChanged")
          expect(event).toEqual({ _tag: "ListChanged", server: "v2", list: "tools" })
          const after = (yield* registry.listServer("v2")).map((t) => t.tool)
          expect(after).toContain("extra_x")
        }).pipe(Effect.provide(hostWith([target])))
      })), 60_000)
  }
})

/** A 127.0.0.1 HTTP server that counts every request it gets (for schemas that must never be fetched). */
const recordingServer = Effect.acquireRelease(
  Effect.async<{ readonly url: string; readonly hits: () => number; readonly close: () => void }>((resume) => {
    let hits = 0
    const http = createServer((_req, res) => {
      hits++
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ type: "string" }))
    })
    http.listen(0, "127.0.0.1", () => {
      const port = (http.address() as { port: number }).port
      resume(Effect.succeed({ url: `http://127.0.0.1:${port}/schema.json`, hits: () => hits, close: () => http.close() }))
    })
  }),
  (s) => Effect.sync(() => s.close())
)

const schema2020 = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: {
    point: { type: "array", prefixItems: [{ type: "number" }, { type: "number" }], items: false },
    tag: { $ref: "#/$defs/tag" }
  },
  $defs: { tag: { type: "string", minLength: 1 } },
  required: ["point"]
}

describe("schemas and results", () => {
  it.live("a network $ref in a tool's output schema is never fetched (listing and calling)", () =>
    Effect.scoped(Effect.gen(function*() {
      const recorder = yield* recordingServer
      const { url } = yield* httpServer(v2ErasServer, ["--http", "--ref-url", recorder.url])
      for (const target of [nodeServer("e", v2ErasServer, ["--ref-url", recorder.url]), server("e", { url })]) {
        const { result } = yield* Effect.gen(function*() {
          yield* (yield* ToolRegistry).listServer("e")
          return yield* call("mcp__e__remote_ref")
        }).pipe(Effect.provide(hostWith([target])))
        expect(result.structuredContent).toEqual({ value: 1 })
      }
      expect(recorder.hits()).toBe(0)
    })), 60_000)

  it.live("2020-12 schemas are listed unchanged and a call validates against them", () =>
    Effect.gen(function*() {
      const out = yield* Effect.gen(function*() {
        const tool = (yield* (yield* ToolRegistry).listServer("e")).find((t) => t.tool === "schema_2020")!
        const { result } = yield* call("mcp__e__schema_2020", { point: [1, 2], tag: "t" })
        return { tool, result }
      }).pipe(Effect.provide(hostWith([nodeServer("e", v2ErasServer)])))
      expect(out.tool.inputSchema).toEqual(schema2020)
      expect(out.tool.outputSchema).toEqual(schema2020)
      expect(out.result.structuredContent).toEqual({ point: [1, 2], tag: "t" })
    }), 60_000)

  it.live("structuredContent may be an array in the modern era", () =>
    Effect.gen(function*() {
      const { result } = yield* call("mcp__e__list_result").pipe(Effect.provide(hostWith([nodeServer("e", v2ErasServer)])))
      expect(result.structuredContent).toEqual([1, 2, 3])
    }), 60_000)
})
