// @ts-nocheck
import { describe, expect, it } from "@effect/vitest"
import {
  budgetChars,
  resultChars,
  shapeCallResult,
  shapeStructured,
  truncateText
} from "../src/internal/content/Shape.js"
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

// ---------------------------------------------------------------------------------------------
// Exact cuts and the words that explain them
// ---------------------------------------------------------------------------------------------

describe("budget and text, exactly", () => {
  it("counts whole tokens only, never below zero", () => {
    expect(budgetChars(2.9)).toBe(8)
    expect(budgetChars(-5)).toBe(0)
    expect(budgetChars(1)).toBe(4)
  })

  it("fills the limit exactly once the marker's digits settle", () => {
    const text = "x".repeat(1_000_000)
    for (const max of [100_000, 5_000, 200, 120]) expect(truncateText(text, max).text).toHaveLength(max)
    expect(truncateText("x".repeat(100), 100)).toEqual({ text: "x".repeat(100), truncated: false, dropped: 0 })
    expect(truncateText("x".repeat(101), 100).truncated).toBe(true)
  })

  it("names the hint it is given, and the dropped count with thousands separators", () => {
    expect(truncateText("x".repeat(100), 60, "ask for less")).toEqual({
      text: "x".repeat(12) + "\n… [truncated: 88 more characters; ask for less]",
      truncated: true,
      dropped: 88
    })
    expect(truncateText("x".repeat(1_234_567), 100).text).toContain("[truncated: 1,234,5")
    expect(truncateText("x".repeat(1_000), 100).text).toBe(
      "x".repeat(24) + "\n… [truncated: 976 more characters; raise MAX_MCP_OUTPUT_TOKENS to see more]"
    )
  })

  it("a limit too small for the marker leaves an ellipsis, or nothing at 0", () => {
    expect(truncateText("abcdef", 1)).toEqual({ text: "…", truncated: true, dropped: 6 })
    expect(truncateText("abcdef", 0)).toEqual({ text: "", truncated: true, dropped: 6 })
    expect(truncateText("", 0)).toEqual({ text: "", truncated: false, dropped: 0 })
  })

  it("steps back only over a high surrogate (U+D800 to U+DBFF) at the cut", () => {
    // 300 characters into 100: 24 are kept, the marker says 276.
    expect(truncateText("a".repeat(300), 100).text.indexOf("\n")).toBe(24)
    const at = (unit: string) => truncateText("a".repeat(23) + unit + "b".repeat(276), 100).text
    const marker = (dropped: number) => `\n… [truncated: ${dropped} more characters; raise MAX_MCP_OUTPUT_TOKENS to see more]`
    expect(at("\ud800")).toBe("a".repeat(23) + marker(277))
    expect(at("\udbff")).toBe("a".repeat(23) + marker(277))
    expect(at("\udc00")).toBe("a".repeat(23) + "\udc00" + marker(276))
    expect(at("\ud7ff")).toBe("a".repeat(23) + "\ud7ff" + marker(276))
  })
})

describe("shapeStructured, exactly", () => {
  it("keeps the longest string that fits, and says so", () => {
    const out = shapeStructured({ s: "y".repeat(100) }, 50)
    expect(out.value).toEqual({ s: "y".repeat(29) + "… [+71 chars]" })
    expect(JSON.stringify(out.value)).toHaveLength(50)
    expect(out.notes).toEqual(["structuredContent shaped to fit 50 characters: 1 string(s) cut to 29 characters"])
  })

  it("cuts arrays to a tenth of the string limit, with one marker item", () => {
    const out = shapeStructured({ a: Array.from({ length: 30 }, (_, i) => i) }, 40)
    expect(out.value).toEqual({ a: [0, 1, 2, 3, "… 26 more items"] })
    expect(out.notes).toEqual(["structuredContent shaped to fit 40 characters: 1 array(s) cut to 4 items"])
    const both = shapeStructured({ a: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], s: "z".repeat(40) }, 60)
    expect(both.value).toEqual({ a: [1, "… 11 more items"], s: "z".repeat(13) + "… [+27 chars]" })
    expect(both.notes).toEqual([
      "structuredContent shaped to fit 60 characters: 1 string(s) cut to 13 characters, 1 array(s) cut to 1 items"
    ])
    // Strings within the limit stay whole while their array is cut.
    expect(shapeStructured({ a: Array.from({ length: 3 }, () => "q".repeat(20)) }, 60).value).toEqual({
      a: ["q".repeat(20), "… 2 more items"]
    })
  })

  it("says item for one more item", () => {
    const out = shapeStructured([[1, 2, 3, 4, 5], "w".repeat(50)], 40)
    expect(out.value).toEqual([[1, "… 4 more items"], "… 1 more item"])
    expect(out.notes).toEqual(["structuredContent shaped to fit 40 characters: 2 array(s) cut to 1 items"])
  })

  it("keeps a string whose marker would be longer than what it cuts", () => {
    const out = shapeStructured({ a: "x".repeat(20), b: "y".repeat(200) }, 120)
    expect((out.value as { a: string }).a).toBe("x".repeat(20))
  })

  it("the skeleton keeps strings of JSON length 3 or less, numbers, booleans, null and empty containers", () => {
    const out = shapeStructured({ e: "", a: "a", k: "ab", n: 1, b: true, z: null, arr: [], full: [1], o: {}, deep: { s: "long" } }, 10)
    expect(out.value).toEqual({ e: "", a: "a", k: "…", n: 1, b: true, z: null, arr: [], full: ["…"], o: {}, deep: { s: "…" } })
    expect(out.notes).toEqual([
      `structuredContent reduced to its keys: 2 string(s) and 1 array(s) replaced by "…"`,
      `structuredContent keys alone take ${JSON.stringify(out.value).length} characters, over the budget of 10; all kept`
    ])
  })

  it("a skeleton that fits says nothing about being over budget", () => {
    const value = { a: Array.from({ length: 100 }, (_, i) => ({ id: i })) }
    const out = shapeStructured(value, 12)
    expect(out.value).toEqual({ a: ["…"] })
    expect(out.notes).toEqual([`structuredContent reduced to its keys: 0 string(s) and 1 array(s) replaced by "…"`])
  })

  it("uses toJSON, drops nothing JSON drops, keeps __proto__ as a key", () => {
    const value = JSON.parse(`{"__proto__": {"x": "${"x".repeat(100)}"}, "d": 1}`) as Record<string, unknown>
    value.when = new Date(0)
    value.f = () => 1
    value.u = undefined
    const out = shapeStructured(value, 80)
    const json = JSON.stringify(out.value)
    expect(json.length).toBeLessThanOrEqual(80)
    expect(Object.keys(JSON.parse(json))).toEqual(["__proto__", "d", "when"])
    expect(JSON.parse(json).when).toMatch(/^1970-01-/)
    expect(Object.getPrototypeOf(out.value)).toBe(Object.prototype)
  })
})

describe("shapeCallResult, exactly", () => {
  it("non-text items over the budget are kept and named; the text gets what is left", () => {
    const out = shapeCallResult(
      { content: [{ type: "image", data: "QUJD", mimeType: "image/png" }, { type: "text", text: "hello" }] },
      10
    )
    expect(out.content).toEqual([{ type: "image", data: "QUJD", mimeType: "image/png" }, { type: "text", text: "" }])
    expect(out.notes).toEqual([
      "non-text items alone take 39 characters, over the budget of 10",
      "text cut to fit the output budget of 10 characters: 5 characters dropped"
    ])
  })

})

describe("shapeCallResult, at the edges", () => {
  const image = { type: "image" as const, data: "QUJD", mimeType: "image/png" }
  const imageChars = JSON.stringify({ type: "image", mimeType: "image/png" }).length

  it("notes non-text items only when they alone exceed the budget", () => {
    const at = (budget: number) => shapeCallResult({ content: [image, { type: "text", text: "x".repeat(300) }] }, budget).notes
    expect(at(imageChars)).toEqual([`text cut to fit the output budget of ${imageChars} characters: 300 characters dropped`])
    expect(at(imageChars - 1)[0]).toBe(`non-text items alone take ${imageChars} characters, over the budget of ${imageChars - 1}`)
  })

  it("counts audio by its descriptor, not its base64", () => {
    const audio = { type: "audio" as const, data: "A".repeat(10_000), mimeType: "audio/wav" }
    expect(resultChars({ content: [audio] })).toBe(JSON.stringify({ type: "audio", mimeType: "audio/wav" }).length)
  })

  it("a result without content gets an empty content list", () => {
    const out = shapeCallResult({ structuredContent: { s: "v".repeat(500) } }, 100)
    expect(out.content).toEqual([])
    expect(JSON.stringify(out.structuredContent).length).toBeLessThanOrEqual(100)
  })

  it("structuredContent JSON cannot measure (bigint, cycles) is still shaped to valid JSON", () => {
    const cyclic: Record<string, unknown> = { n: 1n, s: "z".repeat(1_000) }
    cyclic.self = cyclic
    const out = shapeCallResult({ content: [{ type: "text", text: "hi" }], structuredContent: cyclic }, 500)
    expect(() => JSON.stringify(out.structuredContent)).not.toThrow()
    expect(out.structuredContent).toMatchObject({ n: "1", self: "[circular]" })
    expect(out.truncated).toBe(true)
  })

  it("cuts an inline text resource like a text item, keeping its uri", () => {
    const out = shapeCallResult({ content: [{ type: "resource", resource: { uri: "mem://r", text: "R".repeat(1_000) } }] }, 300)
    const item = out.content[0] as { type: string; resource: { uri: string; text: string } }
    expect(item.type).toBe("resource")
    expect(item.resource.uri).toBe("mem://r")
    expect(item.resource.text).toMatch(/^R+\n… \[truncated: [\d,]+ more characters; raise MAX_MCP_OUTPUT_TOKENS to see more\]$/)
    expect(resultChars(out)).toBeLessThanOrEqual(300)
  })

  it("puts the one drop marker where the first dropped item was", () => {
    const text = (c: string) => ({ type: "text" as const, text: c.repeat(1_000) })
    const out = shapeCallResult({ content: [text("A"), image, text("B")] }, 300 + imageChars)
    expect(out.content.map((c) => (c.type === "text" ? c.text.slice(0, 12) : c.type))).toEqual(["… [dropped: ", "image"])
    const later = shapeCallResult({ content: [text("A"), text("B"), text("C"), image, text("D")] }, 1_400 + imageChars)
    expect(later.content.map((c) => (c.type === "text" ? c.text.slice(0, 12) : c.type))).toEqual([
      "A".repeat(12),
      "B".repeat(12),
      "… [dropped: ",
      "image"
    ])
  })
})

describe("shapeStructured, invariants over budgets", () => {
  it("a string is either kept whole or cut shorter than it was", () => {
    const value = { s: "x".repeat(21), t: "y".repeat(200), u: Array.from({ length: 40 }, (_, i) => `item ${i}`) }
    for (let budget = 20; budget <= 420; budget++) {
      const out = shapeStructured(value, budget).value as { s: unknown }
      if (typeof out.s === "string" && out.s !== value.s) expect(out.s.length).toBeLessThan(value.s.length)
    }
  })
})

describe("shapeStructured, boundaries", () => {
  it("a value exactly at the budget is untouched; JSON's undefined fits any budget", () => {
    const value = { a: [1, 2, 3], s: "short" }
    const length = JSON.stringify(value).length
    expect(shapeStructured(value, length)).toEqual({ value, shaped: false, notes: [] })
    expect(shapeStructured(value, length - 1).shaped).toBe(true)
    expect(shapeStructured(undefined, 0)).toEqual({ value: undefined, shaped: false, notes: [] })
  })

  it("cuts strings while the tightest cut fits exactly, and falls to the skeleton one character below", () => {
    const value = { s: "x".repeat(100) }
    expect(JSON.stringify({ s: "… [+100 chars]" })).toHaveLength(22)
    expect(shapeStructured(value, 22).value).toEqual({ s: "x… [+99 chars]" })
    expect(shapeStructured(value, 21)).toEqual({
      value: { s: "…" },
      shaped: true,
      notes: [`structuredContent reduced to its keys: 1 string(s) and 0 array(s) replaced by "…"`]
    })
  })

  it("says the keys alone are over budget only when they are", () => {
    const value = { s: "x".repeat(100) }
    expect(JSON.stringify({ s: "…" })).toHaveLength(9)
    expect(shapeStructured(value, 9).notes).toHaveLength(1)
    expect(shapeStructured(value, 8).notes).toHaveLength(2)
    expect(shapeStructured(value, 8).shaped).toBe(true)
  })

  it("an object met twice, not in a cycle, is shaped both times", () => {
    const shared = { text: "t".repeat(300) }
    const out = shapeStructured({ a: shared, b: shared, c: [shared, shared] }, 400)
    expect(JSON.stringify(out.value)).not.toContain("[circular]")
    const v = out.value as { a: { text: string }; b: { text: string }; c: Array<{ text: string }> }
    for (const item of [v.a, v.b, ...v.c]) expect(item.text).toMatch(/^t+… \[\+[\d,]+ chars\]$/)
  })

  it("never adds a marker for zero more items", () => {
    const value = { a: [1], b: [1, 2], c: [1, 2, 3], d: Array.from({ length: 12 }, (_, i) => i), s: "s".repeat(300) }
    for (let budget = 20; budget <= 400; budget++) {
      expect(JSON.stringify(shapeStructured(value, budget).value)).not.toContain("… 0 more")
    }
  })
})
