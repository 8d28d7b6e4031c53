/**
 * Where a structuredContent check runs (internal/validation/cost.ts) and the engine's linear
 * `uniqueItems` (internal/schemaEngine/engine.mjs), directly; and the worker itself.
 */
// @ts-nocheck

import { describe, expect, it } from "@effect/vitest"
import { dataUnits, INLINE_WORK, MAX_INLINE_SCHEMA, runsInline, schemaWeight } from "../src/internal/validation/cost.js"
import { canonical, makeEngine } from "../src/internal/schemaEngine/engine.mjs"
import { checkInWorker, workersStarted } from "../src/internal/validation/workers.js"
import { placeOf } from "../src/internal/pool/SchemaValidator.js"
import { slow } from "./support/slow.js"

describe("schemaWeight", () => {
  it("counts nodes, through local $refs, and the entries of enum and const", () => {
    expect(schemaWeight({ type: "object" })).toBeLessThan(5)
    const small = schemaWeight({ type: "object", properties: { a: { type: "string" } } })
    expect(Number.isFinite(small)).toBe(true)
    const viaRef = schemaWeight({ $defs: { s: { type: "string" } }, type: "object", properties: { a: { $ref: "#/$defs/s" }, b: { $ref: "#/$defs/s" } } })
    expect(viaRef).toBeGreaterThan(small)
    expect(schemaWeight({ enum: Array.from({ length: 100 }, (_, i) => i) })).toBeGreaterThan(100)
  })

  it("is Infinity for recursion, exponential unfolding, huge schemas and references it does not follow", () => {
    expect(schemaWeight({ $defs: { n: { type: "object", properties: { c: { $ref: "#/$defs/n" } } } }, $ref: "#/$defs/n" })).toBe(Infinity)
    expect(schemaWeight({ type: "object", properties: { self: { $ref: "#" } } })).toBe(Infinity)
    const $defs: Record<string, unknown> = { d20: { type: "string" } }
    for (let i = 19; i >= 0; i--) $defs[`d${i}`] = { anyOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] }
    expect(schemaWeight({ $defs, $ref: "#/$defs/d0" })).toBe(Infinity)
    expect(schemaWeight({ enum: Array.from({ length: MAX_INLINE_SCHEMA }, (_, i) => i) })).toBe(Infinity)
    expect(schemaWeight({ $dynamicRef: "#meta" })).toBe(Infinity)
    expect(schemaWeight({ properties: { a: { $ref: "#anchor" } } })).toBe(Infinity)
    expect(schemaWeight({ properties: { a: { $ref: "https://example.com/s.json" } } })).toBe(Infinity)
  })

  it("a $ref inside enum or const is data, not followed", () => {
    expect(Number.isFinite(schemaWeight({ const: { $ref: "#" } }))).toBe(true)
  })
})

describe("dataUnits", () => {
  it("counts values and long strings, and stops past the cap", () => {
    expect(dataUnits({ a: 1, b: [1, 2, 3] }, 100)).toBe(6)
    expect(dataUnits("x".repeat(640), 100)).toBe(11)
    expect(dataUnits(Array.from({ length: 1_000_000 }, () => 0), 100)).toBe(101)
    expect(dataUnits({ deep: Array.from({ length: 50 }, () => ({ k: "v".repeat(6_400) })) }, 1_000)).toBe(1_001)
  })
})

describe("runsInline / placeOf", () => {
  const schema = { type: "object", properties: { items: { type: "array", items: { type: "object" } } } }

  it("small results with small schemas stay on the main thread", () => {
    expect(runsInline(schema, { items: [{ a: 1 }, { a: 2 }] })).toBe(true)
    expect(placeOf(schema, { items: [] })).toBe("inline")
  })

  it("large results, recursive schemas and huge enums go to the worker", () => {
    expect(placeOf(schema, { items: Array.from({ length: INLINE_WORK }, () => ({})) })).toBe("worker")
    expect(placeOf({ $defs: { n: { properties: { c: { $ref: "#/$defs/n" } } } }, $ref: "#/$defs/n" }, {})).toBe("worker")
    expect(placeOf({ enum: Array.from({ length: 5_000 }, (_, i) => i) }, 1)).toBe("worker")
  })
})

describe("the engine's uniqueItems", () => {
  const check = makeEngine().compile({ type: "array", uniqueItems: true })

  it("finds duplicates by JSON Schema's equality: object keys in any order, 1 and 1.0", () => {
    expect(check([{ a: 1, b: [1, 2] }, { b: [1, 2], a: 1.0 }])).toMatchObject({ valid: false })
    expect(check([{ a: 1 }, { a: "1" }, [1, 2], [2, 1], null, "null", 0, false]).valid).toBe(true)
    expect(check(["a", "b", "a"]).errorMessage).toBe("data must NOT have duplicate items (items ## 0 and 2 are identical)")
  })

  it("canonical forms: keys sorted at every level", () => {
    expect(canonical({ b: { d: 1, c: [{ f: 1, e: 2 }] }, a: null })).toBe('{"a":null,"b":{"c":[{"e":2,"f":1}],"d":1}}')
  })

  it("200,000 objects: every item read once (a Map), not every pair compared", () => {
    const items = Array.from({ length: 200_000 }, (_, i) => ({ id: i, tags: ["x"] }))
    expect(check(items).valid).toBe(true)
    items.push({ tags: ["x"], id: 7 })
    expect(check(items).errorMessage).toMatch(/items ## 7 and 200000 are identical/)
  }, slow(60_000))
})

describe("checkInWorker", () => {
  const schema = { type: "object", properties: { n: { type: "number" } }, required: ["n"] }

  it("answers verdicts from a worker thread, reusing it", async () => {
    expect(await checkInWorker(schema, { n: 1 })).toEqual({ valid: true, errorMessage: undefined })
    const before = workersStarted()
    expect(await checkInWorker(schema, { n: "x" })).toEqual({ valid: false, errorMessage: "data/n must be number" })
    expect(workersStarted()).toBe(before)
  })

  it("an aborted check terminates its worker and rejects with the signal's reason", async () => {
    const $defs: Record<string, unknown> = { d40: { type: "string" } }
    for (let i = 39; i >= 0; i--) $defs[`d${i}`] = { anyOf: [{ $ref: `#/$defs/d${i + 1}` }, { allOf: [{ $ref: `#/$defs/d${i + 1}` }] }] }
    const controller = new AbortController()
    const pending = checkInWorker({ $defs, $ref: "#/$defs/d0" }, 1, controller.signal)
    const started = workersStarted()
    controller.abort(new Error("stop"))
    await expect(pending).rejects.toThrow("stop")
    // The next check gets a working worker.
    expect((await checkInWorker(schema, { n: 2 })).valid).toBe(true)
    expect(workersStarted()).toBeGreaterThanOrEqual(started)
  })
})
