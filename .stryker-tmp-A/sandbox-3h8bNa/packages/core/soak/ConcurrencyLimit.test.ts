// @ts-nocheck
import { describe, expect, it } from "@effect/vitest"
import { McpConfig } from "@mcpctl/core/McpConfig"
import { ConnectionPool } from "@mcpctl/core/ConnectionPool"
import { Transport } from "@mcpctl/core/Transport"
import * as fixtures from "@mcpctl/testing/Fixtures"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

/**
 * The servers themselves log when they start and when they are initialized; the most intervals
 * open at one moment is the real number of servers connecting at once.
 */
const maxOverlap = (log: string): number => {
  const events = log.trim().split("\n").map((line) => {
    const [, what, at] = line.split(" ")
    return { at: Number(at), delta: what === "start" ? 1 : -1 }
  })
  // Ends before starts at the same millisecond: a permit handed over is not an overlap.
  events.sort((a, b) => a.at - b.at || a.delta - b.delta)
  let open = 0
  let max = 0
  for (const e of events) max = Math.max(max, (open += e.delta))
  return max
}

describe("connection concurrency", () => {
  const run = (servers: number, local?: number) => {
    const dir = mkdtempSync(join(tmpdir(), "mcpctl-limit-"))
    const log = join(dir, "starts.log")
    const config = McpConfig.layerStatic({
      servers: Object.fromEntries(
        Array.from({ length: servers }, (_, i) => [
          `s${i}`,
          { command: process.execPath, args: [fixtures.echoServer, "--start-log", log, "--start-delay", "800"] }
        ])
      ),
      limits: local === undefined ? {} : { localConcurrency: local }
    })
    const pool = ConnectionPool.layer.pipe(Layer.provide(Transport.layer), Layer.provide(config))
    return Effect.gen(function*() {
      const states = yield* Effect.flatMap(ConnectionPool, (p) => p.connectAll())
      expect(states.map((s) => s.status)).toEqual(Array(servers).fill("connected"))
      return maxOverlap(readFileSync(log, "utf8"))
    }).pipe(
      Effect.provide(pool),
      Effect.scoped,
      Effect.ensuring(Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
    )
  }

  it.live("at most 3 stdio servers start and initialize at once by default, and 3 do overlap", () =>
    Effect.gen(function*() {
      const overlap = yield* run(7)
      expect(overlap).toBe(3)
    }), 60_000)

  it.live("the limit is a setting: 1 means strictly one after another", () =>
    Effect.gen(function*() {
      expect(yield* run(3, 1)).toBe(1)
    }), 60_000)

  it("maxOverlap counts open intervals", () => {
    expect(maxOverlap("1 start 0\n2 start 1\n1 ready 2\n3 start 2\n2 ready 3\n3 ready 4")).toBe(2)
  })
})
