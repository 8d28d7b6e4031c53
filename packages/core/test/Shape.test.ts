import { describe, expect, it } from "@effect/vitest"
import {
  budgetChars,
  resultChars,
  shapeCallResult,
  shapeStructured,
  truncateText
} from "../src/content/Shape.js"
import { type ContentItem } from "../src/content/ContentItem.js"
import { int, mulberry32, pick, type Rng } from "./support/random.js"

// ---------------------------------------------------------------------------------------------
// Helpers: random JSON, and the checks the shaping must pass
// ---------------------------------------------------------------------------------------------

const CHARS = ["a", "b", "z", " ", "0", "\"", "\\", "\n", "\t", "é", "😀", "\u0001", "/", "…"]
const randomString = (rng: Rng, inBigContainer = false): string => {
  const len = rng() < 0.75 ? int(rng, 0, 12) : inBigContainer || rng() < 0.7 ? int(rng, 50, 300) : int(rng, 5_000, 40_000)
  // A random 64-character chunk, repeated: random where it matters (escapes, surrogates), cheap to build.
  let chunk = ""
  for (let i = 0; i < Math.min(len, 64); i++) chunk += pick(rng, CHARS)
  return chunk.repeat(Math.ceil(len / Math.max(1, chunk.length))).slice(0, len)
}
const randomKey = (rng: Rng, i: number): string =>
  rng() < 0.05 ? pick(rng, ["__proto__", "", "\"q\"", "a.b", "ключ", "constructor"]) + i : `k${i}_${int(rng, 0, 99)}`

const randomValue = (rng: Rng, depth: number, big = false): unknown => {
  const r = rng()
  if (depth >= 4 || r < 0.35) {
    return pick(rng, [() => randomString(rng, big), () => int(rng, -1e6, 1e6) / 7, () => rng() < 0.5, () => null])()
  }
  if (r < 0.65) {
    const len = rng() < 0.7 ? int(rng, 0, 6) : rng() < 0.8 ? int(rng, 20, 300) : int(rng, 1_000, 5_000)
    return Array.from({ length: len }, () => randomValue(rng, len > 50 ? 4 : depth + 1, big || len > 50))
  }
  const keys = rng() < 0.93 ? int(rng, 0, 8) : int(rng, 300, 3_000)
  const out: Record<string, unknown> = {}
  for (let i = 0; i < keys; i++) {
    Object.defineProperty(out, randomKey(rng, i), {
      value: randomValue(rng, keys > 50 ? 4 : depth + 1, big || keys > 50),
      enumerable: true,
      writable: true,
      configurable: true
    })
  }
  return out
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v)
const isArrayMarker = (v: unknown) => v === "…" || (typeof v === "string" && /^… [\d,]+ more items?$/.test(v))

/** Every key of `input` is at the same path in `output`, through the array items that were kept. */
const assertKeysKept = (input: unknown, output: unknown, at = "$"): void => {
  const fail = (what: string) => {
    throw new Error(`${what} at ${at}`)
  }
  if (isObject(input)) {
    if (!isObject(output)) return fail("object missing")
    const want = Object.keys(input).sort().join("\u0000")
    if (Object.keys(output).sort().join("\u0000") !== want) fail("keys differ")
    for (const key of Object.keys(input)) assertKeysKept(input[key], output[key], `${at}.${key}`)
  } else if (Array.isArray(input)) {
    if (!Array.isArray(output)) return fail("array missing")
    const cut = output.length < input.length ||
      (output.length > 0 && isArrayMarker(output.at(-1)) && !isArrayMarker(input.at(-1)))
    const kept = cut ? output.length - 1 : output.length
    if (kept > input.length) fail("array grew")
    for (let i = 0; i < kept; i++) assertKeysKept(input[i], output[i], `${at}[${i}]`)
  }
}

/** The test's own floor: keys kept, long strings and non-empty arrays replaced by a placeholder. */
const skeleton = (v: unknown): unknown =>
  Array.isArray(v)
    ? (v.length === 0 ? [] : ["…"])
    : isObject(v)
    ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, skeleton(x)]))
    : typeof v === "string" && JSON.stringify(v).length > 3
    ? "…"
    : v

// ---------------------------------------------------------------------------------------------
// Pure shaping
// ---------------------------------------------------------------------------------------------

describe("budget and text", () => {
  it("turns tokens into about 4 characters each", () => {
    expect(budgetChars(25_000)).toBe(100_000)
    expect(budgetChars(0)).toBe(0)
  })

  it("leaves text within the budget alone", () => {
    expect(truncateText("hello", 5)).toEqual({ text: "hello", truncated: false, dropped: 0 })
  })

  it("cuts with a marker that names the dropped amount, marker included in the limit", () => {
    const text = "x".repeat(1_000_000)
    for (const max of [100_000, 5_000, 200, 120]) {
      const cut = truncateText(text, max)
      expect(cut.truncated).toBe(true)
      expect(cut.text.length).toBeLessThanOrEqual(max)
      expect(cut.text).toContain(`[truncated: ${cut.dropped.toLocaleString("en-US")} more characters; raise MAX_MCP_OUTPUT_TOKENS`)
      expect(cut.dropped + cut.text.indexOf("\n…")).toBe(text.length)
    }
    expect(truncateText(text, 10).text).toBe("…")
  })

  it("never splits a surrogate pair", () => {
    const cut = truncateText("😀".repeat(1000), 500)
    expect(cut.text.length).toBeLessThanOrEqual(500)
    expect(cut.text.split("\n…")[0]).toMatch(/^(😀)+$/)
  })
})

describe("shapeStructured", () => {
  it("returns fitting values untouched", () => {
    const value = { a: [1, 2, 3], b: "short" }
    expect(shapeStructured(value, 1_000)).toEqual({ value, shaped: false, notes: [] })
  })

  it("shortens long strings and arrays with markers and notes", () => {
    const value = { log: "y".repeat(50_000), rows: Array.from({ length: 9_100 }, (_, i) => ({ id: i })), ok: true }
    const out = shapeStructured(value, 5_000)
    const json = JSON.stringify(out.value)
    expect(out.shaped).toBe(true)
    expect(json.length).toBeLessThanOrEqual(5_000)
    const shaped = out.value as { log: string; rows: Array<unknown>; ok: boolean }
    expect(shaped.ok).toBe(true)
    expect(shaped.log).toMatch(/^y+… \[\+[\d,]+ chars\]$/)
    expect(shaped.rows.at(-1)).toMatch(/^… [\d,]+ more items$/)
    expect(out.notes.join("\n")).toMatch(/shaped to fit 5,000 characters/)
  })

  it("falls to the key skeleton and keeps every key of a pathological object, over budget if it must", () => {
    const value = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`key${i}`, "v".repeat(100)]))
    const out = shapeStructured(value, 1_000)
    expect(Object.keys(out.value as object)).toHaveLength(5_000)
    expect(Object.values(out.value as object).every((v) => v === "…")).toBe(true)
    expect(out.notes.join("\n")).toMatch(/keys alone take/)
  })

  it("survives cycles and bigint", () => {
    const value: Record<string, unknown> = { n: 10n, s: "z".repeat(1_000) }
    value.self = value
    const out = shapeStructured(value, 200)
    expect(() => JSON.parse(JSON.stringify(out.value))).not.toThrow()
    expect(out.value).toMatchObject({ n: "10", self: "[circular]" })
  })

  it("property: 200 random values are valid JSON, keep every key, and fit whenever the skeleton fits", () => {
    const rng = mulberry32(0x5eed)
    let shapedCount = 0
    let skeletonOver = 0
    for (let i = 0; i < 200; i++) {
      const input = randomValue(rng, 0)
      const budget = pick(rng, [40, 200, 1_000, 5_000, 20_000, 100_000])
      const out = shapeStructured(input, budget)
      const json = JSON.stringify(out.value)
      expect(JSON.stringify(JSON.parse(json))).toBe(json)
      assertKeysKept(input, JSON.parse(json))
      if (JSON.stringify(skeleton(input)).length <= budget) expect(json.length).toBeLessThanOrEqual(budget)
      else skeletonOver++
      if (JSON.stringify(input).length <= budget) expect(out.value === input && !out.shaped).toBe(true)
      else shapedCount++
    }
    // The generator must exercise both the tightening and the floor.
    expect(shapedCount).toBeGreaterThan(50)
    expect(skeletonOver).toBeGreaterThan(0)
  })
})

describe("shapeCallResult", () => {
  it("cuts 1 MB of text under the default budget with a marker and truncated: true", () => {
    const budget = budgetChars(25_000)
    const out = shapeCallResult({ content: [{ type: "text", text: "a".repeat(1_000_000) }] }, budget)
    expect(out.truncated).toBe(true)
    expect(resultChars(out)).toBeLessThanOrEqual(budget)
    const text = (out.content[0] as { text: string }).text
    expect(text).toMatch(/\[truncated: 9\d\d,\d{3} more characters; raise MAX_MCP_OUTPUT_TOKENS to see more\]$/)
    expect(JSON.stringify({ content: out.content, truncated: out.truncated }).length).toBeLessThan(budget + 200)
  })

  it("leaves a fitting result alone", () => {
    const result = { content: [{ type: "text" as const, text: "hi" }], structuredContent: { a: 1 } }
    expect(shapeCallResult(result, 100)).toEqual({ ...result, truncated: false, notes: [] })
  })

  it("gives text items the budget in order and drops later ones behind one marker", () => {
    const content: Array<ContentItem> = [
      { type: "text", text: "A".repeat(3_000) },
      { type: "image", data: "Z".repeat(500_000), mimeType: "image/png" },
      { type: "text", text: "B".repeat(3_000) },
      { type: "text", text: "C".repeat(3_000) },
      { type: "resource", resource: { uri: "mem://d", text: "D".repeat(3_000) } }
    ]
    const out = shapeCallResult({ content }, 5_000)
    expect(resultChars(out)).toBeLessThanOrEqual(5_000)
    expect(out.content.map((c) => c.type)).toEqual(["text", "image", "text", "text"])
    expect((out.content[0] as { text: string }).text).toBe("A".repeat(3_000))
    expect((out.content[2] as { text: string }).text).toMatch(/^B+\n… \[truncated: /)
    expect((out.content[3] as { text: string }).text).toBe(
      "… [dropped: 2 more content items (6,000 characters); raise MAX_MCP_OUTPUT_TOKENS to see more]"
    )
    // The image's base64 is not counted: only its descriptor.
    expect((out.content[1] as { data: string }).data).toHaveLength(500_000)
  })

  it("shares the budget between text and structuredContent, keeping structured keys", () => {
    const structuredContent = { items: Array.from({ length: 2_000 }, (_, i) => ({ i, name: `item ${i}` })), total: 2_000 }
    const out = shapeCallResult({ content: [{ type: "text", text: JSON.stringify(structuredContent) }], structuredContent }, 20_000)
    expect(out.truncated).toBe(true)
    expect(resultChars(out)).toBeLessThanOrEqual(20_000)
    expect(Object.keys(out.structuredContent!)).toEqual(["items", "total"])
    expect(JSON.stringify(out.structuredContent).length).toBeGreaterThan(8_000)
    expect(out.notes.length).toBeGreaterThanOrEqual(2)
  })

  it("property: random results stay within budgets that can hold the markers", () => {
    const rng = mulberry32(42)
    for (let i = 0; i < 100; i++) {
      const content: Array<ContentItem> = Array.from({ length: int(rng, 0, 6) }, () =>
        rng() < 0.8
          ? { type: "text", text: randomString(rng) }
          : { type: "image", data: "QUJD", mimeType: "image/png" })
      const structuredContent = rng() < 0.5 ? { data: randomValue(rng, 1) } : undefined
      const budget = pick(rng, [2_000, 10_000, 50_000])
      const out = shapeCallResult({ content, structuredContent }, budget)
      const skeletonFits = structuredContent === undefined || JSON.stringify(skeleton(structuredContent)).length <= budget / 3
      if (skeletonFits) expect(resultChars(out)).toBeLessThanOrEqual(budget)
      if (structuredContent !== undefined) assertKeysKept(structuredContent, JSON.parse(JSON.stringify(out.structuredContent)))
      expect(out.truncated).toBe(resultChars({ content, structuredContent }) > budget)
    }
  })
})
