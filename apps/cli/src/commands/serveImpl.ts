/**
 * The work of `mcpctl serve`, loaded only when `serve` runs: the SDK's server side (with its HTTP
 * framework) would otherwise be loaded, and set up, by every command's cold start.
 */
import { makeGateway } from "@mcpctl/core/Gateway"
import { UsageError } from "@mcpctl/core/Errors"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js"
import * as Effect from "effect/Effect"
import * as Runtime from "effect/Runtime"
import { randomUUID } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import { err } from "../Render.js"

/** Serves over stdio until the client closes stdin. */
export const serveStdio = Effect.gen(function*() {
  const server = yield* makeGateway
  const transport = new StdioServerTransport()
  yield* Effect.acquireRelease(Effect.promise(() => server.connect(transport)), () =>
    Effect.promise(() => server.close().catch(() => undefined)))
  err("mcpctl serve: serving MCP on stdio")
  yield* Effect.async<void>((resume) => {
    process.stdin.once("end", () => resume(Effect.void))
    process.stdin.once("close", () => resume(Effect.void))
  })
})

/**
 * Serves Streamable HTTP: one gateway server and transport per session, as the SDK requires;
 * only loopback, so nothing on the network reaches the user's servers through us.
 */
export const serveHttp = (port: number) =>
  Effect.gen(function*() {
    const sessions = new Map<string, StreamableHTTPServerTransport>()
    const makeSession = Effect.gen(function*() {
      const server = yield* makeGateway
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void sessions.set(id, transport)
      })
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId)
      }
      yield* Effect.promise(() => server.connect(transport))
      return transport
    })
    // Sessions start from the HTTP server's callbacks: run them with this fiber's services and
    // scope, so their gateways close with the command.
    const runSession = Runtime.runPromise(yield* Effect.runtime<Effect.Effect.Context<typeof makeSession>>())
    const handle = async (req: IncomingMessage, res: ServerResponse) => {
      if (!req.url?.startsWith("/mcp")) {
        res.writeHead(404).end()
        return
      }
      const id = req.headers["mcp-session-id"]
      const existing = typeof id === "string" ? sessions.get(id) : undefined
      if (existing) return existing.handleRequest(req, res)
      if (req.method !== "POST" || id !== undefined) {
        res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({
          jsonrpc: "2.0",
          error: { code: -32001, message: "Session not found" },
          id: null
        }))
        return
      }
      const transport = await runSession(makeSession).catch(() => undefined)
      if (!transport) return void res.writeHead(500).end()
      return transport.handleRequest(req, res)
    }
    const listener = createServer((req, res) => void handle(req, res))
    const bound = yield* Effect.async<number, UsageError>((resume) => {
      listener.once("error", (e) => resume(Effect.fail(new UsageError({ message: `Cannot serve on 127.0.0.1:${port}: ${e.message}` }))))
      listener.listen(port, "127.0.0.1", () => resume(Effect.succeed((listener.address() as { port: number }).port)))
    })
    yield* Effect.addFinalizer(() =>
      Effect.promise(async () => {
        for (const t of sessions.values()) await t.close().catch(() => undefined)
        listener.closeAllConnections()
        await new Promise((resolve) => listener.close(resolve))
      }))
    err(`mcpctl serve: serving MCP on http://127.0.0.1:${bound}/mcp`)
    return yield* Effect.never
  })

