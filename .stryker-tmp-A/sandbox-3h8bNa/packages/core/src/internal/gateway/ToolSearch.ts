/**
 * The deferred catalogue of `serve --tool-search`: instead of every tool's schema, `tools/list`
 * gives two tools, `search_tools` (plain words → the matching tools' names, descriptions and
 * input schemas) and `call_tool` (runs one of them by name), plus the tools of servers marked
 * `"alwaysLoad": true`. A model pays for the schemas it looks up, not for the whole catalogue
 * (docs/guide.md has the sizes on examples/settings.json). Calls through `call_tool` take the same
 * path as direct ones: permissions, pins, timeouts, output budget. Pure definitions and results.
 */
// @ts-nocheck

import type { CallToolResult, Tool } from "@modelcontextprotocol/server"
import type { McpTool } from "../../catalog/ToolRegistry.js"

export const SEARCH_TOOLS = "search_tools"
export const CALL_TOOL = "call_tool"

/** Results of one `search_tools` call when it gives no `limit`, and the most it may ask for. */
export const DEFAULT_SEARCH_LIMIT = 5
export const MAX_SEARCH_LIMIT = 20

/** The two tools that stand for the whole catalogue. */
export const metaTools: ReadonlyArray<Tool> = [
  {
    name: SEARCH_TOOLS,
    description: "Find tools of the connected MCP servers by plain words (what you want done). " +
      `Returns the best matches with their name, description and inputSchema; run one with ${CALL_TOOL}.`,
    inputSchema: {
      type: "object",
      properties: {
        query: { type: "string", description: "What the tool should do, in plain words" },
        limit: { type: "integer", minimum: 1, maximum: MAX_SEARCH_LIMIT, description: `How many tools (default ${DEFAULT_SEARCH_LIMIT})` }
      },
      required: ["query"]
    },
    annotations: { readOnlyHint: true, title: "Search tools" }
  },
  {
    name: CALL_TOOL,
    description: `Run a tool found with ${SEARCH_TOOLS}, by its name, with arguments that match its inputSchema.`,
    inputSchema: {
      type: "object",
      properties: {
        name: { type: "string", description: "The tool's name, mcp__<server>__<tool>" },
        arguments: { type: "object", description: "The tool's arguments" }
      },
      required: ["name"]
    },
    annotations: { title: "Call a tool" }
  }
]

/** The `limit` of a `search_tools` call, bounded (pure). */
export const searchLimit = (value: unknown): number =>
  typeof value === "number" && Number.isFinite(value) ? Math.min(MAX_SEARCH_LIMIT, Math.max(1, Math.floor(value))) : DEFAULT_SEARCH_LIMIT

/** A `search_tools` answer: the matches as JSON text (what a model reads) and as structured content. */
export const searchResult = (tools: ReadonlyArray<McpTool>): CallToolResult => {
  const found = tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }))
  return {
    content: [{
      type: "text",
      text: found.length === 0 ? "No tool matches. Try other words." : JSON.stringify(found)
    }],
    structuredContent: { tools: found }
  }
}
