import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { main } from "../../../examples/library.js"

describe("the README's library example", () => {
  // The example's McpConfig.layerStatic has no home, as a library user's would not: it resolves
  // $HOME/.mcpctl (and writes eras.json there), so HOME is a directory of this test's own.
  const saved = process.env.HOME
  const home = mkdtempSync(join(tmpdir(), "mcpctl-example-home-"))
  beforeAll(() => {
    process.env.HOME = home
  })
  afterAll(() => {
    process.env.HOME = saved
    rmSync(home, { recursive: true, force: true })
  })

  it("lists and calls a tool over the in-memory transport", async () => {
    const { result, tools } = await main()
    expect(tools.map((t) => t.name)).toEqual(["mcp__notes__search"])
    expect(tools[0]!.readOnly).toBe(true)
    expect(result.content).toEqual([{ type: "text", text: "found effect" }])
  })
})
