// @ts-nocheck
import { describe, expect, it } from "@effect/vitest"
import { createHash } from "node:crypto"
import {
  buildToolName,
  MAX_DESCRIPTION_LENGTH,
  MAX_TOOL_NAME_LENGTH,
  normalizeToolName,
  parseToolName,
  TRUNCATION_MARKER,
  truncateDescription
} from "../src/internal/Naming.js"

const sha8 = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 8)

describe("Naming", () => {
  it("normalizes tool names, keeping runs of _", () => {
    expect(normalizeToolName("read_file")).toBe("read_file")
    expect(normalizeToolName("read.file v2")).toBe("read_file_v2")
    expect(normalizeToolName("a__b")).toBe("a__b")
    expect(normalizeToolName("a..b")).toBe("a__b")
    expect(normalizeToolName("ünï-cøde")).toBe("_n_-c_de")
  })

  it("builds mcp__<server>__<tool>", () => {
    expect(buildToolName("fs", "read_file")).toBe("mcp__fs__read_file")
    expect(buildToolName("fs", "read.file")).toBe("mcp__fs__read_file")
  })

  it("keeps names of exactly 64 characters as they are", () => {
    const tool = "t".repeat(MAX_TOOL_NAME_LENGTH - "mcp__fs__".length)
    const name = buildToolName("fs", tool)
    expect(name.length).toBe(64)
    expect(name).toBe(`mcp__fs__${tool}`)
  })

  it("shortens long names to ≤ 64 with a stable hash, keeping them unique", () => {
    const base = "very_long_tool_name_".repeat(5)
    const a = buildToolName("fs", `${base}alpha`)
    const b = buildToolName("fs", `${base}omega`)
    expect(a.length).toBeLessThanOrEqual(MAX_TOOL_NAME_LENGTH)
    expect(b.length).toBeLessThanOrEqual(MAX_TOOL_NAME_LENGTH)
    expect(a).not.toBe(b)
    expect(a).toMatch(/_[0-9a-f]{8}$/)
    expect(buildToolName("fs", `${base}alpha`)).toBe(a) // stable across calls
    expect(a.startsWith("mcp__fs__very_long_tool_name_")).toBe(true)
    expect(parseToolName(a)?.server).toBe("fs")
  })

  it("cuts a long name to exactly 64: its first 55 characters, _ and the first 8 hex of its SHA-256", () => {
    const full = `mcp__fs__${"t".repeat(80)}`
    expect(buildToolName("fs", "t".repeat(80))).toBe(`${full.slice(0, 55)}_${sha8(full)}`)
    expect(buildToolName("fs", "t".repeat(80))).toHaveLength(MAX_TOOL_NAME_LENGTH)
    expect(buildToolName("fs", "t".repeat(56))).toHaveLength(64)
    expect(buildToolName("fs", "t".repeat(55))).toBe(`mcp__fs__${"t".repeat(55)}`)
  })

  it("keeps the whole server prefix while one tool character still fits beside the hash", () => {
    // mcp__ + 47 + __ + 1 tool character + _ + 8 hex = 64.
    const server = "s".repeat(47)
    const full = `mcp__${server}__tool_name_long`
    expect(buildToolName(server, "tool_name_long")).toBe(`mcp__${server}__t_${sha8(full)}`)
    // One more server character and the prefix no longer fits: the server part is cut instead.
    const longer = "s".repeat(48)
    const name = buildToolName(longer, "tool_name_long")
    expect(name).toBe(`mcp__${longer}__${sha8(`mcp__${longer}__tool_name_long`)}`)
    expect(parseToolName(name)).toEqual({ server: longer, tool: sha8(`mcp__${longer}__tool_name_long`) })
  })

  it("cuts a pathologically long server name to 49 characters, without trailing underscores", () => {
    const server = "s".repeat(70)
    expect(buildToolName(server, "one")).toBe(`mcp__${"s".repeat(49)}__${sha8(`mcp__${server}__one`)}`)
    expect(buildToolName(server, "one")).toHaveLength(64)
    const inner = `a_${"b".repeat(43)}${"_".repeat(30)}`
    expect(buildToolName(inner, "x")).toBe(`mcp__a_${"b".repeat(43)}__${sha8(`mcp__${inner}__x`)}`)
    const underscored = `${"a".repeat(45)}${"_".repeat(30)}`
    const name = buildToolName(underscored, "x")
    expect(name).toBe(`mcp__${"a".repeat(45)}__${sha8(`mcp__${underscored}__x`)}`)
    expect(parseToolName(name)?.server).toBe("a".repeat(45))
  })

  it("shortens names with a very long server name and still parses to mcp__<s>__<t>", () => {
    const server = "s".repeat(70)
    const a = buildToolName(server, "one")
    const b = buildToolName(server, "two")
    expect(a.length).toBeLessThanOrEqual(MAX_TOOL_NAME_LENGTH)
    expect(a).not.toBe(b)
    expect(parseToolName(a)).toBeDefined()
  })

  it("parses names at the first __ after mcp__ (round-trip)", () => {
    for (const [server, tool] of [["fs", "read_file"], ["a-b", "x__y"], ["s", "_lead"], ["x_y", "z"]] as const) {
      expect(parseToolName(buildToolName(server, tool))).toEqual({ server, tool })
    }
    expect(parseToolName("mcp__fs__a__b")).toEqual({ server: "fs", tool: "a__b" })
  })

  it("rejects names that are not mcp__<server>__<tool>", () => {
    expect(parseToolName("fs__read")).toBeUndefined()
    expect(parseToolName("abcd_fs__read")).toBeUndefined()
    expect(parseToolName("MCP__fs__read")).toBeUndefined()
    expect(parseToolName("mcp__fs")).toBeUndefined()
    expect(parseToolName("mcp__fs__")).toBeUndefined()
    expect(parseToolName("mcp____tool")).toBeUndefined()
    expect(parseToolName("")).toBeUndefined()
  })

  it("leaves short descriptions alone", () => {
    const text = "d".repeat(MAX_DESCRIPTION_LENGTH)
    expect(truncateDescription(text)).toBe(text)
    expect(truncateDescription("")).toBe("")
  })

  it("cuts long descriptions to 2048 including a visible marker", () => {
    const cut = truncateDescription("d".repeat(5000))
    expect(cut.length).toBe(MAX_DESCRIPTION_LENGTH)
    expect(cut.endsWith(TRUNCATION_MARKER)).toBe(true)
    expect(cut.startsWith("d".repeat(100))).toBe(true)
  })

  it("steps back over a high surrogate at the cut (U+D800 to U+DBFF), and only over one", () => {
    const keep = MAX_DESCRIPTION_LENGTH - TRUNCATION_MARKER.length
    const at = (unit: string) => truncateDescription("d".repeat(keep - 1) + unit + "x".repeat(100))
    expect(at("\ud800")).toBe("d".repeat(keep - 1) + TRUNCATION_MARKER)
    expect(at("\udbff")).toBe("d".repeat(keep - 1) + TRUNCATION_MARKER)
    expect(at("\ud7ff")).toBe("d".repeat(keep - 1) + "\ud7ff" + TRUNCATION_MARKER)
    expect(at("\udc00")).toBe("d".repeat(keep - 1) + "\udc00" + TRUNCATION_MARKER)
    expect(truncateDescription("d".repeat(MAX_DESCRIPTION_LENGTH + 1))).toBe("d".repeat(keep) + TRUNCATION_MARKER)
    expect(MAX_DESCRIPTION_LENGTH).toBe(2048)
    expect(TRUNCATION_MARKER).toBe("… [truncated]")
  })

  it("never splits a surrogate pair when cutting", () => {
    const keep = MAX_DESCRIPTION_LENGTH - TRUNCATION_MARKER.length
    const text = "d".repeat(keep - 1) + "😀" + "x".repeat(100)
    const cut = truncateDescription(text)
    expect(cut.length).toBeLessThanOrEqual(MAX_DESCRIPTION_LENGTH)
    expect(cut).toBe("d".repeat(keep - 1) + TRUNCATION_MARKER)
  })
})
