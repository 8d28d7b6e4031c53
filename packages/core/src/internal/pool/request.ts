/**
 * The pool's one Promise boundary: an SDK request as `Effect<A, RequestError>`. This is the only
 * `Effect.async` on the request path. Interruption aborts the request's signal here and nowhere
 * else (the SDK then sends `notifications/cancelled`), as `@effect/platform`'s HTTP client does;
 * a failure is classified here once (RequestErrors.ts). What happens next (counting the failure
 * against its connection, sending once more) is the pool's: `ConnectionPool.run`.
 */
import type { Client } from "@modelcontextprotocol/client"
import * as Effect from "effect/Effect"
import { classifyRequestFailure, type RequestError } from "./RequestErrors.js"
import { defaultTracer, traceMetaOf, withTraceMeta } from "../traceContext.js"

/** What the driver needs of a connection. */
export interface RequestTarget {
  readonly server: { readonly name: string }
  readonly client: Client
}

/** Options of one SDK request. */
export interface RequestOptions {
  /**
   * Sending it twice is harmless: only the message of a lost `tools/call` depends on it (the
   * pool decides the resend with the same flag). Default: true for all but `tools/call`.
   */
  readonly idempotent?: boolean | undefined
  /** The tool a `tools/call` is for, named in the message of a round-limit failure. */
  readonly tool?: string | undefined
  /**
   * Aborting it cancels the request on the server too, as interruption does; the request then
   * fails with an `McpRequestError`. Derived per request, so a long-lived signal collects no
   * listener of the SDK's.
   */
  readonly signal?: AbortSignal | undefined
}

/**
 * Controllers of requests that settled without being aborted, handed to the next requests:
 * making an `AbortController` (and its signal) for every request was the largest cost the
 * driver added to a call (bench/). A settled request's SDK listener is gone (the SDK removes it
 * when the request settles), so a reused signal carries nothing of it; an aborted one is dropped.
 */
const spare: Array<AbortController> = []
export const SPARE_MAX = 64

/**
 * Sends one SDK request over `target`'s client. `send` gets the signal the SDK must watch:
 * aborted when the effect is interrupted (or `options.signal` aborts). With a tracer other than
 * Effect's default installed, the request carries the current span as its trace context.
 */
export const request = <A>(
  target: RequestTarget,
  method: string,
  send: (client: Client, signal: AbortSignal) => Promise<A>,
  options?: RequestOptions
): Effect.Effect<A, RequestError> =>
  Effect.withFiberRuntime((fiber) => {
    const span = fiber.currentTracer === defaultTracer ? undefined : fiber.currentSpan
    // One-argument register: Effect makes no controller of its own; the canceller aborts ours.
    return Effect.async<A, RequestError>((resume) => {
      const controller = spare.pop() ?? new AbortController()
      const signal = options?.signal ? AbortSignal.any([controller.signal, options.signal]) : controller.signal
      let settled = false
      const release = () => {
        settled = true
        if (!controller.signal.aborted && spare.length < SPARE_MAX) spare.push(controller)
      }
      const failed = (cause: unknown) => {
        release()
        const idempotent = options?.idempotent ?? method !== "tools/call"
        resume(Effect.fail(classifyRequestFailure(target.server.name, method, cause, { idempotent, tool: options?.tool }).error))
      }
      try {
        const sent = span === undefined
          ? send(target.client, signal)
          : withTraceMeta(traceMetaOf(span), () => send(target.client, signal))
        sent.then((value) => {
          release()
          resume(Effect.succeed(value))
        }, failed)
      } catch (cause) {
        failed(cause)
      }
      // Run once, on interruption. Not after `release`: the controller may serve another
      // request by then. An aborted controller is never handed on (`release`).
      return Effect.sync(() => {
        if (!settled) controller.abort()
      })
    })
  })
