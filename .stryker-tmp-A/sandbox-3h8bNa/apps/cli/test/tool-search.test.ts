/**
 * `mcpctl serve --tool-search` on the built CLI: the deferred catalogue on examples/settings.json
 * (its tools/list size against the full one: goal ≤ 0.2×, both printed for the README), search and
 * call through the two meta tools with the ordinary rules, and servers marked "alwaysLoad".
 */
// @ts-nocheck

import * as fixtures from "@mcpctl/testing/Fixtures"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/client"
import { join } from "node:path"
import { repoRoot, serveTransport, workspace } from "./support.js"

const ws = workspace()
afterAll(() => ws.cleanup())
const examples = join(repoRoot, "examples/settings.json")

const serve = async (config: string, ...flags: Array<string>) => {
  const client = new Client({ name: "test", version: "1" })
  await client.connect(serveTransport(["--config", config, ...flags], { MCPCTL_HOME: ws.home, MCPCTL_MEMORY_FILE: join(ws.dir, "memory.jsonl") }))
  return client
}

const textOf = (result: unknown) => ((result as { content: Array<{ text: string }> }).content)[0]!.text

describe("mcpctl serve --tool-search", () => {
  it("lists two tools instead of the catalogue on examples/settings.json: at most 0.2× the bytes", async () => {
    const full = await serve(examples)
    const deferred = await serve(examples, "--tool-search")
    try {
      const all = await full.listTools()
      const few = await deferred.listTools()
      const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v))
      console.log(`tools/list on examples/settings.json: ${all.tools.length} tools, ${bytes(all)} bytes; ` +
        `--tool-search: ${few.tools.length} tools, ${bytes(few)} bytes (${(bytes(few) / bytes(all)).toFixed(3)}×)`)
      expect(few.tools.map((t) => t.name)).toEqual(["search_tools", "call_tool"])
      expect(all.tools.length).toBeGreaterThan(30)
      expect(bytes(few)).toBeLessThanOrEqual(0.2 * bytes(all))
    } finally {
      await Promise.all([full.close(), deferred.close()])
    }
  })

  it("finds tools with search_tools and runs them with call_tool through the same rules", async () => {
    const client = await serve(examples, "--tool-search")
    try {
      const found = await client.callTool({ name: "search_tools", arguments: { query: "add two numbers", limit: 2 } })
      const tools = JSON.parse(textOf(found)) as Array<{ name: string; inputSchema: { properties: object } }>
      expect(tools.length).toBeLessThanOrEqual(2)
      expect(tools[0]!.name).toBe("mcp__everything__get-sum")
      expect(Object.keys(tools[0]!.inputSchema.properties)).toEqual(["a", "b"])
      const sum = await client.callTool({ name: "call_tool", arguments: { name: "mcp__everything__get-sum", arguments: { a: 2, b: 40 } } })
      expect(sum.isError).toBeFalsy()
      expect(textOf(sum)).toBe("The sum of 2 and 40 is 42.")
      // Denied tools are neither found nor run; an ask without --yes is refused naming the rule.
      const write = await client.callTool({ name: "search_tools", arguments: { query: "write file", limit: 20 } })
      expect(textOf(write)).not.toContain("mcp__filesystem__write_file")
      const denied = await client.callTool({ name: "call_tool", arguments: { name: "mcp__filesystem__write_file", arguments: { path: "x", content: "y" } } })
      expect(denied.isError).toBe(true)
      expect(textOf(denied)).toContain("mcp__filesystem__write_file")
      const asked = await client.callTool({ name: "call_tool", arguments: { name: "mcp__memory__create_entities", arguments: { entities: [] } } })
      expect(asked.isError).toBe(true)
      expect(textOf(asked)).toContain("mcp__memory__create_entities")
      const bad = await client.callTool({ name: "search_tools", arguments: {} })
      expect(bad.isError).toBe(true)
    } finally {
      await client.close()
    }
  })

  it('lists the tools of "alwaysLoad" servers beside the two', async () => {
    const settings = ws.settings("always.json", {
      mcpServers: {
        echo: { command: "node", args: [fixtures.echoServer], alwaysLoad: true },
        everything: { command: "node", args: ["node_modules/@modelcontextprotocol/server-everything/dist/index.js", "stdio"] }
      },
      permissions: { allow: ["mcp__echo__echo"], deny: ["mcp__echo__destructive_thing"] }
    })
    const client = await serve(settings, "--tool-search")
    try {
      const names = (await client.listTools()).tools.map((t) => t.name)
      expect(names.slice(0, 2)).toEqual(["search_tools", "call_tool"])
      expect(names).toContain("mcp__echo__echo")
      expect(names).not.toContain("mcp__echo__destructive_thing")
      expect(names.some((n) => n.startsWith("mcp__everything__"))).toBe(false)
      const echoed = await client.callTool({ name: "mcp__echo__echo", arguments: { text: "direct" } })
      expect(textOf(echoed)).toBe("direct")
    } finally {
      await client.close()
    }
  })
})
