/**
 * The response size limit on every transport, against the hostile fixture over real stdio, HTTP
 * (JSON and event-stream answers) and a WebSocket server on 127.0.0.1: an answer over the limit
 * fails its own request at once, naming the size and the limit, and memory stays bounded.
 */
// @ts-nocheck

import { describe, expect, it } from "@effect/vitest"
import { Client, ProtocolError } from "@modelcontextprotocol/client"
import * as fixtures from "@mcpctl/testing/Fixtures"
import * as Effect from "effect/Effect"
import { spawn } from "node:child_process"
import { createServer, type ServerResponse } from "node:http"
import { gzipSync } from "node:zlib"
import { WebSocketServer } from "ws"
import type { ResolvedServer } from "../src/config/ServerConfig.js"
import { makeStatic } from "../src/internal/config/SettingsLoad.js"
import { openRemote } from "../src/internal/transport/Http.js"
import { fetchWithLimit, IdScanner, MESSAGE_TOO_LARGE, MessageTooLargeError, tooLargeText } from "../src/internal/transport/MessageSize.js"
import { openStdio } from "../src/internal/transport/Stdio.js"
import { slow } from "./support/slow.js"

const scan = (...pieces: Array<string>) => {
  const scanner = new IdScanner()
  for (const p of pieces) scanner.feed(Buffer.from(p))
  return scanner
}

describe("IdScanner", () => {
  it("finds the top-level id before or after a huge result, across pieces", () => {
    expect(scan('{"jsonrpc":"2.0","id":42,"result":{"x":"', "yyyy").id).toBe(42)
    const last = scan('{"result":{"id":7,"content":[{"id":"inner"}],"s":"} \\" {"}', ',"jsonrpc":"2.0","i', 'd":"abc"}')
    expect(last.id).toBe("abc")
    expect(last.isAnswer).toBe(true)
  })

  it("skips an SSE field prefix, ignores nested ids, and says when there is none", () => {
    expect(scan('event: message\ndata: {"jsonrpc":"2.0","id":"r-1","result":{}}').id).toBe("r-1")
    const notification = scan('{"jsonrpc":"2.0","method":"notifications/message","params":{"id":3}}')
    expect(notification.id).toBeUndefined()
    expect(notification.isAnswer).toBe(false)
    expect(notification.finished).toBe(true)
  })
})

describe("tooLargeText", () => {
  it("names the server, the size, the limit and the variable", () => {
    expect(tooLargeText("h", 40_000_000, 33_554_432, true)).toBe(
      'server "h" sent a message of 40,000,000 bytes (38.1 MiB), over the limit of 33,554,432 bytes (32 MiB); ' +
        "it was dropped. Raise MCPCTL_MAX_RESPONSE_BYTES to accept larger answers."
    )
  })
})

const resolved = (name: string, config: Record<string, unknown>): ResolvedServer =>
  Effect.runSync(makeStatic({ servers: { [name]: config as never } })).servers[0]!

/** Connects an SDK client over one of our transports; the scope closes both. */
const connect = (opened: { readonly transport: Parameters<Client["connect"]>[0] }) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const client = new Client({ name: "mcpctl-test", version: "0" })
      await client.connect(opened.transport)
      return client
    }),
    (client) => Effect.promise(() => client.close())
  )

/** The error a call fails with, and how long it took. */
const failure = (client: Client, name: string, args: Record<string, unknown> = {}) =>
  Effect.promise(async () => {
    const started = Date.now()
    const error = await client.callTool({ name, arguments: args }, { timeout: 20_000 }).then(
      () => undefined,
      (e: unknown) => e
    )
    return { error, ms: Date.now() - started }
  })

const LIMIT = 1024 * 1024

const expectTooLarge = (error: unknown) => {
  expect(error).toBeInstanceOf(ProtocolError)
  expect((error as ProtocolError).code).toBe(MESSAGE_TOO_LARGE)
  expect((error as ProtocolError).message).toMatch(/server "h" sent a message of .*bytes.*over the limit of 1,048,576 bytes \(1 MiB\)/)
}

describe("stdio", () => {
  const stdio = () => {
    const server = resolved("h", { command: process.execPath, args: [fixtures.hostileServer] })
    const config = server.config as { command: string; args: Array<string> }
    return openStdio(server, config, { maxMessageBytes: LIMIT }).pipe(Effect.flatMap(connect))
  }

  it.scoped("an over-long line fails its request with size and limit; the connection goes on", () =>
    Effect.gen(function*() {
      const client = yield* stdio()
      const { error } = yield* failure(client, "bomb", { bytes: 3 * LIMIT })
      expectTooLarge(error)
      // Failed at once: the id came first, so the rest of the line was never waited for.
      expect((error as Error).message).toMatch(/a message of more than 1,\d{3},\d{3} bytes/)
      // Not silently dropped, and the next call still works.
      const ok = yield* Effect.promise(() => client.callTool({ name: "echo", arguments: { text: "still" } }))
      expect(ok.content).toEqual([{ type: "text", text: "still" }])
    }))

  it.scoped("an endless line fails at once, whether its id comes first or never", () =>
    Effect.gen(function*() {
      const client = yield* stdio()
      const first = yield* failure(client, "endless")
      expectTooLarge(first.error)
      expect((first.error as Error).message).toMatch(/more than/)
      expect(first.ms).toBeLessThan(slow(5_000))
    }))

  it.scoped("an endless line whose id never comes fails the one request in flight", () =>
    Effect.gen(function*() {
      const client = yield* stdio()
      const { error, ms } = yield* failure(client, "endless", { idLast: true })
      expectTooLarge(error)
      expect(ms).toBeLessThan(slow(5_000))
    }))
})

/** The hostile server over HTTP on 127.0.0.1; its URL. */
const httpServer = (sse: boolean) =>
  Effect.acquireRelease(
    Effect.async<{ url: string; kill: () => void }>((resume) => {
      const child = spawn(process.execPath, [fixtures.hostileServer, "--http", "0", ...(sse ? ["--sse-responses"] : [])], {
        stdio: ["ignore", "pipe", "inherit"]
      })
      let text = ""
      child.stdout.on("data", (c) => {
        text += c
        const m = /listening (\S+)/.exec(text)
        if (m) resume(Effect.succeed({ url: m[1]!, kill: () => child.kill("SIGKILL") }))
      })
    }),
    (s) => Effect.sync(() => s.kill())
  )

const remote = (url: string, kind: "http" | "ws") =>
  openRemote(resolved("h", { url, type: kind }), { url, type: kind }, kind, { maxMessageBytes: LIMIT }).pipe(Effect.flatMap(connect))

describe("Streamable HTTP", () => {
  it.scoped("an endless JSON body fails its request at once, and memory stays bounded", () =>
    Effect.gen(function*() {
      const server = yield* httpServer(false)
      const client = yield* remote(server.url, "http")
      const rss = process.memoryUsage().rss
      const { error, ms } = yield* failure(client, "endless")
      // The transport rejects the request with the body's error: the pool maps it (RequestErrors).
      expect(error).toBeInstanceOf(MessageTooLargeError)
      expect((error as Error).message).toMatch(/more than 1,\d{3},\d{3} bytes .* over the limit of 1,048,576 bytes/)
      expect(ms).toBeLessThan(slow(5_000))
      expect(process.memoryUsage().rss - rss).toBeLessThan(64 * 1024 * 1024)
    }))

  it.scoped("an endless event fails its request at once; the stream of a big answer too", () =>
    Effect.gen(function*() {
      const server = yield* httpServer(true)
      const client = yield* remote(server.url, "http")
      const endless = yield* failure(client, "endless")
      expectTooLarge(endless.error)
      expect(endless.ms).toBeLessThan(slow(5_000))
      const bomb = yield* failure(client, "bomb", { bytes: 2 * LIMIT })
      expectTooLarge(bomb.error)
      const ok = yield* Effect.promise(() => client.callTool({ name: "echo", arguments: { text: "fine" } }))
      expect(ok.content).toEqual([{ type: "text", text: "fine" }])
    }))
})

/** A plain HTTP server on 127.0.0.1 whose answer to every request is `answer`; its URL. */
const answering = (answer: (res: ServerResponse) => void) =>
  Effect.acquireRelease(
    Effect.async<{ url: string; close: () => void }>((resume) => {
      const server = createServer((req, res) => req.resume().on("end", () => answer(res)))
      server.listen(0, "127.0.0.1", () => {
        const port = (server.address() as { port: number }).port
        resume(Effect.succeed({ url: `http://127.0.0.1:${port}/mcp`, close: () => server.close() }))
      })
    }),
    (s) => Effect.sync(() => s.close())
  )

const limitedText = (url: string) =>
  Effect.promise(() =>
    fetchWithLimit("h", LIMIT, fetch)(url, { method: "POST", body: "{}" }).then((r) => r.text()).then(
      (text) => ({ text, error: undefined }),
      (error: unknown) => ({ text: undefined, error })
    )
  )

describe("fetchWithLimit on JSON bodies", () => {
  it.scoped("a body with a declared length within the limit arrives whole", () =>
    Effect.gen(function*() {
      const body = JSON.stringify({ jsonrpc: "2.0", id: 1, result: { text: "x".repeat(LIMIT / 2) } })
      const server = yield* answering((res) => res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) }).end(body))
      const { text, error } = yield* limitedText(server.url)
      expect(error).toBeUndefined()
      expect(text).toBe(body)
    }))

  it.scoped("a gzip body whose length is small but whose content is over the limit fails", () =>
    Effect.gen(function*() {
      const bomb = gzipSync(Buffer.alloc(4 * LIMIT, 0x20))
      expect(bomb.length).toBeLessThan(LIMIT)
      const server = yield* answering((res) =>
        res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip", "content-length": bomb.length }).end(bomb)
      )
      const { error } = yield* limitedText(server.url)
      expect(error).toBeInstanceOf(MessageTooLargeError)
    }))

  it.scoped("a body without a declared length fails once it passes the limit", () =>
    Effect.gen(function*() {
      const server = yield* answering((res) => {
        res.writeHead(200, { "content-type": "application/json" })
        res.end("x".repeat(2 * LIMIT))
      })
      const { error } = yield* limitedText(server.url)
      expect(error).toBeInstanceOf(MessageTooLargeError)
    }))
})

describe("WebSocket", () => {
  it.scoped("a message over the limit fails the request in flight with the reason", () =>
    Effect.gen(function*() {
      const wss = yield* Effect.acquireRelease(
        Effect.async<WebSocketServer>((resume) => {
          const s: WebSocketServer = new WebSocketServer({ host: "127.0.0.1", port: 0 }, () => resume(Effect.succeed(s)))
        }),
        (s) => Effect.sync(() => s.close())
      )
      wss.on("connection", (socket) => {
        socket.on("message", (data) => {
          const m = JSON.parse(String(data))
          if (m.method === "initialize") {
            socket.send(JSON.stringify({
              jsonrpc: "2.0",
              id: m.id,
              result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "ws", version: "1" } }
            }))
          } else if (m.method === "tools/call") {
            socket.send(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { content: [{ type: "text", text: "x".repeat(2 * LIMIT) }] } }))
          }
        })
      })
      const port = (wss.address() as { port: number }).port
      const client = yield* remote(`ws://127.0.0.1:${port}/`, "ws")
      const { error } = yield* failure(client, "big")
      expectTooLarge(error)
    }))
})
