/**
 * The request driver's signals (internal/pool/request.ts): a settled request's controller is
 * handed to a later request, never one that was aborted, and interrupting one of two requests
 * in flight aborts that one's signal only.
 */
import { describe, expect, it } from "@effect/vitest"
import type { Client } from "@modelcontextprotocol/client"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import { request } from "../src/internal/pool/request.js"

const target = { server: { name: "alpha" }, client: {} as Client }

describe("request (the driver): signals", () => {
  it.effect("a settled request's signal serves a later one (not aborted), an interrupted one's never does", () =>
    Effect.gen(function*() {
      const signals: Array<AbortSignal> = []
      const send = (_: Client, s: AbortSignal) => (signals.push(s), Promise.resolve(1))
      yield* request(target, "tools/list", send)
      yield* request(target, "tools/list", send)
      expect(signals[1]).toBe(signals[0])
      expect(signals[1]!.aborted).toBe(false)

      const sent = yield* Deferred.make<AbortSignal>()
      const fiber = yield* Effect.fork(request(target, "tools/call", (_, s) => {
        Deferred.unsafeDone(sent, Effect.succeed(s))
        return new Promise<never>(() => {})
      }))
      const interrupted = yield* Deferred.await(sent)
      yield* Fiber.interrupt(fiber)
      expect(interrupted.aborted).toBe(true)
      yield* request(target, "tools/list", send)
      expect(signals[2]!.aborted).toBe(false)
      expect(signals[2]).not.toBe(interrupted)
    }))

  it.effect("two requests in flight have their own signals: interrupting one leaves the other", () =>
    Effect.gen(function*() {
      const sent: Array<AbortSignal> = []
      const both = yield* Deferred.make<void>()
      let answer: ((v: string) => void) | undefined
      const a = yield* Effect.fork(request(target, "tools/call", (_, s) => {
        sent.push(s)
        return new Promise<never>(() => {})
      }))
      const b = yield* Effect.fork(request(target, "tools/call", (_, s) => {
        sent.push(s)
        Deferred.unsafeDone(both, Effect.void)
        return new Promise<string>((resolve) => (answer = resolve))
      }))
      yield* Deferred.await(both)
      expect(sent[0]).not.toBe(sent[1])
      yield* Fiber.interrupt(a)
      expect(sent[0]!.aborted).toBe(true)
      expect(sent[1]!.aborted).toBe(false)
      answer!("done")
      expect(yield* Fiber.join(b)).toBe("done")
    }))

  it.effect("a caller's signal still aborts a request whose controller is a reused one", () =>
    Effect.gen(function*() {
      yield* request(target, "tools/list", () => Promise.resolve(0))
      const caller = new AbortController()
      const exit = yield* Effect.exit(request(target, "tools/call", (_, s) =>
        new Promise((_resolve, reject) => {
          s.addEventListener("abort", () => reject(new Error("aborted")), { once: true })
          caller.abort()
        }), { signal: caller.signal }))
      expect(exit._tag).toBe("Failure")
    }))
})
