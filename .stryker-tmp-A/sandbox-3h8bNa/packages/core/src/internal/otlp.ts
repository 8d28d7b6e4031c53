/**
 * OTLP trace export (Effect's own exporter: OTLP/JSON over `fetch`, no OpenTelemetry SDK).
 * Loaded only through a dynamic import from `Host.layerTracing`, so a run without
 * `OTEL_EXPORTER_OTLP_ENDPOINT` never loads it.
 */
// @ts-nocheck

import * as OtlpSerialization from "@effect/opentelemetry/OtlpSerialization"
import * as OtlpTracer from "@effect/opentelemetry/OtlpTracer"
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as Layer from "effect/Layer"
import { externalParent } from "./traceContext.js"

/** Options of the exporter: where traces go and how the service names itself. */
export interface OtlpOptions {
  /** The traces endpoint itself (`…/v1/traces`). */
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly serviceName: string
  readonly serviceVersion: string
  /** A parent from outside (`TRACEPARENT`/`TRACESTATE`): the run's spans join that trace. */
  readonly parent?: { readonly traceparent: string; readonly tracestate?: string } | undefined
}

/** A tracer that batches spans and posts them; the last batch is sent when the scope closes. */
export const layer = (options: OtlpOptions): Layer.Layer<never> => {
  const parent = options.parent && externalParent(options.parent.traceparent, options.parent.tracestate)
  return parent ? Layer.merge(tracer(options), Layer.parentSpan(parent)) : tracer(options)
}

const tracer = (options: OtlpOptions): Layer.Layer<never> =>
  OtlpTracer.layer({
    url: options.url,
    headers: options.headers,
    resource: { serviceName: options.serviceName, serviceVersion: options.serviceVersion },
    // A CLI run is short: what is left goes out when the scope closes, bounded by this (a collector that is down delays the exit by at most this).
    shutdownTimeout: "1 second"
  }).pipe(Layer.provide(Layer.merge(FetchHttpClient.layer, OtlpSerialization.layerJson)))
