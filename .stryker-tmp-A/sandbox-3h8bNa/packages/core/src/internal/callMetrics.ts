/**
 * Tool-call metrics as Effect metrics, tagged by server and tool: every call, every failed one,
 * and their duration. Recording is a few map updates per call; nothing leaves the process unless
 * a metric reader is installed (`serve --metrics`, through @effect/opentelemetry: metricsExport.ts).
 */
// @ts-nocheck

import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Metric from "effect/Metric"
import * as MetricBoundaries from "effect/MetricBoundaries"
import * as MetricLabel from "effect/MetricLabel"

const calls = Metric.counter("mcpctl_tool_calls", { description: "Tool calls, by server and tool", incremental: true })
const errors = Metric.counter("mcpctl_tool_call_errors", { description: "Tool calls that failed (not a tool result with isError)", incremental: true })
const duration = Metric.histogram(
  "mcpctl_tool_call_duration_ms",
  MetricBoundaries.exponential({ start: 1, factor: 2, count: 18 }),
  "Tool call duration in milliseconds, by server and tool"
)

/** Counts and times `effect` as one call of `tool` on `server`. */
export const trackCall = (server: string, tool: string) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> => {
  const labels = [MetricLabel.make("server", server), MetricLabel.make("tool", tool)]
  const callsOf = Metric.taggedWithLabels(calls, labels), errorsOf = Metric.taggedWithLabels(errors, labels)
  return Effect.flatMap(Clock.currentTimeMillis, (started) =>
    effect.pipe(
      Effect.tap(() => Metric.increment(callsOf)),
      Effect.tapError(() => Effect.zipRight(Metric.increment(callsOf), Metric.increment(errorsOf))),
      Effect.ensuring(Effect.flatMap(Clock.currentTimeMillis, (now) => Metric.update(Metric.taggedWithLabels(duration, labels), now - started)))
    ))
}
