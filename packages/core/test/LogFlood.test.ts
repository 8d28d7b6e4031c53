/**
 * Server logs at near-zero cost: below the host's threshold a `notifications/message` is dropped
 * after a scan of its raw line (stdio) or a level comparison (parsed), never reaching the SDK's
 * schema dispatch (~0.1 ms a message: 100,000 at debug cost 12.9 s of CPU); at or above it, it
 * goes to the host's handler directly, with the same fields.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Host from "@mcpctl/core/Host"
import { McpConfig } from "@mcpctl/core/McpConfig"
import type { ServerLog } from "@mcpctl/core/Resources"
import { ToolRegistry } from "@mcpctl/core/ToolRegistry"
import { Transport } from "@mcpctl/core/Transport"
import * as Resilience from "@mcpctl/core/internal/pool/Resilience"
import type { Transport as SdkTransport } from "@modelcontextprotocol/client"
import * as Effect from "effect/Effect"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { HostClient, notificationShortcut } from "../src/internal/pool/hostClient.js"
import { logLevelOfLine } from "../src/internal/pool/logLine.js"
import { slow } from "./support/slow.js"

const floodServer = fileURLToPath(new URL("./support/logFloodServer.mjs", import.meta.url))

describe("logLevelOfLine", () => {
  const line = (o: unknown) => JSON.stringify(o)

  it("finds the level of a log notification, whatever the key order and spacing", () => {
    expect(logLevelOfLine(line({ jsonrpc: "2.0", method: "notifications/message", params: { level: "debug", data: "x" } }))).toBe("debug")
    expect(logLevelOfLine(line({ params: { data: { a: [1, "}", { b: null }] }, logger: "l", level: "info" }, method: "notifications/message", jsonrpc: "2.0" })))
      .toBe("info")
    expect(logLevelOfLine(' { "method" : "notifications/message" , "params" : { "level" : "error" } } ')).toBe("error")
    expect(logLevelOfLine(line({ method: "notifications/message", params: { level: "weird", data: 1.5e3, ok: true } }))).toBe("weird")
  })

  it("answers undefined where it is not sure, and the line is parsed as usual", () => {
    // A request, not a notification.
    expect(logLevelOfLine(line({ jsonrpc: "2.0", id: 1, method: "notifications/message", params: { level: "debug" } }))).toBeUndefined()
    // The method and level only inside data.
    expect(logLevelOfLine(line({ jsonrpc: "2.0", method: "notifications/progress", params: { data: { method: "notifications/message", level: "debug" } } })))
      .toBeUndefined()
    expect(logLevelOfLine(line({ jsonrpc: "2.0", id: 2, result: { method: "notifications/message", params: { level: "debug" } } }))).toBeUndefined()
    // Escapes in keys (`\u0069d` is "id" once parsed) or values, repeated keys, trailing text.
    expect(logLevelOfLine('{"method":"notifications/message","params":{"level":"debug"},"\\u0069d":5}')).toBeUndefined()
    expect(logLevelOfLine('{"method":"notifications\\/message","params":{"level":"debug"}}')).toBeUndefined()
    expect(logLevelOfLine('{"method":"notifications/message","params":{"level":"de\\u0062ug"}}')).toBeUndefined()
    expect(logLevelOfLine('{"method":"notifications/message","params":{"level":"debug","level":"error"}}')).toBeUndefined()
    expect(logLevelOfLine('{"method":"notifications/message","params":{"level":"debug"}} x')).toBeUndefined()
    expect(logLevelOfLine('{"method":"notifications/message","params":{"level":"debug"}')).toBeUndefined()
    expect(logLevelOfLine('{"method":"notifications/message","params":{"level":5}}')).toBeUndefined()
    expect(logLevelOfLine('{"method":"notifications/message"}')).toBeUndefined()
    expect(logLevelOfLine("")).toBeUndefined()
  })
})

/** The shortcut's answer for one whole line. */
const skips = (shortcut: { readonly skipsLine: (bytes: Uint8Array, start: number, end: number) => boolean }, line: string) => {
  const bytes = Buffer.from(line)
  return shortcut.skipsLine(bytes, 0, bytes.length)
}

describe("notificationShortcut", () => {
  const logs: Array<unknown> = []
  const client = () => {
    logs.length = 0
    const c = new HostClient({ name: "t", version: "0" })
    c.setServerLogHandler("warning", (p) => logs.push(p))
    return c
  }
  const note = (level: unknown, extra: Record<string, unknown> = {}) => ({ jsonrpc: "2.0" as const, method: "notifications/message", params: { level, ...extra } })

  it("drops below the threshold, hands the rest to the host's handler as received", () => {
    const shortcut = notificationShortcut(client())
    expect(shortcut.takes(note("debug"))).toBe(true)
    expect(shortcut.takes(note("warning", { logger: "l", data: { x: 1 } }))).toBe(true)
    expect(shortcut.takes(note("emergency"))).toBe(true)
    expect(logs).toEqual([{ level: "warning", logger: "l", data: { x: 1 } }, { level: "emergency" }])
    expect(skips(shortcut, JSON.stringify(note("info")))).toBe(true)
    expect(skips(shortcut, JSON.stringify(note("error")))).toBe(false)
    expect(skips(shortcut, '{"jsonrpc":"2.0","id":1,"result":{}}')).toBe(false)
    // A line in the middle of a chunk, with a CR before its newline.
    const chunk = Buffer.from(`{"id":1}\n${JSON.stringify(note("debug"))}\r\n{}`)
    expect(shortcut.skipsLine(chunk, 9, chunk.indexOf(0x0a, 9))).toBe(true)
    expect(shortcut.skipsLine(chunk, 0, 8)).toBe(false)
  })

  it("leaves to the SDK what its schema must judge, other methods, and clients without the host's handler", () => {
    const shortcut = notificationShortcut(client())
    expect(shortcut.takes(note("verbose"))).toBe(false)
    expect(shortcut.takes(note("constructor"))).toBe(false)
    expect(shortcut.takes(note("error", { logger: 5 }))).toBe(false)
    expect(shortcut.takes({ jsonrpc: "2.0", method: "notifications/progress", params: { level: "debug" } })).toBe(false)
    expect(skips(shortcut, JSON.stringify(note("constructor")))).toBe(false)
    const plain = new HostClient({ name: "t", version: "0" })
    plain.setNotificationHandler("notifications/message", () => undefined)
    expect(notificationShortcut(plain).takes(note("debug"))).toBe(false)
    expect(skips(notificationShortcut(plain), JSON.stringify(note("debug")))).toBe(false)
    // A handler set later replaces the host's: the shortcut stops.
    const replaced = client()
    replaced.setNotificationHandler("notifications/message", () => undefined)
    expect(notificationShortcut(replaced).takes(note("debug"))).toBe(false)
  })

  it("the pool's transport wrapper: taken notifications never reach the SDK, lines are offered unparsed", () => {
    const delivered: Array<unknown> = []
    const transport = {
      start: async () => undefined,
      close: async () => undefined,
      send: async () => undefined,
      skipLine: undefined as ((bytes: Uint8Array, start: number, end: number) => boolean) | undefined,
      onmessage: (m: unknown) => void delivered.push(m)
    }
    const c = client()
    Resilience.answerInvalidResponses(transport as unknown as SdkTransport, "s", undefined, () => true, notificationShortcut(c))
    expect(transport.skipLine?.(Buffer.from(JSON.stringify(note("debug"))), 0, JSON.stringify(note("debug")).length)).toBe(true)
    transport.onmessage(note("debug"))
    transport.onmessage(note("error"))
    transport.onmessage(note("verbose"))
    expect(logs).toEqual([{ level: "error" }])
    expect(delivered).toEqual([note("verbose")])
  })
})

const home = () => mkdtempSync(join(tmpdir(), "mcpctl-logflood-"))

const hostWith = (threshold: "warning" | "debug", write: (log: ServerLog) => void) =>
  Host.layer({
    config: McpConfig.layerStatic({
      servers: { f: { command: process.execPath, args: [floodServer] } },
      permissions: { allow: ["mcp__f__*"] },
      home: home()
    }),
    transport: Transport.layer,
    pins: false,
    serverLogs: { threshold, write }
  })

describe("a server-log flood through the host", () => {
  it.live("below the threshold: 200,000 debug messages shown none and cost little CPU (was ~0.1 ms each)", () => {
    const shown: Array<ServerLog> = []
    return Effect.gen(function*() {
      const registry = yield* ToolRegistry
      yield* registry.list()
      const cpu = process.cpuUsage()
      const { result } = yield* registry.call("mcp__f__flood", { count: 200_000 })
      const used = process.cpuUsage(cpu)
      expect(result.content).toEqual([{ type: "text", text: "sent 200000" }])
      expect(shown).toEqual([])
      // Generous: ~0.3 s here; the SDK's dispatch took ~20 s for as many.
      expect((used.user + used.system) / 1000).toBeLessThan(6_000)
    }).pipe(Effect.provide(hostWith("warning", (log) => void shown.push(log))))
  }, slow(120_000))

  it.live("at or above it: every message reaches the handler, in order, with its fields", () => {
    const shown: Array<ServerLog> = []
    return Effect.gen(function*() {
      const registry = yield* ToolRegistry
      yield* registry.list()
      yield* registry.call("mcp__f__flood", { count: 3_000, levels: ["debug", "warning", "info", "critical"] })
      expect(shown.length).toBe(1_500)
      expect(shown[0]).toEqual({ server: "f", level: "warning", logger: "f", data: "m1" })
      expect(shown[1]).toEqual({ server: "f", level: "critical", logger: "f", data: "m3" })
      expect(shown.at(-1)).toEqual({ server: "f", level: "critical", logger: "f", data: "m2999" })
    }).pipe(Effect.provide(hostWith("warning", (log) => void shown.push(log))))
  }, slow(60_000))

  it.live("at debug, all of them", () => {
    const shown: Array<ServerLog> = []
    return Effect.gen(function*() {
      const registry = yield* ToolRegistry
      yield* registry.list()
      yield* registry.call("mcp__f__flood", { count: 2_000, levels: ["debug", "emergency"] })
      expect(shown.length).toBe(2_000)
      expect(shown.filter((l) => l.level === "debug").length).toBe(1_000)
    }).pipe(Effect.provide(hostWith("debug", (log) => void shown.push(log))))
  }, slow(60_000))
})
