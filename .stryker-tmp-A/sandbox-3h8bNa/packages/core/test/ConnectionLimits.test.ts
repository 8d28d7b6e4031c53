/**
 * The pool's connection limits (MCP_SERVER_CONNECTION_BATCH_SIZE, MCP_REMOTE_SERVER_CONNECTION_BATCH_SIZE)
 * over in-memory servers, in TestClock time: each open takes 800 ms of test time, so the servers
 * that connect at once are exactly those whose open → initialized spans overlap. The same promise
 * on real processes is the soak test packages/core/soak/ConcurrencyLimit.test.ts.
 */
// @ts-nocheck

import { describe, expect, it } from "@effect/vitest"
import { Fixtures, InMemory } from "@mcpctl/testing"
import { ConnectionPool } from "@mcpctl/core/ConnectionPool"
import type { Limits, ResolvedServer } from "@mcpctl/core/ServerConfig"
import { Transport } from "@mcpctl/core/Transport"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as TestClock from "effect/TestClock"

const OPEN_MS = 800

/** One connection attempt: when its open started and when its handshake ended, in test-clock ms. */
interface Span {
  readonly server: string
  readonly start: number
  end?: number
}

/**
 * A counting Transport layer: every open takes `OPEN_MS` of clock time before the inner layer
 * opens, and each span ends when the client sends `notifications/initialized` (the end of the
 * handshake the limit covers).
 */
const counting = (inner: Layer.Layer<Transport>) => {
  const spans: Array<Span> = []
  const layer = Layer.effect(
    Transport,
    Effect.map(Transport, (base) =>
      Transport.of({
        open: (server, kind) =>
          Effect.gen(function*() {
            const span: Span = { server: server.name, start: yield* Clock.currentTimeMillis }
            spans.push(span)
            yield* Effect.sleep(OPEN_MS)
            const opened = yield* base.open(server, kind)
            const clock = yield* Effect.clock
            const send = opened.transport.send.bind(opened.transport)
            opened.transport.send = (message, options) => {
              if ("method" in message && message.method === "notifications/initialized") {
                span.end = clock.unsafeCurrentTimeMillis()
              }
              return send(message, options)
            }
            return opened
          })
      }))
  ).pipe(Layer.provide(inner))
  return { layer, spans }
}

/** The most spans open at one moment; an end and a start at the same ms are a handover, not an overlap. */
const maxOverlap = (spans: ReadonlyArray<Span>): number => {
  const events = spans.flatMap((s) => [{ at: s.start, delta: 1 }, { at: s.end ?? Infinity, delta: -1 }])
  events.sort((a, b) => a.at - b.at || a.delta - b.delta)
  let open = 0
  let max = 0
  for (const e of events) max = Math.max(max, (open += e.delta))
  return max
}

/** Connects every server through the pool while the test clock moves on in small steps. */
const connectAll = (servers: ReadonlyArray<ResolvedServer>, limits: Partial<Limits> = {}) =>
  Effect.gen(function*() {
    const factories = Object.fromEntries(servers.map((s) => [s.name, InMemory.scriptedServer([])]))
    const { layer, spans } = counting(InMemory.layer(factories))
    const pool = ConnectionPool.layer.pipe(Layer.provide(layer), Layer.provide(Fixtures.config({ servers, limits })))
    const fiber = yield* Effect.fork(
      Effect.flatMap(ConnectionPool, (p) => p.connectAll()).pipe(Effect.provide(pool), Effect.scoped)
    )
    for (let step = 0; step < 1_000 && fiber.unsafePoll() === null; step++) yield* TestClock.adjust("100 millis")
    const states = yield* Fiber.join(fiber)
    expect(states.map((s) => s.status)).toEqual(servers.map(() => "connected"))
    expect(spans.every((s) => s.end !== undefined)).toBe(true)
    const of = (names: ReadonlyArray<ResolvedServer>) => spans.filter((s) => names.some((n) => n.name === s.server))
    return { spans, of }
  })

const stdio = (n: number, prefix = "s") => Array.from({ length: n }, (_, i) => Fixtures.inMemory(`${prefix}${i}`))
const remote = (n: number) => Array.from({ length: n }, (_, i) => Fixtures.inMemoryRemote(`r${i}`))

describe("connection limits", () => {
  it.effect("at most 3 stdio servers connect at once by default, and 3 do", () =>
    Effect.gen(function*() {
      const { spans } = yield* connectAll(stdio(7))
      expect(maxOverlap(spans)).toBe(3)
      // 7 servers, 3 at a time: the last one can only start in the third round.
      expect(Math.max(...spans.map((s) => s.start))).toBeGreaterThanOrEqual(2 * OPEN_MS)
    }))

  it.effect("the local limit is a setting: 1 means strictly one after another", () =>
    Effect.gen(function*() {
      const { spans } = yield* connectAll(stdio(3), { localConcurrency: 1 })
      expect(maxOverlap(spans)).toBe(1)
      // Each open starts only after the one before it took its OPEN_MS (the in-memory handshake
      // runs on real promises while the test clock steps, so a loaded machine may add steps).
      const starts = spans.map((s) => s.start).sort((a, b) => a - b)
      expect(starts[0]).toBe(0)
      for (let i = 1; i < starts.length; i++) expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(OPEN_MS)
    }))

  it.effect("stdio and remote servers have limits of their own, and do not wait for each other", () =>
    Effect.gen(function*() {
      const local = stdio(4)
      const remotes = remote(5)
      const { of } = yield* connectAll([...local, ...remotes], { localConcurrency: 2, remoteConcurrency: 3 })
      expect(maxOverlap(of(local))).toBe(2)
      expect(maxOverlap(of(remotes))).toBe(3)
      expect(maxOverlap([...of(local), ...of(remotes)])).toBe(5)
    }))

  it("maxOverlap counts open spans, a handover at the same ms not being an overlap", () => {
    expect(maxOverlap([{ server: "a", start: 0, end: 2 }, { server: "b", start: 1, end: 3 }, { server: "c", start: 2, end: 4 }]))
      .toBe(2)
    expect(maxOverlap([{ server: "a", start: 0, end: 1 }, { server: "b", start: 1, end: 2 }])).toBe(1)
  })
})
