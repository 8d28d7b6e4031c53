import { Everything } from "@mcpctl/testing"
import { describe, expect, it } from "@effect/vitest"
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import type { Transport as SdkTransport } from "@modelcontextprotocol/sdk/shared/transport.js"
import {
  CallToolRequestSchema,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  ListToolsRequestSchema,
  McpError
} from "@modelcontextprotocol/sdk/types.js"
import * as Effect from "effect/Effect"
import type { ChildProcess } from "node:child_process"
import { once, getEventListeners } from "node:events"
import { existsSync } from "node:fs"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll } from "vitest"
import { WebSocketServer, type WebSocket } from "ws"
import type { RemoteServerConfig, ResolvedServer } from "../src/config/ServerConfig.js"
import { fetchWithTimeout, openRemote, RequestTimeoutError } from "../src/transport/Http.js"
import {
  isAuthError,
  isSessionExpired,
  isTerminalTransportError,
  shouldFallBackToSse,
  WebSocketHandshakeError
} from "../src/transport/TransportErrors.js"
import { WebSocketTransport } from "../src/transport/WebSocket.js"
import { Transport } from "../src/transport/Transport.js"

// ---------------------------------------------------------------------------------------------
// helpers
// ---------------------------------------------------------------------------------------------

const { freePort, startEverything, stopServer: stop } = Everything


const listen = async (handler: http.RequestListener): Promise<{ server: http.Server; url: string }> => {
  const server = http.createServer(handler)
  server.listen(0, "127.0.0.1")
  await once(server, "listening")
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
}

const closeServer = (server: http.Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections()
    server.close(() => resolve())
  })

const resolved = (config: RemoteServerConfig): ResolvedServer => ({
  name: "remote",
  originalName: "remote",
  scope: "flag",
  source: "/test/settings.json",
  transport: config.type ?? "auto",
  config
})

/** Opens a transport in the test's scope and connects an SDK client; the scope closes both. */
const connect = (config: RemoteServerConfig, kind: "http" | "sse" | "ws", requestTimeoutMs?: number) =>
  Effect.gen(function*() {
    const opened = yield* openRemote(resolved(config), config, kind, { requestTimeoutMs })
    const client = new Client({ name: "mcpctl-test", version: "0.0.0" })
    yield* Effect.acquireRelease(
      Effect.tryPromise(() => client.connect(opened.transport)),
      () => Effect.promise(() => client.close())
    )
    return { client, opened }
  })

/** Runs `connect` and returns the rejection the SDK client produced. */
const connectError = (config: RemoteServerConfig, kind: "http" | "sse" | "ws") =>
  Effect.gen(function*() {
    const opened = yield* openRemote(resolved(config), config, kind)
    const client = new Client({ name: "mcpctl-test", version: "0.0.0" })
    return yield* Effect.promise(() => client.connect(opened.transport).then(() => undefined, (e: unknown) => e))
  })

const textOf = (result: unknown): string =>
  ((result as { content: Array<{ type: string; text?: string }> }).content.find((c) => c.type === "text")?.text) ??
    ""

// ---------------------------------------------------------------------------------------------
// server-everything over Streamable HTTP and SSE
// ---------------------------------------------------------------------------------------------

describe("server-everything", () => {
  let http_: { child: ChildProcess; port: number } | undefined
  let sse: { child: ChildProcess; port: number } | undefined

  beforeAll(async () => {
    expect(existsSync(Everything.everythingServer)).toBe(true)
    ;[http_, sse] = await Promise.all([startEverything("streamableHttp"), startEverything("sse")])
  })
  afterAll(async () => {
    await Promise.all([stop(http_?.child), stop(sse?.child)])
  })

  it.scoped("Streamable HTTP: lists tools and calls echo", () =>
    Effect.gen(function*() {
      const { client, opened } = yield* connect(
        { type: "http", url: `http://127.0.0.1:${http_!.port}/mcp`, headers: { "X-Test": "1" } },
        "http"
      )
      expect(opened.kind).toBe("http")
      expect(opened.transport.sessionId).toBeTypeOf("string")
      const { tools } = yield* Effect.promise(() => client.listTools())
      expect(tools.map((t) => t.name)).toContain("echo")
      const result = yield* Effect.promise(() =>
        client.callTool({ name: "echo", arguments: { message: "hello over http" } })
      )
      expect(textOf(result)).toContain("hello over http")
    }))

  it.scoped("SSE: lists tools and calls echo", () =>
    Effect.gen(function*() {
      const { client } = yield* connect({ type: "sse", url: `http://127.0.0.1:${sse!.port}/sse` }, "sse")
      const { tools } = yield* Effect.promise(() => client.listTools())
      expect(tools.map((t) => t.name)).toContain("echo")
      const result = yield* Effect.promise(() =>
        client.callTool({ name: "echo", arguments: { message: "hello over sse" } })
      )
      expect(textOf(result)).toContain("hello over sse")
    }))

  it.scoped("Streamable HTTP: a POST response streaming longer than the request timeout is not cut", () =>
    Effect.gen(function*() {
      // 800 ms bounds headers only; the tool streams progress for 2 s in the POST's SSE body,
      // while the standalone GET stream stays open the whole time.
      const { client } = yield* connect({ type: "http", url: `http://127.0.0.1:${http_!.port}/mcp` }, "http", 800)
      const errors: Array<Error> = []
      client.onerror = (error) => errors.push(error)
      const progress: Array<number> = []
      const result = yield* Effect.promise(() =>
        client.callTool(
          { name: "trigger-long-running-operation", arguments: { duration: 2, steps: 4 } },
          undefined,
          { onprogress: (p) => progress.push(p.progress), timeout: 10_000 }
        )
      )
      expect(textOf(result)).toContain("Long running operation completed")
      expect(progress).toEqual([1, 2, 3, 4])
      const echo = yield* Effect.promise(() => client.callTool({ name: "echo", arguments: { message: "after" } }))
      expect(textOf(echo)).toContain("after")
      expect(errors).toEqual([])
    }))

  it.effect("auto: an SSE-only server answers the Streamable HTTP POST with 4xx, so SSE is next", () =>
    Effect.gen(function*() {
      const error = yield* Effect.scoped(connectError({ url: `http://127.0.0.1:${sse!.port}/sse` }, "http"))
      expect(error).toBeInstanceOf(StreamableHTTPError)
      expect(shouldFallBackToSse(error)).toBe(true)
      expect(isAuthError(error)).toBe(false)
    }))
})

// ---------------------------------------------------------------------------------------------
// fetchWithTimeout
// ---------------------------------------------------------------------------------------------

describe("fetchWithTimeout", () => {
  it.effect("aborts a request whose headers never arrive", () =>
    Effect.gen(function*() {
      const { server, url } = yield* Effect.promise(() => listen(() => {/* never answers */}))
      yield* Effect.addFinalizer(() => Effect.promise(() => closeServer(server)))
      const started = Date.now()
      const error = yield* Effect.promise(() => fetchWithTimeout(200)(url).then(() => undefined, (e: unknown) => e))
      expect(error).toBeInstanceOf(RequestTimeoutError)
      expect(Date.now() - started).toBeLessThan(5_000)
      expect(isTerminalTransportError(error)).toBe(true)
    }).pipe(Effect.scoped))

  it.effect("does not abort a body that streams slowly after the headers", () =>
    Effect.gen(function*() {
      const { server, url } = yield* Effect.promise(() =>
        listen((_req, res) => {
          res.writeHead(200, { "content-type": "text/event-stream" })
          res.write("data: first\n\n")
          // well past the 200 ms timeout
          setTimeout(() => res.end("data: last\n\n"), 600)
        })
      )
      yield* Effect.addFinalizer(() => Effect.promise(() => closeServer(server)))
      const outer = new AbortController()
      const body = yield* Effect.promise(() =>
        fetchWithTimeout(200)(url, { signal: outer.signal }).then((r) => r.text())
      )
      expect(body).toBe("data: first\n\ndata: last\n\n")
      // the forwarding listener is gone once the body ended
      expect(getEventListeners(outer.signal, "abort")).toHaveLength(0)
    }).pipe(Effect.scoped))

  it.effect("an aborted incoming signal still aborts the streaming body", () =>
    Effect.gen(function*() {
      const { server, url } = yield* Effect.promise(() =>
        listen((_req, res) => {
          res.writeHead(200, { "content-type": "text/event-stream" })
          res.write("data: first\n\n")
        })
      )
      yield* Effect.addFinalizer(() => Effect.promise(() => closeServer(server)))
      const outer = new AbortController()
      const response = yield* Effect.promise(() => fetchWithTimeout(10_000)(url, { signal: outer.signal }))
      const reader = response.body!.getReader()
      const first = yield* Effect.promise(() => reader.read())
      expect(new TextDecoder().decode(first.value)).toBe("data: first\n\n")
      outer.abort(new Error("closing"))
      const rest = yield* Effect.promise(() => reader.read().then(() => "read", () => "aborted"))
      expect(rest).toBe("aborted")
      expect(getEventListeners(outer.signal, "abort")).toHaveLength(0)
    }).pipe(Effect.scoped))

  it.effect("many requests on one transport-lifetime signal leave no listeners behind", () =>
    Effect.gen(function*() {
      const { server, url } = yield* Effect.promise(() => listen((_req, res) => res.end("ok")))
      yield* Effect.addFinalizer(() => Effect.promise(() => closeServer(server)))
      const outer = new AbortController()
      const f = fetchWithTimeout(5_000)
      for (let i = 0; i < 20; i++) {
        expect(yield* Effect.promise(() => f(url, { signal: outer.signal }).then((r) => r.text()))).toBe("ok")
      }
      expect(getEventListeners(outer.signal, "abort")).toHaveLength(0)
    }).pipe(Effect.scoped))
})

// ---------------------------------------------------------------------------------------------
// Real HTTP failures → predicates
// ---------------------------------------------------------------------------------------------

describe("predicates on real SDK errors", () => {
  it.effect("405 to POST → fall back to SSE", () =>
    Effect.gen(function*() {
      const { server, url } = yield* Effect.promise(() =>
        listen((_req, res) => {
          res.writeHead(405, { allow: "GET" })
          res.end("Method Not Allowed")
        })
      )
      yield* Effect.addFinalizer(() => Effect.promise(() => closeServer(server)))
      const error = yield* connectError({ url: `${url}/mcp` }, "http")
      expect(shouldFallBackToSse(error)).toBe(true)
      expect(isSessionExpired(error)).toBe(false)
    }).pipe(Effect.scoped))

  it.effect("401 → auth error, no fallback", () =>
    Effect.gen(function*() {
      const { server, url } = yield* Effect.promise(() =>
        listen((_req, res) => {
          res.writeHead(401)
          res.end()
        })
      )
      yield* Effect.addFinalizer(() => Effect.promise(() => closeServer(server)))
      const httpError = yield* connectError({ url: `${url}/mcp` }, "http")
      expect(isAuthError(httpError)).toBe(true)
      expect(shouldFallBackToSse(httpError)).toBe(false)
      const sseError = yield* connectError({ url: `${url}/sse` }, "sse")
      expect(isAuthError(sseError)).toBe(true)
      const wsError = yield* connectError({ url: url.replace("http", "ws") }, "ws")
      expect(wsError).toBeInstanceOf(WebSocketHandshakeError)
      expect(isAuthError(wsError)).toBe(true)
    }).pipe(Effect.scoped))

  it.effect("404 with JSON-RPC -32001 → session expired", () =>
    Effect.gen(function*() {
      const { server, url } = yield* Effect.promise(() =>
        listen((_req, res) => {
          res.writeHead(404, { "content-type": "application/json" })
          res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null }))
        })
      )
      yield* Effect.addFinalizer(() => Effect.promise(() => closeServer(server)))
      const error = yield* connectError({ url: `${url}/mcp` }, "http")
      expect(isSessionExpired(error)).toBe(true)
    }).pipe(Effect.scoped))

  it.effect("connection refused → terminal", () =>
    Effect.gen(function*() {
      const port = yield* Effect.promise(freePort)
      const error = yield* Effect.scoped(connectError({ url: `http://127.0.0.1:${port}/mcp` }, "http"))
      expect(isTerminalTransportError(error)).toBe(true)
      expect(shouldFallBackToSse(error)).toBe(false)
    }))
})

// ---------------------------------------------------------------------------------------------
// Headers and session end against minimal hand-written servers
// ---------------------------------------------------------------------------------------------

const readBody = (req: http.IncomingMessage) =>
  new Promise<string>((resolve) => {
    let body = ""
    req.on("data", (chunk) => (body += chunk))
    req.on("end", () => resolve(body))
  })

const initializeResult = (id: unknown) => ({
  jsonrpc: "2.0",
  id,
  result: { protocolVersion: "2025-06-18", capabilities: {}, serverInfo: { name: "mini", version: "0" } }
})

describe("headers and session end", () => {
  it.effect("SSE: configured headers reach the stream's GET and the POSTs", () =>
    Effect.gen(function*() {
      const seen: Array<{ method: string; header: string | undefined }> = []
      let stream: http.ServerResponse | undefined
      const { server, url } = yield* Effect.promise(() =>
        listen(async (req, res) => {
          seen.push({ method: req.method!, header: req.headers["x-api-key"] as string | undefined })
          if (req.method === "GET") {
            stream = res
            res.writeHead(200, { "content-type": "text/event-stream" })
            res.write("event: endpoint\ndata: /messages\n\n")
            return
          }
          const message = JSON.parse(await readBody(req))
          res.writeHead(202).end()
          if (message.method === "initialize") {
            stream!.write(`event: message\ndata: ${JSON.stringify(initializeResult(message.id))}\n\n`)
          }
        })
      )
      yield* Effect.addFinalizer(() => Effect.promise(() => closeServer(server)))
      yield* connect({ type: "sse", url: `${url}/sse`, headers: { "X-Api-Key": "k-123" } }, "sse")
      expect(seen.map((s) => s.method)).toEqual(["GET", "POST", "POST"])
      expect(seen.every((s) => s.header === "k-123")).toBe(true)
    }).pipe(Effect.scoped))

  const miniStreamableHttp = (onDelete: (req: http.IncomingMessage, res: http.ServerResponse) => void) =>
    listen(async (req, res) => {
      if (req.method === "GET") return void res.writeHead(405).end()
      if (req.method === "DELETE") return onDelete(req, res)
      const message = JSON.parse(await readBody(req))
      if (message.method === "initialize") {
        res.writeHead(200, { "content-type": "application/json", "mcp-session-id": "session-1" })
        res.end(JSON.stringify(initializeResult(message.id)))
      } else {
        res.writeHead(202).end()
      }
    })

  it.effect("Streamable HTTP: closing the scope ends the session with DELETE", () =>
    Effect.gen(function*() {
      const deletes: Array<string | undefined> = []
      const { server, url } = yield* Effect.promise(() =>
        miniStreamableHttp((req, res) => {
          deletes.push(req.headers["mcp-session-id"] as string | undefined)
          res.writeHead(200).end()
        })
      )
      yield* Effect.addFinalizer(() => Effect.promise(() => closeServer(server)))
      yield* Effect.scoped(connect({ type: "http", url: `${url}/mcp` }, "http"))
      expect(deletes).toEqual(["session-1"])
    }).pipe(Effect.scoped))

  it.effect("Streamable HTTP: a DELETE that never answers does not hold up closing", () =>
    Effect.gen(function*() {
      let deleted = false
      const { server, url } = yield* Effect.promise(() =>
        miniStreamableHttp(() => {
          deleted = true // and never answer
        })
      )
      yield* Effect.addFinalizer(() => Effect.promise(() => closeServer(server)))
      const started = yield* Effect.scoped(
        Effect.gen(function*() {
          yield* connect({ type: "http", url: `${url}/mcp` }, "http")
          return Date.now()
        })
      )
      const closeMs = Date.now() - started
      expect(deleted).toBe(true)
      expect(closeMs).toBeLessThan(1_000)
    }).pipe(Effect.scoped))
})

// ---------------------------------------------------------------------------------------------
// WebSocket
// ---------------------------------------------------------------------------------------------

/** Server side of MCP over one `ws` socket, enough to run an SDK `Server` in the test. */
class ServerSocketTransport implements SdkTransport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void
  constructor(private readonly socket: WebSocket) {}
  async start() {
    this.socket.on("message", (data) => this.onmessage?.(JSONRPCMessageSchema.parse(JSON.parse(data.toString()))))
    this.socket.on("close", () => this.onclose?.())
  }
  async send(message: JSONRPCMessage) {
    this.socket.send(JSON.stringify(message))
  }
  async close() {
    this.socket.close()
  }
}

const startWsServer = async () => {
  const seen: Array<{ headers: http.IncomingHttpHeaders; protocol: string }> = []
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0 })
  await once(wss, "listening")
  wss.on("connection", (socket, request) => {
    seen.push({ headers: request.headers, protocol: socket.protocol })
    const server = new Server({ name: "ws-echo", version: "0.0.0" }, { capabilities: { tools: {} } })
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [{ name: "echo", description: "echo", inputSchema: { type: "object", properties: { message: { type: "string" } } } }]
    }))
    server.setRequestHandler(CallToolRequestSchema, async (request) => ({
      content: [{ type: "text", text: `Echo: ${String(request.params.arguments?.message)}` }]
    }))
    void server.connect(new ServerSocketTransport(socket))
  })
  return { wss, seen, url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/mcp` }
}

describe("WebSocket", () => {
  it.scoped("sends headers and the mcp subprotocol, lists tools, calls echo, closes", () =>
    Effect.gen(function*() {
      const { seen, url, wss } = yield* Effect.promise(startWsServer)
      yield* Effect.addFinalizer(() =>
        Effect.promise(() => {
          for (const client of wss.clients) client.terminate()
          return new Promise<void>((resolve) => wss.close(() => resolve()))
        })
      )
      const closed = yield* Effect.scoped(
        Effect.gen(function*() {
          const { client, opened } = yield* connect(
            { type: "ws", url, headers: { Authorization: "Bearer ws-token", "X-Ide": "yes" } },
            "ws"
          )
          const { tools } = yield* Effect.promise(() => client.listTools())
          expect(tools.map((t) => t.name)).toEqual(["echo"])
          const result = yield* Effect.promise(() => client.callTool({ name: "echo", arguments: { message: "hi ws" } }))
          expect(textOf(result)).toBe("Echo: hi ws")
          let onclose = false
          const previous = opened.transport.onclose
          opened.transport.onclose = () => {
            onclose = true
            previous?.()
          }
          return () => onclose
        })
      )
      expect(closed()).toBe(true)
      expect(seen).toHaveLength(1)
      expect(seen[0]!.headers.authorization).toBe("Bearer ws-token")
      expect(seen[0]!.headers["x-ide"]).toBe("yes")
      expect(seen[0]!.protocol).toBe("mcp")
    }))
})

// ---------------------------------------------------------------------------------------------
// Pure predicates on constructed errors
// ---------------------------------------------------------------------------------------------

describe("isSessionExpired", () => {
  const body = JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null })
  it("404 with -32001 in the body", () => {
    expect(isSessionExpired(new StreamableHTTPError(404, `Error POSTing to endpoint: ${body}`))).toBe(true)
  })
  it("404 without -32001 only when the request carried a session id", () => {
    const error = new StreamableHTTPError(404, "Error POSTing to endpoint: Not Found")
    expect(isSessionExpired(error)).toBe(false)
    expect(isSessionExpired(error, { sessionId: "abc" })).toBe(true)
  })
  it("not for other statuses, nor for the SDK's own request timeout (McpError -32001)", () => {
    expect(isSessionExpired(new StreamableHTTPError(400, `Error POSTing to endpoint: ${body}`))).toBe(false)
    expect(isSessionExpired(new McpError(-32001, "Request timed out"))).toBe(false)
    expect(isSessionExpired(new Error("404 -32001"))).toBe(false)
    expect(isSessionExpired(undefined)).toBe(false)
  })
  it("the SessionExpired tagged error", () => {
    expect(isSessionExpired({ _tag: "SessionExpired", message: "x", server: "s" })).toBe(true)
  })
})

describe("isAuthError", () => {
  it("401 and UnauthorizedError", () => {
    expect(isAuthError(new UnauthorizedError())).toBe(true)
    expect(isAuthError(new StreamableHTTPError(401, "Error POSTing to endpoint: "))).toBe(true)
    expect(isAuthError(new WebSocketHandshakeError(401, "refused"))).toBe(true)
    expect(isAuthError(new Error("Error POSTing to endpoint (HTTP 401): nope"))).toBe(true)
  })
  it("not other statuses or plain errors", () => {
    expect(isAuthError(new StreamableHTTPError(403, "forbidden"))).toBe(false)
    expect(isAuthError(new StreamableHTTPError(404, "x"))).toBe(false)
    expect(isAuthError(Object.assign(new Error("x"), { code: 401 }))).toBe(false)
    expect(isAuthError("401")).toBe(false)
  })
})

describe("isTerminalTransportError", () => {
  const sys = (code: string) => Object.assign(new Error(`read ${code}`), { code })
  it.each(["ECONNRESET", "ETIMEDOUT", "EPIPE", "ECONNREFUSED", "EHOSTUNREACH", "ENETUNREACH"])("%s", (code) => {
    expect(isTerminalTransportError(sys(code))).toBe(true)
  })
  it("undici shapes: fetch failed with a terminal cause, socket errors, terminated", () => {
    expect(isTerminalTransportError(new TypeError("fetch failed", { cause: sys("ECONNREFUSED") }))).toBe(true)
    expect(
      isTerminalTransportError(
        new TypeError("fetch failed", { cause: Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }) })
      )
    ).toBe(true)
    expect(isTerminalTransportError(new TypeError("terminated", { cause: sys("ECONNRESET") }))).toBe(true)
    expect(isTerminalTransportError(new TypeError("terminated"))).toBe(true)
    expect(isTerminalTransportError(new Error("socket hang up"))).toBe(true)
    expect(isTerminalTransportError(new AggregateError([sys("ECONNREFUSED")], "connect failed"))).toBe(true)
    expect(isTerminalTransportError(new RequestTimeoutError("http://x", 1))).toBe(true)
  })
  it("not: fetch failed without such a cause, HTTP errors, protocol errors", () => {
    expect(isTerminalTransportError(new TypeError("fetch failed"))).toBe(false)
    expect(isTerminalTransportError(new TypeError("fetch failed", { cause: new Error("invalid url") }))).toBe(false)
    expect(isTerminalTransportError(new StreamableHTTPError(500, "boom"))).toBe(false)
    expect(isTerminalTransportError(new McpError(-32601, "Method not found"))).toBe(false)
    expect(isTerminalTransportError(null)).toBe(false)
  })
})

describe("shouldFallBackToSse", () => {
  it.each([400, 403, 404, 405, 406, 415])("%i → SSE", (code) => {
    expect(shouldFallBackToSse(new StreamableHTTPError(code, "x"))).toBe(true)
  })
  it("not 401, 5xx, network errors or non-HTTP errors", () => {
    expect(shouldFallBackToSse(new StreamableHTTPError(401, "x"))).toBe(false)
    expect(shouldFallBackToSse(new StreamableHTTPError(500, "x"))).toBe(false)
    expect(shouldFallBackToSse(new StreamableHTTPError(-1, "Unexpected content type"))).toBe(false)
    expect(shouldFallBackToSse(new TypeError("fetch failed", { cause: Object.assign(new Error(), { code: "ECONNREFUSED" }) })))
      .toBe(false)
    expect(shouldFallBackToSse(Object.assign(new Error("x"), { code: 404 }))).toBe(false)
  })
})

describe("Transport.layer", () => {
  it.scoped("dispatches remote kinds to openRemote and refuses a kind the entry cannot be", () =>
    Effect.gen(function*() {
      const transport = yield* Transport
      const config: RemoteServerConfig = { type: "ws", url: "ws://127.0.0.1:9/mcp" }
      const opened = yield* transport.open(resolved(config), "ws")
      expect(opened.kind).toBe("ws")
      expect(opened.transport).toBeInstanceOf(WebSocketTransport)
      const error = yield* Effect.flip(transport.open(resolved(config), "stdio"))
      expect(error._tag).toBe("ServerUnavailable")
      expect(error.message).toContain('no "command"')
      const bad = yield* Effect.flip(transport.open(resolved({ url: "not a url" }), "http"))
      expect(bad.message).toContain("not a url")
    }).pipe(Effect.provide(Transport.layer)))
})
