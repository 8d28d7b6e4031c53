/**
 * `serve --http` for one user (issue 12): the token, the exact path, one body limit, a session
 * cap and idle expiry, a dropped response cancelling its call, a 0600 socket instead of a port;
 * and per-server resources and prompts (duplicates refused, server-level deny covering them).
 */
import { describe, expect, it } from "@effect/vitest"
import { Gateway } from "@mcpctl/core/Gateway"
import * as Host from "@mcpctl/core/Host"
import { Fixtures, InMemory } from "@mcpctl/testing"
import { Server } from "@modelcontextprotocol/server"
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as TestClock from "effect/TestClock"
import { mkdtempSync, statSync } from "node:fs"
import * as http from "node:http"
import { tmpdir } from "node:os"
import * as Path from "node:path"

/** Servers whose `slow` call has begun (the event the drop test waits for before hanging up). */
const callsStarted: Array<string> = []

/** A server with a `slow` tool that waits until it is cancelled, and one resource and prompt named after it. */
const server = (me: string, cancelled: Array<string>) => (): Server => {
  const s = new Server({ name: me, version: "1" }, { capabilities: { tools: {}, resources: {}, prompts: {} } })
  s.setRequestHandler("tools/list", () => ({ tools: [{ name: "slow", inputSchema: { type: "object", properties: {} } }] }))
  s.setRequestHandler("tools/call", (_request, ctx) =>
    new Promise((resolve) => {
      callsStarted.push(me)
      ctx.mcpReq.signal.addEventListener("abort", () => {
        cancelled.push(me)
        resolve({ content: [{ type: "text", text: "cancelled" }] })
      })
    }))
  s.setRequestHandler("resources/list", () => ({
    resources: [{ uri: "test://shared", name: "shared" }, { uri: `test://${me}`, name: me }]
  }))
  s.setRequestHandler("resources/templates/list", () => ({ resourceTemplates: [] }))
  s.setRequestHandler("resources/read", (r) => ({ contents: [{ uri: r.params.uri, text: `from ${me}` }] }))
  s.setRequestHandler("prompts/list", () => ({ prompts: [{ name: "hello" }] }))
  s.setRequestHandler("prompts/get", () => ({ messages: [{ role: "user", content: { type: "text", text: `hello from ${me}` } }] }))
  return s
}

const hostOf = (cancelled: Array<string>, deny: Array<string> = []) =>
  Host.layer({
    config: Fixtures.staticConfig({
      servers: { a: { command: "in-memory" }, b: { command: "in-memory" } },
      permissions: { allow: ["mcp__*"], deny }
    }),
    transport: InMemory.layer({ a: server("a", cancelled), b: server("b", cancelled) })
  })

const gatewayOf = (options: Parameters<typeof Gateway.layerHttp>[0], cancelled: Array<string> = [], deny?: Array<string>) =>
  Effect.map(Layer.build(Gateway.layerHttp({ drainTimeoutMs: 0, ...options }).pipe(Layer.provide(hostOf(cancelled, deny)))), Context.get(Gateway))

const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } }
})
const mcpHeaders = { "content-type": "application/json", accept: "application/json, text/event-stream" }

/** One raw request; the status and the session id the answer carries. */
const send = (
  url: string,
  options: { path?: string; headers?: Record<string, string>; body?: string | Buffer; socketPath?: string; method?: string }
) =>
  new Promise<{ status: number; session: string | undefined; text: string }>((resolve, reject) => {
    const u = new URL(url)
    const req = http.request({
      ...(options.socketPath ? { socketPath: options.socketPath } : { host: u.hostname, port: u.port }),
      path: options.path ?? u.pathname,
      method: options.method ?? "POST",
      headers: { ...mcpHeaders, ...options.headers }
    }, (res) => {
      let text = ""
      res.on("data", (d) => (text += d))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, session: res.headers["mcp-session-id"] as string | undefined, text }))
    })
    req.on("error", reject)
    req.end(options.body)
  })

/** A GET stream of a session: its status, and a way to close it and see it closed. */
const openStream = (url: string, headers: Record<string, string>) =>
  new Promise<{ status: number; close: () => void; closed: Promise<void> }>((resolve, reject) => {
    const u = new URL(url)
    const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, method: "GET", headers: { accept: "text/event-stream", ...headers } }, (res) => {
      const closed = new Promise<void>((done) => res.once("close", () => done()))
      res.resume()
      resolve({ status: res.statusCode ?? 0, close: () => req.destroy(), closed })
    })
    req.on("error", (e) => (e as NodeJS.ErrnoException).code === "ECONNRESET" || reject(e))
    req.end()
  })

const clientOf = (address: string, token: string | undefined) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const client = new Client({ name: "t", version: "1" })
      const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {}
      await client.connect(new StreamableHTTPClientTransport(new URL(address), { requestInit: { headers } }))
      return client
    }),
    (client) => Effect.promise(() => client.close())
  )

describe("serve --http is for one user", () => {
  it.scoped("another local user with a plain request gets 401; the run's token gets in", () =>
    Effect.gen(function*() {
      const { address, token } = yield* gatewayOf({ port: 0 })
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect((yield* Effect.promise(() => send(address, { body: initialize }))).status).toBe(401)
      expect((yield* Effect.promise(() => send(address, { body: initialize, headers: { authorization: "Bearer wrong" } }))).status).toBe(401)
      const ok = yield* Effect.promise(() => send(address, { body: initialize, headers: { authorization: `Bearer ${token}` } }))
      expect(ok.status).toBe(200)
      const client = yield* clientOf(address, token)
      expect((yield* Effect.promise(() => client.listTools())).tools.map((t) => t.name)).toContain("mcp__a__slow")
    }))

  it.scoped("only the exact endpoint path is served", () =>
    Effect.gen(function*() {
      const { address, token } = yield* gatewayOf({ port: 0 })
      const headers = { authorization: `Bearer ${token}` }
      for (const path of ["/mcp/", "/mcpx", "/mcp-admin", "/mcp/../mcp2", "/"]) {
        expect((yield* Effect.promise(() => send(address, { path, body: initialize, headers }))).status).toBe(404)
      }
      expect((yield* Effect.promise(() => send(address, { path: "/mcp?x=1", body: initialize, headers }))).status).toBe(200)
    }))

  it.scoped("a body over the limit is refused without being read whole, with or without a session", () =>
    Effect.gen(function*() {
      const { address, token } = yield* gatewayOf({ port: 0, maxBodyBytes: 1024 })
      const headers = { authorization: `Bearer ${token}` }
      const big = Buffer.alloc(64 * 1024, 0x20)
      expect((yield* Effect.promise(() => send(address, { body: big, headers }))).status).toBe(413)
      const opened = yield* Effect.promise(() => send(address, { body: initialize, headers }))
      expect((yield* Effect.promise(() => send(address, { body: big, headers: { ...headers, "mcp-session-id": opened.session! } }))).status).toBe(413)
    }))

  it.scoped("sessions are capped: the least recently used idle one makes room, busy ones never; idle ones are closed", () =>
    Effect.gen(function*() {
      const { address, token } = yield* gatewayOf({ port: 0, maxSessions: 2, sessionIdleMs: 60_000 })
      const headers = { authorization: `Bearer ${token}` }
      const first = yield* Effect.promise(() => send(address, { body: initialize, headers }))
      const second = yield* Effect.promise(() => send(address, { body: initialize, headers }))
      const version = { "mcp-protocol-version": "2025-06-18" }
      // A session's GET stream keeps it busy: with both busy, no room.
      const streams = yield* Effect.promise(() => Promise.all([first, second].map((o) => openStream(address, { ...headers, ...version, "mcp-session-id": o.session! }))))
      expect(streams.map((s) => s.status)).toEqual([200, 200])
      expect((yield* Effect.promise(() => send(address, { body: initialize, headers }))).status).toBe(503)
      for (const s of streams) s.close()
      yield* Effect.promise(() => Promise.all(streams.map((s) => s.closed)))
      // Idle once the gateway sees the streams' sockets close (no event of it reaches this test:
      // asked again until then): the least recently used one is closed for the newcomer.
      const retried = yield* Effect.promise(async () => {
        for (let i = 0; i < 400; i++) {
          const r = await send(address, { body: initialize, headers })
          if (r.status !== 503) return r.status
          await new Promise((resolve) => setTimeout(resolve, 25))
        }
        return 503
      })
      expect(retried).toBe(200)
      const ping = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" })
      const sessionHeaders = { ...headers, ...version, "mcp-session-id": first.session! }
      // Its id is still ours (signed), so its client is answered, statelessly; a made-up one is not.
      expect((yield* Effect.promise(() => send(address, { body: ping, headers: sessionHeaders }))).status).toBe(200)
      const forged = { ...sessionHeaders, "mcp-session-id": first.session!.slice(0, -2) + "AA" }
      expect((yield* Effect.promise(() => send(address, { body: ping, headers: forged }))).status).toBe(404)
      // No stream of it is held here any more; the second one's still is, until it is idle too.
      expect((yield* Effect.promise(() => openStream(address, sessionHeaders).then((s) => (s.close(), s.status))))).toBe(405)
      const secondHeaders = { ...headers, ...version, "mcp-session-id": second.session! }
      expect((yield* Effect.promise(() => send(address, { body: ping, headers: secondHeaders }))).status).toBe(200)
      yield* TestClock.adjust("2 minutes")
      expect((yield* Effect.promise(() => openStream(address, secondHeaders).then((s) => (s.close(), s.status))))).toBe(405)
    }))

  // A plain request is answered as plain JSON (no headers before the answer), one with a
  // progress token on the session's event stream: either way, hanging up cancels the call.
  for (const form of ["plain JSON", "an event stream"] as const) {
    it.scoped(`a client that drops its request cancels the upstream call (answered as ${form})`, () =>
      Effect.gen(function*() {
        const cancelled: Array<string> = []
        callsStarted.length = 0
        const { address, token } = yield* gatewayOf({ port: 0 }, cancelled)
        const headers = { authorization: `Bearer ${token}` }
        const opened = yield* Effect.promise(() => send(address, { body: initialize, headers }))
        const params = { name: "mcp__a__slow", arguments: {}, ...(form === "an event stream" ? { _meta: { progressToken: "p1" } } : {}) }
        const call = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params })
        const contentType = yield* Effect.promise(() =>
          new Promise<string | undefined>((resolve) => {
            const u = new URL(address)
            let type: string | undefined
            const req = http.request({
              host: u.hostname,
              port: u.port,
              path: u.pathname,
              method: "POST",
              headers: { ...mcpHeaders, ...headers, "mcp-session-id": opened.session!, "mcp-protocol-version": "2025-06-18" }
            }, (res) => {
              type = res.headers["content-type"]
              res.on("data", () => undefined)
            })
            // Once the call is running upstream, hang up (whether headers came or not).
            const hangUp = () => {
              if (callsStarted.includes("a")) {
                req.destroy()
                resolve(type)
              } else setTimeout(hangUp, 10)
            }
            hangUp()
            req.on("error", () => undefined)
            req.end(call)
          })
        )
        // An event stream sends its headers at once; plain JSON only with the answer.
        expect(contentType).toBe(form === "an event stream" ? "text/event-stream" : undefined)
        // The upstream server sees the cancellation (bounded wait on a real event).
        const deadline = Date.now() + 10_000
        while (cancelled.length === 0 && Date.now() < deadline) yield* Effect.promise(() => new Promise((r) => setImmediate(r)))
        expect(cancelled).toEqual(["a"])
      }))
  }

  it.scoped("--socket: a 0600 Unix socket instead of a port, no token needed", () =>
    Effect.gen(function*() {
      const path = Path.join(mkdtempSync(Path.join(tmpdir(), "mcpctl-sock-")), "serve.sock")
      const { address, token } = yield* gatewayOf({ socket: path })
      expect(address).toBe(`unix:${path}:/mcp`)
      expect(token).toBeUndefined()
      expect(statSync(path).mode & 0o777).toBe(0o600)
      const ok = yield* Effect.promise(() => send("http://localhost/mcp", { socketPath: path, body: initialize }))
      expect(ok.status).toBe(200)
    }))
})

describe("resources and prompts per server", () => {
  it.scoped("a URI two servers list is served by neither; each server's own URIs are", () =>
    Effect.gen(function*() {
      const { address, token } = yield* gatewayOf({ port: 0 })
      const client = yield* clientOf(address, token)
      const { resources } = yield* Effect.promise(() => client.listResources())
      expect(resources.map((r) => r.uri).sort()).toEqual(["test://a", "test://b"])
      const read = yield* Effect.promise(() => client.readResource({ uri: "test://b" }))
      expect(read.contents).toEqual([{ uri: "test://b", text: "from b" }])
      const refused = yield* Effect.flip(Effect.tryPromise(() => client.readResource({ uri: "test://shared" })))
      expect(String(refused.error)).toContain("servers a and b all list the resource test://shared")
    }))

  it.scoped("a server-level deny hides its resources and prompts too", () =>
    Effect.gen(function*() {
      const { address, token } = yield* gatewayOf({ port: 0 }, [], ["mcp__b"])
      const client = yield* clientOf(address, token)
      const { resources } = yield* Effect.promise(() => client.listResources())
      expect(resources.map((r) => r.uri).sort()).toEqual(["test://a", "test://shared"])
      expect((yield* Effect.promise(() => client.readResource({ uri: "test://shared" }))).contents).toEqual([
        { uri: "test://shared", text: "from a" }
      ])
      yield* Effect.flip(Effect.tryPromise(() => client.readResource({ uri: "test://b" })))
      const { prompts } = yield* Effect.promise(() => client.listPrompts())
      expect(prompts.map((p) => p.name)).toEqual(["a__hello"])
      yield* Effect.flip(Effect.tryPromise(() => client.getPrompt({ name: "b__hello" })))
      expect((yield* Effect.promise(() => client.listTools())).tools.map((t) => t.name)).toEqual(["mcp__a__slow"])
    }))
})
