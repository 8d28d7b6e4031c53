/**
 * The Prometheus text endpoint of `serve --metrics [HOST:]PORT`: Effect's metrics (callMetrics.ts)
 * handed to OpenTelemetry's own `PrometheusExporter`, a metric reader with its own small HTTP
 * server (`GET /metrics`), through @effect/opentelemetry. Loaded only by a dynamic import when
 * the flag is given, so no other run pays for it.
 */
import * as Metrics from "@effect/opentelemetry/Metrics"
import * as Resource from "@effect/opentelemetry/Resource"
import { PrometheusExporter } from "@opentelemetry/exporter-prometheus"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

/** Serves `/metrics` on `host:port` while the layer lasts; resolves its port once listening. */
export const layer = (options: { readonly host: string; readonly port: number; readonly serviceVersion: string }) =>
  Layer.unwrapScoped(Effect.gen(function*() {
    const exporter = yield* Effect.async<PrometheusExporter, Error>((resume) => {
      const e: PrometheusExporter = new PrometheusExporter({ host: options.host, port: options.port, endpoint: "/metrics" }, (error) =>
        resume(error ? Effect.fail(error) : Effect.succeed(e)))
    })
    yield* Effect.addFinalizer(() => Effect.promise(() => exporter.stopServer().catch(() => undefined)))
    // The exporter pins sdk-metrics 2.12.0, @effect/opentelemetry's reader type is the hoisted
    // 2.12.x: the same class in two copies, which TypeScript tells apart by its private fields.
    return Metrics.layer(() => exporter as unknown as Parameters<typeof Metrics.layer>[0] extends () => infer R ? R : never).pipe(
      Layer.provide(Resource.layer({ serviceName: "mcpctl", serviceVersion: options.serviceVersion }))
    )
  }))
