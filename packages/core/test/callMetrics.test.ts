/** Tool-call metrics (callMetrics.ts): calls, errors and duration, tagged by server and tool. */
import { describe, expect, it } from "@effect/vitest"
import { trackCall } from "../src/internal/callMetrics.js"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Metric from "effect/Metric"
import * as MetricLabel from "effect/MetricLabel"
import * as TestClock from "effect/TestClock"

const countOf = (name: string, tool: string) =>
  Effect.map(Metric.snapshot, (pairs) =>
    pairs
      .filter((p) => p.metricKey.name === name && p.metricKey.tags.some((t) => t.key === "tool" && t.value === tool))
      .map((p) => (p.metricState as { count?: number }).count ?? 0)
      .reduce((a, b) => a + b, 0))

describe("tool-call metrics", () => {
  it.effect("counts calls and failed calls and times them, by server and tool", () =>
    Effect.gen(function*() {
      const tool = `t${Math.random().toString(36).slice(2)}`
      yield* Effect.succeed(1).pipe(trackCall("srv", tool))
      yield* Effect.exit(Effect.fail("boom").pipe(trackCall("srv", tool)))
      const slow = yield* Effect.fork(Effect.sleep("250 millis").pipe(trackCall("srv", tool)))
      yield* TestClock.adjust("250 millis")
      yield* slow.await
      expect(yield* countOf("mcpctl_tool_calls", tool)).toBe(3)
      expect(yield* countOf("mcpctl_tool_call_errors", tool)).toBe(1)
      expect(yield* countOf("mcpctl_tool_call_duration_ms", tool)).toBe(3)
    }))

  it.effect("times a call by the fiber's clock, times an interrupted one without counting it, and keeps the fiber's metric labels", () =>
    Effect.gen(function*() {
      const tool = `t${Math.random().toString(36).slice(2)}`
      const durationOf = Effect.map(Metric.snapshot, (pairs) =>
        pairs
          .filter((p) => p.metricKey.name === "mcpctl_tool_call_duration_ms" && p.metricKey.tags.some((t) => t.key === "tool" && t.value === tool))
          .map((p) => p.metricState as unknown as { count: number; sum: number; min: number; max: number }))
      // TestClock: 250 ms pass only when the test says so; a wall clock would record ~0.
      const slow = yield* Effect.fork(Effect.sleep("250 millis").pipe(trackCall("srv", tool)))
      yield* TestClock.adjust("250 millis")
      yield* Fiber.join(slow)
      const [timed] = yield* durationOf
      expect(timed).toMatchObject({ count: 1, sum: 250 })
      // Interrupted after 40 ms: timed (40), not counted as a call or an error.
      const stuck = yield* Effect.fork(Effect.never.pipe(trackCall("srv", tool)))
      yield* TestClock.adjust("40 millis")
      yield* Fiber.interrupt(stuck)
      expect((yield* durationOf)[0]).toMatchObject({ count: 2, sum: 290 })
      expect(yield* countOf("mcpctl_tool_calls", tool)).toBe(1)
      expect(yield* countOf("mcpctl_tool_call_errors", tool)).toBe(0)
      // Labels put on the fiber (`Effect.labelMetrics`) are on the call's metrics too.
      yield* Effect.fail("boom").pipe(trackCall("srv", tool), Effect.exit, Effect.labelMetrics([MetricLabel.make("tenant", "a")]))
      const labelled = (yield* Metric.snapshot).filter((p) =>
        p.metricKey.name === "mcpctl_tool_call_errors" && p.metricKey.tags.some((t) => t.key === "tool" && t.value === tool) &&
        p.metricKey.tags.some((t) => t.key === "tenant" && t.value === "a"))
      expect(labelled.map((p) => (p.metricState as { count?: number }).count)).toEqual([1])
    }))
})
