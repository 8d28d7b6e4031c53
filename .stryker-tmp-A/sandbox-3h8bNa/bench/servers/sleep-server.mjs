#!/usr/bin/env node
// @ts-nocheck
// A stdio MCP server with one `sleep` tool that answers after `ms` milliseconds: the server-side
// time of the daemon's concurrency figure (many clients, one warm host, calls that overlap).
import { Server } from "@modelcontextprotocol/server"
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio"

const server = new Server({ name: "sleep-server", version: "1.0.0" }, { capabilities: { tools: {} } })
server.setRequestHandler("tools/list", async () => ({
  tools: [{
    name: "sleep",
    description: "Answers after ms milliseconds",
    inputSchema: { type: "object", properties: { ms: { type: "number" } } },
    annotations: { readOnlyHint: true }
  }]
}))
server.setRequestHandler("tools/call", async (request) => {
  const ms = Number(request.params.arguments?.ms ?? 0)
  await new Promise((resolve) => setTimeout(resolve, ms))
  return { content: [{ type: "text", text: `slept ${ms}` }] }
})
await server.connect(new StdioServerTransport())
