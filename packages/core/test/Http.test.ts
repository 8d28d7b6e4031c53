import { Everything } from "@mcpctl/testing"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import type { ChildProcess } from "node:child_process"
import { getEventListeners } from "node:events"
import { existsSync } from "node:fs"
import type * as http from "node:http"
import { afterAll, beforeAll } from "vitest"
import { fetchWithTimeout, isRequestTimeout } from "../src/internal/transport/Http.js"
import { isAuthError, isTerminalTransportError, shouldFallBackToSse } from "../src/internal/transport/TransportErrors.js"
import { closeServer, connect, connectError, listen, textOf } from "./support/remote.js"
import { slow } from "./support/slow.js"
import { SdkHttpError } from "@modelcontextprotocol/client"

const { startEverything, stopServer: stop } = Everything

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
      // The request timeout bounds headers only; the tool streams progress in the POST's SSE body
      // for well over that, while the standalone GET stream stays open the whole time. Both sides
      // scale with the run's slowdown: the headers (initialize too) must beat the timeout.
      const timeoutMs = slow(800)
      const seconds = Math.ceil((2.5 * timeoutMs) / 1000)
      const { client } = yield* connect({ type: "http", url: `http://127.0.0.1:${http_!.port}/mcp` }, "http", timeoutMs)
      const errors: Array<Error> = []
      client.onerror = (error) => errors.push(error)
      const progress: Array<number> = []
      const result = yield* Effect.promise(() =>
        client.callTool(
          { name: "trigger-long-running-operation", arguments: { duration: seconds, steps: 4 } },
          { onprogress: (p) => progress.push(p.progress), timeout: seconds * 1000 + slow(10_000) }
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
      expect(error).toBeInstanceOf(SdkHttpError)
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
      expect(isRequestTimeout(error)).toBe(true)
      expect(error).toMatchObject({ _tag: "RequestTimeoutError", url, timeoutMs: 200 })
      expect(Date.now() - started).toBeLessThan(5_000)
      expect(isTerminalTransportError(error)).toBe(true)
    }).pipe(Effect.scoped))

  it.effect("does not abort a body that streams slowly after the headers", () =>
    Effect.gen(function*() {
      let end = () => {}
      const { server, url } = yield* Effect.promise(() =>
        listen((_req, res) => {
          res.writeHead(200, { "content-type": "text/event-stream" })
          res.write("data: first\n\n")
          end = () => res.end("data: last\n\n")
        })
      )
      yield* Effect.addFinalizer(() => Effect.promise(() => closeServer(server)))
      const outer = new AbortController()
      // Generous for the headers (a loaded machine); the body then ends only after the timeout's
      // own timer is due, so a timer left running would abort it.
      const timeoutMs = slow(1_000)
      const response = yield* Effect.promise(() => fetchWithTimeout(timeoutMs)(url, { signal: outer.signal }))
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, timeoutMs + 100)))
      end()
      const body = yield* Effect.promise(() => response.text())
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
