// @ts-nocheck
import { describe, expect, it } from "@effect/vitest"
import { closest, didYouMean, distance } from "@mcpctl/core/internal/Suggest"

describe("did you mean", () => {
  it("counts edits, a swap of two neighbours as one, ignoring case", () => {
    expect(distance("json", "json")).toBe(0)
    expect(distance("jsn", "json")).toBe(1)
    expect(distance("get-sun", "get-sum")).toBe(1)
    expect(distance("tolos", "tools")).toBe(1)
    expect(distance("Tools", "tools")).toBe(0)
    expect(distance("", "abc")).toBe(3)
  })

  it("proposes the close names only, closest first", () => {
    expect(closest("--jsn", ["--json", "--config", "--cwd"])).toEqual(["--json"])
    expect(closest("mcp__everything__get-sun", ["mcp__everything__get-sum", "mcp__everything__echo"])).toEqual([
      "mcp__everything__get-sum"
    ])
    expect(closest("everythin", ["everything", "filesystem", "memory"])).toEqual(["everything"])
    expect(closest("zzz", ["everything", "filesystem"])).toEqual([])
    expect(closest("tool", ["tools", "call", "serve"])).toEqual(["tools"])
    // The closest only: one edit away wins over two.
    expect(closest("get-sun", ["get-sum", "get-env"])).toEqual(["get-sum"])
  })

  it("says it in one sentence, or says nothing", () => {
    expect(didYouMean("fiesystem", ["filesystem", "memory"])).toBe(' Did you mean "filesystem"?')
    expect(didYouMean("qqq", ["filesystem"])).toBe("")
  })
})
