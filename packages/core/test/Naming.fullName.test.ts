/**
 * `fullToolName` (internal/Naming.ts): the unshortened qualified name, what a rule written from
 * a tool's own name says (`Permission.decide` matches it besides the catalogue's name).
 */
import { describe, expect, it } from "@effect/vitest"
import { buildToolName, fullToolName, MAX_TOOL_NAME_LENGTH } from "../src/internal/Naming.js"

describe("fullToolName", () => {
  it("is mcp__<server>__<tool> with the tool part normalized, as buildToolName spells a short name", () => {
    expect(fullToolName("fs", "read.file")).toBe("mcp__fs__read_file")
    expect(fullToolName("fs", "read__file")).toBe("mcp__fs__read__file")
    expect(buildToolName("fs", "read.file")).toBe(fullToolName("fs", "read.file"))
  })

  it("is never cut: a name over 64 characters stays whole where buildToolName shortens it", () => {
    const tool = "t".repeat(80)
    expect(fullToolName("fs", tool)).toBe(`mcp__fs__${tool}`)
    expect(fullToolName("fs", tool).length).toBeGreaterThan(MAX_TOOL_NAME_LENGTH)
    expect(buildToolName("fs", tool)).toHaveLength(MAX_TOOL_NAME_LENGTH)
    expect(fullToolName("s".repeat(70), "one")).toBe(`mcp__${"s".repeat(70)}__one`)
  })
})
