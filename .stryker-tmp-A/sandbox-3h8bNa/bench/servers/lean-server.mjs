#!/usr/bin/env node
// @ts-nocheck
// The benchmark's lean MCP server: the SDK's low-level `Server` (no McpServer, no zod schemas of
// our own) with one read-only `echo` tool, so its own start-up and per-call cost are as small as
// the SDK allows and the figures measure the client side.
//
//   node lean-server.mjs                       stdio, 2025 era only (a hand-wired StdioServerTransport)
//   node lean-server.mjs --modern              stdio, both eras (`serveStdio`: a connection that opens with
//                                              server/discover or a 2026-07-28 request is served modern)
//   node lean-server.mjs --http [P]            Streamable HTTP on 127.0.0.1:P (0 = any free port), 2025 era,
//                                              stateful sessions, JSON responses; prints "listening <url>"
//   node lean-server.mjs --http [P] --modern   Streamable HTTP, both eras (`createMcpHandler`: stateless
//                                              2026-07-28, JSON responses; 2025 requests answered statelessly)
import { Server } from "@modelcontextprotocol/server"

const echo = {
  name: "echo",
  description: "Echoes its text argument back",
  inputSchema: { type: "object", properties: { text: { type: "string" } } },
  annotations: { readOnlyHint: true }
}
// `--tools N` (the bench's scale rows): N tools, `echo` and N - 1 more like it, in one tools/list.
const toolsIndex = process.argv.indexOf("--tools")
const toolCount = toolsIndex >= 0 ? Math.max(1, Number(process.argv[toolsIndex + 1]) || 1) : 1
const tools = [echo, ...Array.from({ length: toolCount - 1 }, (_, i) => ({ ...echo, name: `echo_${i + 1}`, description: `Echo number ${i + 1}: echoes its text argument back` }))]

const makeServer = () => {
  const server = new Server({ name: "lean-server", version: "1.0.0" }, { capabilities: { tools: {} } })
  server.setRequestHandler("tools/list", async () => ({ tools }))
  server.setRequestHandler("tools/call", async (request) => {
    if (request.params.name !== "echo") {
      return { content: [{ type: "text", text: `unknown tool ${request.params.name}` }], isError: true }
    }
    return { content: [{ type: "text", text: String(request.params.arguments?.text ?? "") }] }
  })
  return server
}

const httpIndex = process.argv.indexOf("--http")
const modern = process.argv.includes("--modern")
const portArg = () => Number(process.argv[httpIndex + 1] ?? 0) || 0
if (httpIndex === -1 && modern) {
  const { serveStdio } = await import("@modelcontextprotocol/server/stdio")
  serveStdio(() => makeServer(), { legacy: "serve" })
} else if (modern) {
  const { createServer } = await import("node:http")
  const { toNodeHandler } = await import("@modelcontextprotocol/node")
  const { createMcpHandler } = await import("@modelcontextprotocol/server")
  const handler = createMcpHandler(() => makeServer(), { legacy: "stateless" })
  const serve = toNodeHandler(handler)
  const http = createServer((req, res) => void serve(req, res))
  http.keepAliveTimeout = 60_000
  http.listen(portArg(), "127.0.0.1", () => process.stdout.write(`listening http://127.0.0.1:${http.address().port}/mcp\n`))
  const stop = () => {
    http.closeAllConnections()
    void handler.close().finally(() => http.close(() => process.exit(0)))
  }
  process.on("SIGTERM", stop)
  process.on("SIGINT", stop)
} else if (httpIndex === -1) {
  const { StdioServerTransport } = await import("@modelcontextprotocol/server/stdio")
  await makeServer().connect(new StdioServerTransport())
} else {
  const { createServer } = await import("node:http")
  const { randomUUID } = await import("node:crypto")
  const { NodeStreamableHTTPServerTransport: StreamableHTTPServerTransport } = await import("@modelcontextprotocol/node")
  const port = portArg()
  /** Live sessions by id: one Server + transport per client, as the SDK's stateful example does. */
  const sessions = new Map()
  const http = createServer(async (req, res) => {
    try {
      const id = req.headers["mcp-session-id"]
      let transport = typeof id === "string" ? sessions.get(id) : undefined
      if (transport === undefined) {
        if (typeof id === "string") {
          res.writeHead(404, { "content-type": "application/json" })
          res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null }))
          return
        }
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          enableJsonResponse: true,
          onsessioninitialized: (sid) => sessions.set(sid, transport)
        })
        transport.onclose = () => {
          if (transport.sessionId) sessions.delete(transport.sessionId)
        }
        await makeServer().connect(transport)
      }
      await transport.handleRequest(req, res)
    } catch (error) {
      if (!res.headersSent) res.writeHead(500)
      res.end(String(error))
    }
  })
  http.keepAliveTimeout = 60_000
  http.listen(port, "127.0.0.1", () => {
    const address = http.address()
    process.stdout.write(`listening http://127.0.0.1:${address.port}/mcp\n`)
  })
  const stop = () => http.close(() => process.exit(0))
  process.on("SIGTERM", stop)
  process.on("SIGINT", stop)
}
