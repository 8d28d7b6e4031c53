// @ts-nocheck
import { describe, expect, it } from "@effect/vitest"
import { oneLine, table } from "../src/Render.js"

describe("rendering", () => {
  it("aligns columns without trailing blanks", () => {
    expect(table(["A", "LONG"], [["xx", "1"], ["y", "22"]])).toBe("A   LONG\nxx  1\ny   22")
  })

  it("cuts a cell to one line", () => {
    expect(oneLine("\n  first line\nsecond", 6)).toBe("first…")
  })
})
