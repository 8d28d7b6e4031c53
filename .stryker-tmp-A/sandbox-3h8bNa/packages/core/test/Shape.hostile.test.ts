/** Shape on hostile structures: deep nesting, pretty-printed size, floods of empty items. */
// @ts-nocheck

import { describe, expect, it } from "@effect/vitest"
import { MAX_DEPTH, budgetChars, resultChars, shapeCallResult, shapeStructured } from "../src/internal/content/Shape.js"
import type { ContentItem } from "../src/content/ContentItem.js"

describe("shaping hostile structures", () => {
  /** `{"a":{"a":…}}`, `depth` levels, built as text: JSON.stringify overflows at a few thousand. */
  const deep = (depth: number) => JSON.parse('{"a":'.repeat(depth) + "{}" + "}".repeat(depth)) as Record<string, unknown>
  const depthOf = (v: unknown): number => {
    let d = 0
    for (let x = v; x !== null && typeof x === "object"; x = (x as { a?: unknown }).a) d++
    return d
  }

  it("5,000 levels deep: no stack overflow, cut at MAX_DEPTH with a note", () => {
    const out = shapeCallResult({ content: [], structuredContent: deep(5_000) }, budgetChars(25_000), undefined, { pretty: true })
    expect(depthOf(out.structuredContent)).toBe(MAX_DEPTH)
    expect(out.truncated).toBe(true)
    expect(out.notes).toContain(`1 value(s) nested deeper than ${MAX_DEPTH} levels replaced by "…"`)
    expect(JSON.stringify(out.structuredContent, null, 2).length).toBeLessThan(budgetChars(25_000))
  })

  it("3,000 levels that are 6 KB compact but 18 MB printed count as printed", () => {
    const value = deep(3_000)
    expect(resultChars({ structuredContent: value }, { pretty: true })).toBe(Number.POSITIVE_INFINITY)
    const shallow = deep(60)
    const printed = JSON.stringify({ structuredContent: shallow }, null, 2).length
    // Pretty, at the depth --json prints it: within a few characters of what is printed.
    expect(Math.abs(resultChars({ structuredContent: shallow }, { pretty: true }) - printed)).toBeLessThan(40)
    expect(resultChars({ structuredContent: shallow })).toBe(JSON.stringify(shallow).length)
  })

  it("shaped to fit as printed: pretty JSON of the result stays within the budget", () => {
    const value = { rows: Array.from({ length: 3_000 }, (_, i) => ({ id: i, nested: { deeper: { name: `row ${i}` } } })) }
    const out = shapeStructured(value, 20_000, { pretty: true })
    expect(JSON.stringify(out.value, null, 2).length).toBeLessThanOrEqual(20_000)
    const compact = shapeStructured(value, 20_000)
    expect(JSON.stringify(compact.value).length).toBeLessThanOrEqual(20_000)
    // Pretty costs more per value, so less of it fits.
    expect((out.value as { rows: Array<unknown> }).rows.length).toBeLessThan((compact.value as { rows: Array<unknown> }).rows.length)
  })

  it("300,000 empty text items: each costs its envelope, the rest is dropped behind one marker", () => {
    const content: Array<ContentItem> = Array.from({ length: 300_000 }, () => ({ type: "text", text: "" }))
    const budget = budgetChars(25_000)
    const out = shapeCallResult({ content }, budget, undefined, { pretty: true })
    expect(out.truncated).toBe(true)
    const printed = JSON.stringify({ content: out.content }, null, 2).length
    expect(printed).toBeLessThanOrEqual(budget + 100)
    expect((out.content.at(-1) as { text: string }).text).toMatch(/^… \[dropped: 29\d,\d{3} more content items \(0 characters\)/)
    expect(resultChars({ content }, { pretty: true })).toBeGreaterThan(10 * budget)
  })
})
