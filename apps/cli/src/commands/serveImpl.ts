/**
 * The work of `mcpctl serve`, loaded only when `serve` runs: the SDK's server side (with its HTTP
 * framework) would otherwise be loaded, and set up, by every command's cold start.
 */
import { makeGateway } from "@mcpctl/core/Gateway"
import { UsageError } from "@mcpctl/core/Errors"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js"
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js"
import * as Effect from "effect/Effect"
import * as ExecutionStrategy from "effect/ExecutionStrategy"
import * as Exit from "effect/Exit"
import * as Runtime from "effect/Runtime"
import * as Scope from "effect/Scope"
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
    const parent = yield* Effect.scope
    // Each session has its own scope (its gateway, its event subscription), closed with it.
    const makeSession = Effect.gen(function*() {
      const scope = yield* Scope.fork(parent, ExecutionStrategy.sequential)
      const server = yield* makeGateway.pipe(Scope.extend(scope))
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void sessions.set(id, transport)
      })
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId)
        runSession(Scope.close(scope, Exit.void)).catch(() => undefined)
      }
      yield* Effect.promise(() => server.connect(transport))
      return transport
    })
    // Sessions start from the HTTP server's callbacks: run them with this fiber's services.
    const runSession = Runtime.runPromise(yield* Effect.runtime<Effect.Effect.Context<typeof makeSession>>())
    let bound = port
    const handle = async (req: IncomingMessage, res: ServerResponse) => {
      if (!req.url?.startsWith("/mcp")) {
        res.writeHead(404).end()
        return
      }
      // DNS rebinding: a web page must not reach the user's tools through a name that resolves
      // to 127.0.0.1, so only loopback Host (and Origin, when a browser sends one) are served.
      const loopback = [`127.0.0.1:${bound}`, `localhost:${bound}`, `[::1]:${bound}`]
      const origin = req.headers.origin
      if (!loopback.includes(req.headers.host ?? "") || (origin !== undefined && !loopback.some((h) => origin === `http://${h}`))) {
        res.writeHead(403, { "content-type": "text/plain" }).end("mcpctl serve answers only loopback hosts and origins\n")
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
      // Only an initialize request opens a session (and builds a gateway).
      const body = await readJson(req)
      if (!isInitializeRequest(body)) {
        res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({
          jsonrpc: "2.0",
          error: { code: -32600, message: "No session: send initialize first" },
          id: null
        }))
        return
      }
      const transport = await runSession(makeSession).catch(() => undefined)
      if (!transport) return void res.writeHead(500).end()
      return transport.handleRequest(req, res, body)
    }
    const listener = createServer((req, res) => void handle(req, res))
    bound = yield* Effect.async<number, UsageError>((resume) => {
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


/** The JSON body of a request (undefined when it is not JSON). */
const readJson = (req: IncomingMessage): Promise<unknown> =>
  new Promise((resolve) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")))
      } catch {
        resolve(undefined)
      }
    })
    req.on("error", () => resolve(undefined))
  })
