/**
 * Tool-call metrics as Effect metrics, tagged by server and tool: every call, every failed one,
 * and their duration. Recording is a few map updates per call; nothing leaves the process unless
 * a metric reader is installed (`serve --metrics`, through @effect/opentelemetry: metricsExport.ts).
 */
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FiberRef from "effect/FiberRef"
import * as Metric from "effect/Metric"
import * as MetricBoundaries from "effect/MetricBoundaries"
import * as MetricKey from "effect/MetricKey"
import * as MetricLabel from "effect/MetricLabel"

const calls = MetricKey.counter("mcpctl_tool_calls", { description: "Tool calls, by server and tool", incremental: true })
const errors = MetricKey.counter("mcpctl_tool_call_errors", { description: "Tool calls that failed (not a tool result with isError)", incremental: true })
const duration = MetricKey.histogram(
  "mcpctl_tool_call_duration_ms",
  MetricBoundaries.exponential({ start: 1, factor: 2, count: 18 }),
  "Tool call duration in milliseconds, by server and tool"
)

interface Tracked {
  readonly calls: Metric.Metric.Counter<number>
  readonly errors: Metric.Metric.Counter<number>
  readonly duration: Metric.Metric.Histogram<number>
}

// One set of metrics per server and tool, labels in their keys: `Metric.taggedWithLabels` joins
// the labels into a new array on every update, which misses Effect's hook cache and hashes the
// key into the registry on each call (the largest per-call cost here, bench/).
const tracked = new Map<string, Tracked>()

const trackedOf = (server: string, tool: string): Tracked => {
  const id = `${server}\u0000${tool}`
  let t = tracked.get(id)
  if (t === undefined) {
    const labels = [MetricLabel.make("server", server), MetricLabel.make("tool", tool)]
    t = {
      calls: Metric.fromMetricKey(MetricKey.taggedWithLabels(calls, labels)),
      errors: Metric.fromMetricKey(MetricKey.taggedWithLabels(errors, labels)),
      duration: Metric.fromMetricKey(MetricKey.taggedWithLabels(duration, labels))
    }
    tracked.set(id, t)
  }
  return t
}

/**
 * Counts and times `effect` as one call of `tool` on `server`. One `onExit` whose recording is
 * plain code (the fiber's clock, its metric labels, `unsafeUpdate`): as `Clock.currentTimeMillis`
 * and `Metric.increment`/`update` steps it was about a dozen fiber steps on every call (bench/).
 */
export const trackCall = (server: string, tool: string) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> => {
  const t = trackedOf(server, tool)
  return Effect.withFiberRuntime<A, E, R>((fiber) => {
    const clock = Context.get(fiber.currentDefaultServices, Clock.Clock)
    const started = clock.unsafeCurrentTimeMillis()
    return Effect.onExit(effect, (exit) =>
      Effect.sync(() => {
        // The labels `Effect.labelMetrics` put on the fiber, as `Metric.update` reads them.
        const labels = fiber.getFiberRef(FiberRef.currentMetricLabels)
        // A call that answered or failed counts; an interrupted one is only timed.
        if (Exit.isSuccess(exit)) t.calls.unsafeUpdate(1, labels)
        else if (Cause.isFailure(exit.cause)) {
          t.calls.unsafeUpdate(1, labels)
          t.errors.unsafeUpdate(1, labels)
        }
        t.duration.unsafeUpdate(clock.unsafeCurrentTimeMillis() - started, labels)
      }))
  })
}
