/**
 * Output schemas and results built to make checking them expensive, one per JSON Schema
 * construct, through the catalogue's call path against a real stdio server. Each hostile call
 * fails or finishes within its timeout; where the check has no bound of its own (exponential
 * `anyOf`/`oneOf`), it runs in a worker and a call to another server made while it runs
 * completes before it ends: the event loop was never blocked.
 */
// @ts-nocheck

import { describe, expect, it } from "@effect/vitest"
import * as Host from "@mcpctl/core/Host"
import { McpConfig } from "@mcpctl/core/McpConfig"
import { ToolRegistry } from "@mcpctl/core/ToolRegistry"
import { Transport } from "@mcpctl/core/Transport"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { workersBusy } from "../src/internal/validation/workers.js"

const bombServer = fileURLToPath(new URL("./support/schemaBombServer.mjs", import.meta.url))

const hostWith = (...flags: Array<string>) => Host.layer({
  config: McpConfig.layerStatic({
    servers: {
      b: { command: process.execPath, args: [bombServer, ...flags] },
      e: { command: process.execPath, args: [bombServer] }
    },
    permissions: { allow: ["mcp__b__*", "mcp__e__*"] },
    home: mkdtempSync(join(tmpdir(), "mcpctl-bombs-"))
  }),
  transport: Transport.layer,
  pins: false
})
const host = hostWith()

/** The outcome of a hostile call: its error's tag and message, or "ok". */
const outcome = (either: Either.Either<unknown, { readonly _tag: string; readonly message: string }>) =>
  Either.isRight(either) ? { tag: "ok", message: "" } : { tag: either.left._tag, message: either.left.message }

/**
 * Calls `tool` on the hostile server; once its result is being checked in a worker, calls echo on
 * the other server, which must answer while the hostile call is still running.
 */
const duringCheck = (tool: string, args: Record<string, unknown>, timeoutMs: number) =>
  Effect.gen(function*() {
    const registry = yield* ToolRegistry
    yield* registry.list()
    yield* registry.call("mcp__e__echo", { text: "warm" })
    const hostile = yield* Effect.fork(Effect.either(registry.call(`mcp__b__${tool}`, args, { timeoutMs })))
    // The event: a worker took the check (polled; with the check on the main thread this never
    // comes and the test times out).
    yield* Effect.repeat(Effect.sync(() => workersBusy() > 0), { until: (busy) => busy, schedule: Schedule.spaced("2 millis") })
    const { result } = yield* registry.call("mcp__e__echo", { text: "still here" })
    expect(result.content).toEqual([{ type: "text", text: "still here" }])
    expect(Option.isNone(yield* Fiber.poll(hostile))).toBe(true)
    return outcome(yield* Fiber.join(hostile))
  }).pipe(Effect.provide(host))

/** Calls `tool` and returns its outcome (it must not be a timeout). */
const finishes = (tool: string, args: Record<string, unknown> = {}, layer = host) =>
  Effect.gen(function*() {
    const registry = yield* ToolRegistry
    yield* registry.list()
    return outcome(yield* Effect.either(registry.call(`mcp__b__${tool}`, args, { timeoutMs: 90_000 })))
  }).pipe(Effect.provide(layer))

const CHECK_TIMEOUT = /answered, but checking its structuredContent against the tool's outputSchema did not finish within 10000 ms/

describe("unbounded checks run in a worker the call's timeout stops", () => {
  it.live("anyOf over a recursive $ref, data 40 levels deep (2^40 branches)", () =>
    Effect.gen(function*() {
      const o = yield* duringCheck("anyofRecursive", { depth: 40 }, 10_000)
      expect(o.tag).toBe("ToolTimeout")
      expect(o.message).toMatch(CHECK_TIMEOUT)
      expect(o.message).toMatch(/mcp__b__anyofRecursive/)
    }), 60_000)

  it.live("anyOf over $refs without recursion, each definition used twice (2^40 paths)", () =>
    Effect.gen(function*() {
      const o = yield* duringCheck("anyofDag", {}, 10_000)
      expect(o.tag).toBe("ToolTimeout")
      expect(o.message).toMatch(CHECK_TIMEOUT)
    }), 60_000)

  it.live("oneOf nested 25 levels, three branches each", () =>
    Effect.gen(function*() {
      const o = yield* duringCheck("oneofNested", {}, 10_000)
      expect(o.tag).toBe("ToolTimeout")
      expect(o.message).toMatch(CHECK_TIMEOUT)
    }), 60_000)

  it.live("after a terminated check the next one works (a fresh worker)", () =>
    Effect.gen(function*() {
      const registry = yield* ToolRegistry
      yield* registry.list()
      const first = outcome(yield* Effect.either(registry.call("mcp__b__anyofDag", {}, { timeoutMs: 3_000 })))
      expect(first.tag).toBe("ToolTimeout")
      const second = outcome(yield* Effect.either(registry.call("mcp__b__unique", { count: 5_000, duplicate: true }, { timeoutMs: 60_000 })))
      expect(second.message).toMatch(/must NOT have duplicate items/)
    }).pipe(Effect.provide(host)), 60_000)
})

describe("bounded checks finish within the timeout with a verdict", () => {
  it.live("uniqueItems over 20,000 objects (was ~30 s on the main thread): linear", () =>
    Effect.gen(function*() {
      expect((yield* finishes("unique", { count: 20_000 })).tag).toBe("ok")
      const dup = yield* finishes("unique", { count: 20_000, duplicate: true })
      expect(dup.message).toMatch(/Structured content does not match the tool's output schema: data\/items must NOT have duplicate items \(items ## 0 and 20000 are identical\)/)
    }), 120_000)

  it.live("enum of 20,000 objects, const of 20,000 keys (10 times what runs inline)", () =>
    Effect.gen(function*() {
      expect((yield* finishes("hugeEnum", {}, hostWith("--huge"))).message).toMatch(/must be equal to one of the allowed values/)
      expect((yield* finishes("hugeConst", {}, hostWith("--huge"))).tag).toBe("ok")
    }), 120_000)

  it.live("a recursive $ref and data 100,000 levels deep: an error, not a crash", () =>
    Effect.gen(function*() {
      const o = yield* finishes("deepRef")
      expect(o.tag).toBe("McpRequestError")
      expect(o.message).toMatch(/Failed to validate structured content|Maximum call stack/)
    }), 120_000)

  it.live("patternProperties and propertyNames with catastrophic patterns on 300 long keys (re2js)", () =>
    Effect.gen(function*() {
      expect((yield* finishes("patterns")).message).toMatch(/must match pattern/)
    }), 120_000)

  it.live("format (email, uri, date-time) on strings of 50,000 to 200,000 characters", () =>
    Effect.gen(function*() {
      expect((yield* finishes("formats")).message).toMatch(/must match format/)
    }), 120_000)

  it.live("multipleOf 1e-300 on 100,000 numbers", () =>
    Effect.gen(function*() {
      expect((yield* finishes("multipleOf")).message).toMatch(/must be multiple of/)
    }), 120_000)

  it.live("a 2,000,000-character string against maxLength and a catastrophic pattern", () =>
    Effect.gen(function*() {
      expect((yield* finishes("longString")).message).toMatch(/must NOT have more than 10 characters/)
    }), 120_000)
})
