/** Tool-call metrics (callMetrics.ts): calls, errors and duration, tagged by server and tool. */
// @ts-nocheck

import { describe, expect, it } from "@effect/vitest"
import { trackCall } from "../src/internal/callMetrics.js"
import * as Effect from "effect/Effect"
import * as Metric from "effect/Metric"
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
})
