/**
 * W3C Trace Context in a request's `_meta` (SEP-414): `traceparent` and `tracestate`. The pool
 * puts the request's span here (an AsyncLocalStorage, because the SDK awaits between the
 * pool's call and the message it builds) and `HostClient.request` copies it into `params._meta`.
 * Only when a tracer other than Effect's default is installed: with tracing off nothing is
 * stored and the SDK's request is untouched.
 */
// @ts-nocheck

import { AsyncLocalStorage } from "node:async_hooks"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Tracer from "effect/Tracer"

/** The keys a request carries. */
export interface TraceMeta {
  readonly traceparent: string
  readonly tracestate?: string
}

/**
 * The `tracestate` that came with a parent from outside (the `TRACESTATE` variable): kept in
 * the external span's context, so every span of that trace forwards it unchanged.
 */
export class TraceState extends Context.Tag("@mcpctl/core/TraceState")<TraceState, string>() {}

/** Effect's own tracer: spans under it are never exported, so nothing is propagated. */
export const defaultTracer: Tracer.Tracer = Effect.runSync(Effect.tracer)

const store = new AsyncLocalStorage<TraceMeta>()

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/

/** `00-<trace-id>-<parent-id>-<flags>` of a span (pure). */
export const formatTraceparent = (span: { readonly traceId: string; readonly spanId: string; readonly sampled: boolean }): string =>
  `00-${span.traceId}-${span.spanId}-${span.sampled ? "01" : "00"}`

/**
 * A `traceparent` value as trace id, span id and sampled flag (pure); undefined when malformed,
 * of the forbidden version `ff`, or with an all-zero id (W3C Trace Context §3.2).
 */
export const parseTraceparent = (
  value: string
): { readonly traceId: string; readonly spanId: string; readonly sampled: boolean } | undefined => {
  const match = TRACEPARENT.exec(value.trim().toLowerCase())
  if (!match) return undefined
  const [, version, traceId, spanId, flags] = match as unknown as [string, string, string, string, string]
  if (version === "ff" || /^0+$/.test(traceId) || /^0+$/.test(spanId)) return undefined
  return { traceId, spanId, sampled: (parseInt(flags, 16) & 1) === 1 }
}

/** The `_meta` keys for a span: its traceparent, and the tracestate its trace came in with. */
export const traceMetaOf = (span: Tracer.AnySpan): TraceMeta => {
  const traceparent = formatTraceparent(span)
  let current: Tracer.AnySpan = span
  while (current._tag === "Span" && Option.isSome(current.parent)) current = current.parent.value
  const state = current._tag === "ExternalSpan" && current.traceId === span.traceId
    ? Context.getOption(current.context, TraceState)
    : Option.none()
  return Option.isSome(state) && state.value !== "" ? { traceparent, tracestate: state.value } : { traceparent }
}

/** Runs `f` with `meta` as the trace context of the requests it sends. */
export const withTraceMeta = <A>(meta: TraceMeta, f: () => A): A => store.run(meta, f)

/** The trace context of the request being built, if the pool set one. */
export const currentTraceMeta = (): TraceMeta | undefined => store.getStore()

/** `params` with the trace keys in its `_meta` (a copy; the caller's object is not changed). */
export const withMetaKeys = (
  params: Readonly<Record<string, unknown>> | undefined,
  meta: TraceMeta
): Record<string, unknown> => ({ ...params, _meta: { ...(params?._meta as Record<string, unknown> | undefined), ...meta } })

/** A parent span from outside (`TRACEPARENT`, `TRACESTATE`), or undefined when malformed. */
export const externalParent = (traceparent: string, tracestate: string | undefined): Tracer.ExternalSpan | undefined => {
  const parsed = parseTraceparent(traceparent)
  if (parsed === undefined) return undefined
  const state = tracestate?.trim()
  return Tracer.externalSpan({
    ...parsed,
    context: (state ? Context.make(TraceState, state) : Context.empty()) as Context.Context<never>
  })
}
