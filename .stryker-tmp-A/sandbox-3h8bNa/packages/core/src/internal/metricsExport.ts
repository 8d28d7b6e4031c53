/**
 * The Prometheus text endpoint of `serve --metrics [HOST:]PORT`: Effect's metrics (callMetrics.ts)
 * handed to OpenTelemetry's own `PrometheusExporter` (a metric reader and its text format),
 * through @effect/opentelemetry. The exporter's own listener treats port 0 as "its default 9464",
 * so it is not started: `GET /metrics` on a listener bound here goes to the exporter's request
 * handler. Loaded only by a dynamic import when the flag is given (Host.serveMetrics).
 */
// @ts-nocheck

import * as Metrics from "@effect/opentelemetry/Metrics"
import * as Resource from "@effect/opentelemetry/Resource"
import { PrometheusExporter } from "@opentelemetry/exporter-prometheus"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import { createServer } from "node:http"

/** Where and as what the endpoint serves. */
export interface MetricsOptions {
  readonly host: string
  /** 0 picks a free port. */
  readonly port: number
  readonly serviceVersion: string
}

/**
 * Serves `GET /metrics` on `host:port` while the scope lasts; succeeds with its URL once
 * listening. A port that cannot be bound fails.
 */
export const serve = (options: MetricsOptions): Effect.Effect<string, Error, Scope.Scope> =>
  Effect.gen(function*() {
    const exporter = new PrometheusExporter({ preventServerStart: true })
    // The exporter pins sdk-metrics 2.12.0, @effect/opentelemetry's reader type is the hoisted
    // 2.12.x: the same class in two copies, which TypeScript tells apart by its private fields.
    const reader = exporter as unknown as Parameters<typeof Metrics.layer>[0] extends () => infer R ? R : never
    yield* Layer.buildWithScope(
      Metrics.layer(() => reader).pipe(Layer.provide(Resource.layer({ serviceName: "mcpctl", serviceVersion: options.serviceVersion }))),
      yield* Effect.scope
    )
    const listener = createServer((req, res) => {
      const path = (req.url ?? "").split("?")[0]
      if (path === "/metrics" && (req.method === "GET" || req.method === "HEAD")) return exporter.getMetricsRequestHandler(req, res)
      res.writeHead(404, { "content-type": "text/plain" }).end("not found\n")
    })
    const port = yield* Effect.acquireRelease(
      Effect.async<number, Error>((resume) => {
        listener.once("error", (e) => resume(Effect.fail(e)))
        listener.listen(options.port, options.host, () => resume(Effect.succeed((listener.address() as { port: number }).port)))
      }),
      () =>
        Effect.async<void>((resume) => {
          listener.close(() => resume(Effect.void))
          listener.closeAllConnections()
        })
    )
    const host = options.host.includes(":") ? `[${options.host}]` : options.host
    return `http://${host}:${port}/metrics`
  })
