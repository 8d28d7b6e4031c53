/**
 * The request driver (internal/pool/request.ts): the trace context a request carries, the
 * default `idempotent` of a `tools/call`, and its spare controllers — a settled request's
 * controller is never aborted by a late interruption, an aborted one is never handed on, and
 * only `SPARE_MAX` are kept.
 */
import { describe, expect, it } from "@effect/vitest"
import type { Client } from "@modelcontextprotocol/client"
import { SdkError, SdkErrorCode } from "@modelcontextprotocol/client"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as FiberId from "effect/FiberId"
import * as Tracer from "effect/Tracer"
import { request, SPARE_MAX } from "../src/internal/pool/request.js"
import type { RequestError } from "../src/internal/pool/RequestErrors.js"
import { currentTraceMeta, formatTraceparent, type TraceMeta } from "../src/internal/traceContext.js"

const target = { server: { name: "alpha" }, client: {} as Client }

/** A tracer other than Effect's default: its spans are the default's, but it is not the default. */
const otherTracer = Effect.map(Effect.tracer, (base) =>
  Tracer.make({ span: (...args) => base.span(...args), context: (f, fiber) => base.context(f, fiber) }))

describe("request (the driver): trace context", () => {
  it.effect("with another tracer installed, send runs with the current span as its trace context", () =>
    Effect.gen(function*() {
      const tracer = yield* otherTracer
      let seen: TraceMeta | undefined
      const span = yield* Effect.withTracer(
        Effect.withSpan(
          Effect.zipRight(
            request(target, "tools/list", () => (seen = currentTraceMeta(), Promise.resolve(1))),
            Effect.currentSpan
          ),
          "outer"
        ),
        tracer
      )
      expect(seen).toEqual({ traceparent: formatTraceparent(span) })
    }))

  it.effect("under Effect's default tracer, even inside a span, send runs with none", () =>
    Effect.gen(function*() {
      let seen: TraceMeta | undefined | "not called" = "not called"
      const value = yield* Effect.withSpan(
        request(target, "tools/list", () => (seen = currentTraceMeta(), Promise.resolve(7))),
        "outer"
      )
      expect(value).toBe(7)
      expect(seen).toBeUndefined()
    }))
})

describe("request (the driver): idempotent by default", () => {
  it.effect("a lost tools/call without options is taken as not idempotent: its message says it was not repeated", () =>
    Effect.gen(function*() {
      const cause = new SdkError(SdkErrorCode.ConnectionClosed, "Connection closed")
      const error = yield* Effect.flip(request(target, "tools/call", () => Promise.reject(cause)))
      expect(error).toMatchObject({ _tag: "TransportFailure", mayHaveRun: true })
      expect(error.message).toContain("it was not repeated because the tool is neither read-only nor idempotent")
    }))
})

describe("request (the driver): spare controllers", () => {
  it.effect("an interruption that comes after the answer does not abort the controller handed on", () =>
    Effect.gen(function*() {
      const sent = yield* Deferred.make<AbortSignal>()
      let answer: (() => void) | undefined
      let fiber: Fiber.RuntimeFiber<number, RequestError> | undefined
      fiber = yield* Effect.fork(request(target, "tools/list", (_, s) => {
        Deferred.unsafeDone(sent, Effect.succeed(s))
        const answered = new Promise<number>((resolve) => (answer = () => resolve(1)))
        // Registered before the driver's own handler: the interruption reaches the fiber's queue
        // before the driver's resume, so the driver's canceller runs once the answer is in.
        void answered.then(() => fiber!.unsafeInterruptAsFork(FiberId.none))
        return answered
      }))
      const first = yield* Deferred.await(sent)
      answer!()
      yield* Fiber.await(fiber)
      expect(first.aborted).toBe(false)
      const signals: Array<AbortSignal> = []
      yield* request(target, "tools/list", (_, s) => (signals.push(s), Promise.resolve(2)))
      expect(signals[0]).toBe(first)
      expect(signals[0]!.aborted).toBe(false)
    }))

  it.effect("an interrupted request whose send then rejects leaves no aborted controller to the next", () =>
    Effect.gen(function*() {
      const sent = yield* Deferred.make<AbortSignal>()
      const fiber = yield* Effect.fork(request(target, "tools/call", (_, s) => {
        Deferred.unsafeDone(sent, Effect.succeed(s))
        return new Promise<never>((_resolve, reject) => s.addEventListener("abort", () => reject(new Error("aborted")), { once: true }))
      }))
      const interrupted = yield* Deferred.await(sent)
      yield* Fiber.interrupt(fiber)
      expect(interrupted.aborted).toBe(true)
      // The rejection runs the driver's failure handler on its own microtask.
      yield* Effect.promise(() => Promise.resolve())
      const later: Array<AbortSignal> = []
      yield* Effect.all(
        Array.from({ length: SPARE_MAX + 1 }, () => request(target, "tools/list", (_, s) => (later.push(s), Promise.resolve(0)))),
        { concurrency: "unbounded" }
      )
      expect(later.filter((s) => s.aborted)).toEqual([])
      expect(later).not.toContain(interrupted)
    }))

  it.effect(`keeps at most SPARE_MAX (${SPARE_MAX}) settled controllers`, () =>
    Effect.gen(function*() {
      const size = SPARE_MAX + 2
      // All in flight at once (none answers before the last is sent), so none reuses another's.
      const batch = (signals: Array<AbortSignal>) => {
        let open = () => {}
        const gate = new Promise<void>((resolve) => (open = resolve))
        return Effect.all(
          Array.from({ length: size }, () =>
            request(target, "tools/list", (_, s) => {
              if (signals.push(s) === size) open()
              return gate.then(() => 0)
            })),
          { concurrency: "unbounded" }
        )
      }
      const first: Array<AbortSignal> = []
      yield* batch(first)
      expect(new Set(first).size).toBe(size)
      const second: Array<AbortSignal> = []
      yield* batch(second)
      expect(second.filter((s) => first.includes(s))).toHaveLength(SPARE_MAX)
    }))
})
