// @ts-nocheck
import { describe, expect, it } from "@effect/vitest"
import { main } from "../../../examples/library.js"

describe("the README's library example", () => {
  it("lists and calls a tool over the in-memory transport", async () => {
    const { result, tools } = await main()
    expect(tools.map((t) => t.name)).toEqual(["mcp__notes__search"])
    expect(tools[0]!.readOnly).toBe(true)
    expect(result.content).toEqual([{ type: "text", text: "found effect" }])
  })
})
