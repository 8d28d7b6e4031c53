/**
 * The catalogue's vocabulary (internal/catalog/tools.ts), pure: what a listed tool becomes
 * (names, titles, the output-size hint, icons), which tools collide, which deny rules match no
 * listed tool, and the definition handed to the SDK's `callTool`.
 */
import { describe, expect, it } from "@effect/vitest"
import type { Tool } from "@modelcontextprotocol/client"
import {
  collisionMessage,
  indexTools,
  MAX_RESULT_CHARS_HINT,
  noTools,
  RESULT_SIZE_META,
  toMcpTool,
  toolDefinitionOf,
  unmatchedDenies
} from "@mcpctl/core/internal/catalog/tools"

const schema = { type: "object" } as const
const tool = (name: string, extra: Partial<Tool> = {}): Tool => ({ name, inputSchema: schema, ...extra })
const hinted = (hint: unknown) => toMcpTool("fs", tool("read", { _meta: { [RESULT_SIZE_META]: hint } }))

describe("toMcpTool", () => {
  it("takes the title, else the annotations' title, else the name; a missing description is empty", () => {
    expect(toMcpTool("fs", tool("read", { title: "Top", annotations: { title: "Inner" } })).title).toBe("Top")
    expect(toMcpTool("fs", tool("read", { annotations: { title: "Inner" } })).title).toBe("Inner")
    const bare = toMcpTool("fs", tool("read"))
    expect(bare.title).toBe("read")
    expect(bare.description).toBe("")
    expect(toMcpTool("fs", tool("read", { description: "says what" })).description).toBe("says what")
  })

  it("a tool without hints takes the spec's defaults: destructive, open-world, not idempotent, not concurrency-safe", () => {
    expect(toMcpTool("fs", tool("write"))).toMatchObject({
      name: "mcp__fs__write",
      server: "fs",
      tool: "write",
      readOnly: false,
      destructive: true,
      openWorld: true,
      idempotent: false,
      concurrencySafe: false,
      inputSchema: schema,
      outputSchema: undefined
    })
    const idempotent = toMcpTool("fs", tool("put", { annotations: { idempotentHint: true, destructiveHint: false } }))
    expect(idempotent).toMatchObject({ idempotent: true, destructive: false, concurrencySafe: false })
  })

  it("keeps the output schema and a definition hash that follows the definition", () => {
    const outputSchema = { type: "object", properties: { n: { type: "number" } } } as const
    const a = toMcpTool("fs", tool("read", { outputSchema }))
    expect(a.outputSchema).toEqual(outputSchema)
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/)
    expect(toMcpTool("fs", tool("read", { outputSchema })).hash).toBe(a.hash)
    expect(toMcpTool("fs", tool("read", { description: "other" })).hash).not.toBe(a.hash)
  })

  it("a server's output-size hint is a whole number of characters, capped; anything else is no hint", () => {
    expect(hinted(1234.9).maxResultChars).toBe(1234)
    expect(hinted(MAX_RESULT_CHARS_HINT * 10).maxResultChars).toBe(MAX_RESULT_CHARS_HINT)
    expect(hinted(MAX_RESULT_CHARS_HINT).maxResultChars).toBe(MAX_RESULT_CHARS_HINT)
    for (const bad of [0, -5, Number.POSITIVE_INFINITY, Number.NaN, "100", null]) {
      expect(hinted(bad)).not.toHaveProperty("maxResultChars")
    }
    expect(toMcpTool("fs", tool("read"))).not.toHaveProperty("maxResultChars")
  })

  it("keeps the server's icons, and no key for none", () => {
    const icons = [{ src: "https://example.com/i.png" }]
    expect(toMcpTool("fs", tool("read", { icons })).icons).toEqual(icons)
    expect(toMcpTool("fs", tool("read", { icons: [] }))).not.toHaveProperty("icons")
    expect(toMcpTool("fs", tool("read"))).not.toHaveProperty("icons")
  })
})

describe("indexTools and collisionMessage", () => {
  it("tools that map to one qualified name are all refused; the others stay, in order", () => {
    const listed = [toMcpTool("fs", tool("write_file")), toMcpTool("fs", tool("read")), toMcpTool("fs", tool("write.file")), toMcpTool("fs", tool("a"))]
    const { collisions, tools } = indexTools(listed)
    expect(tools.map((t) => t.tool)).toEqual(["read", "a"])
    expect([...collisions.keys()]).toEqual(["mcp__fs__write_file"])
    expect(collisions.get("mcp__fs__write_file")!.map((t) => t.tool)).toEqual(["write_file", "write.file"])
    expect(indexTools([listed[1]!]).collisions.size).toBe(0)
  })

  it("the message names every colliding tool and the name they share", () => {
    const both = [toMcpTool("fs", tool("write_file")), toMcpTool("fs", tool("write.file"))]
    expect(collisionMessage("fs", "mcp__fs__write_file", both)).toBe(
      `Server "fs" has tools "write_file" and "write.file" that all map to mcp__fs__write_file; ` +
        `none of them is listed or callable, since a call could not say which one it means. Rename them on the server.`
    )
  })
})

describe("unmatchedDenies", () => {
  const listed = [toMcpTool("fs", tool("read_file")), toMcpTool("fs", tool("write-file"))]

  it("warns of a deny rule naming one tool of the server that no listed tool matches, listing what it has", () => {
    expect(unmatchedDenies(["mcp__fs__delete"], "fs", listed)).toEqual([
      `permissions.deny rule "mcp__fs__delete" matches no tool of fs (it lists mcp__fs__read_file, mcp__fs__write-file). ` +
        "Check the tool's name with `mcpctl tools fs`."
    ])
    expect(unmatchedDenies(["mcp__fs__delete"], "fs", [])).toEqual([
      `permissions.deny rule "mcp__fs__delete" matches no tool of fs (it lists none). Check the tool's name with \`mcpctl tools fs\`.`
    ])
  })

  it("a rule that matches a listed tool, even folded, is no warning", () => {
    expect(unmatchedDenies(["mcp__fs__read_file", "mcp__fs__WRITE_FILE"], "fs", listed)).toEqual([])
  })

  it("wildcards, server rules and other servers' rules are not this check's", () => {
    expect(unmatchedDenies(["mcp__fs__del*", "mcp__fs", "mcp__other__delete", "Bash"], "fs", listed)).toEqual([])
  })

  it("a rule written for the server's name folded (case, separators) is checked too", () => {
    expect(unmatchedDenies(["mcp__FS__delete"], "fs", listed)).toHaveLength(1)
  })
})

describe("toolDefinitionOf and noTools", () => {
  it("hands the SDK the server's tool name and input schema only, never the output schema", () => {
    const mcp = toMcpTool("fs", tool("read.file", { outputSchema: { type: "object" }, description: "d" }))
    expect(toolDefinitionOf(mcp)).toEqual({ name: "read.file", inputSchema: schema })
  })

  it("the empty list has no tools, collisions or names", () => {
    expect(noTools.tools).toEqual([])
    expect(noTools.collisions.size).toBe(0)
    expect(noTools.byName.size).toBe(0)
  })
})
