/**
 * A 2025-era `notifications/cancelled` behind a round-robin balancer, in process: the cancel
 * lands on a replica that does not run the call, which passes it on to its peers
 * (internal/gateway/cancelRelay.ts); the replica running it cancels it upstream.
 */
import { describe, expect, it } from "@effect/vitest"
import { Gateway } from "@mcpctl/core/Gateway"
import * as Host from "@mcpctl/core/Host"
import { Fixtures, InMemory } from "@mcpctl/testing"
import { Server } from "@modelcontextprotocol/server"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as http from "node:http"

/** `hold` runs until it is cancelled; `cancelled` resolves when it was. */
const fixture = (seen: { started: () => void; cancelled: () => void }) => (): Server => {
  const s = new Server({ name: "a", version: "1" }, { capabilities: { tools: {} } })
  s.setRequestHandler("tools/list", () => ({ tools: [{ name: "hold", inputSchema: { type: "object", properties: {} } }] }))
  s.setRequestHandler("tools/call", (_request, ctx) =>
    new Promise((resolve) => {
      ctx.mcpReq.signal.addEventListener("abort", () => {
        seen.cancelled()
        resolve({ content: [] })
      })
      seen.started()
    }))
  return s
}

const TOKEN = "a-token-both-replicas-share-0123456789"
const legacy = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  authorization: `Bearer ${TOKEN}`,
  "mcp-protocol-version": "2025-06-18"
}

/** A replica on a free port; its `peers` array is read at each relay, so it may be filled later. */
const replica = (peers: Array<string>, seen: { started: () => void; cancelled: () => void }) =>
  Effect.map(
    Layer.build(Gateway.layerHttp({ port: 0, token: TOKEN, peers, drainTimeoutMs: 100 }).pipe(Layer.provide(Host.layer({
      config: Fixtures.staticConfig({ servers: { a: { command: "in-memory" } }, permissions: { allow: ["mcp__*"] } }),
      transport: InMemory.layer({ a: fixture(seen) })
    })))),
    (context) => Context.get(context, Gateway)
  )

const post = (url: string, headers: Record<string, string>, body: unknown) =>
  fetch(url, { method: "POST", headers, body: JSON.stringify(body) })

describe("a 2025-era cancel that lands on the other replica", () => {
  it.scopedLive("is passed on to the peers, and the replica running the call cancels it upstream", () =>
    Effect.gen(function*() {
      let started!: () => void
      let cancelled!: () => void
      const running = new Promise<void>((resolve) => (started = resolve))
      const stopped = new Promise<void>((resolve) => (cancelled = resolve))
      const seen = { started: () => started(), cancelled: () => cancelled() }
      const peersOfOne: Array<string> = []
      const peersOfTwo: Array<string> = []
      const one = yield* replica(peersOfOne, seen)
      const two = yield* replica(peersOfTwo, seen)
      peersOfOne.push(new URL(two.address).host)
      peersOfTwo.push(new URL(one.address).host)

      const opened = yield* Effect.promise(() =>
        post(one.address, legacy, {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } }
        }))
      const session = { ...legacy, "mcp-session-id": opened.headers.get("mcp-session-id")! }
      yield* Effect.promise(() => opened.text())
      // The call runs on one; the client hangs up on it at the end (it is never answered). Sent
      // with node:http, which has no timeout of its own (fetch hangs up after 300 s, and a
      // hang-up cancels the call too: that must not pass for the relay).
      const u = new URL(one.address)
      const call = http.request({ host: u.hostname, port: u.port, path: u.pathname, method: "POST", headers: session, agent: false })
      call.on("error", () => undefined)
      call.end(JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "mcp__a__hold", arguments: {} } }))
      yield* Effect.addFinalizer(() => Effect.sync(() => call.destroy()))
      yield* Effect.promise(() => running)
      // Its cancel reaches two, which runs nothing of the session.
      const answered = yield* Effect.promise(() =>
        post(two.address, session, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7, reason: "changed my mind" } }))
      expect(answered.status).toBe(202)
      yield* Effect.promise(() => stopped)
    }))
})

describe("a cancel naming a session no replica signed", () => {
  it.scopedLive("is not passed on to the peers (only the fleet's own sessions can run there)", () =>
    Effect.gen(function*() {
      // A peer that records the session of every relayed cancel it gets.
      const relayedFor: Array<string> = []
      let heard!: () => void
      const relayed = new Promise<void>((resolve) => (heard = resolve))
      const peer = http.createServer((req, res) => {
        relayedFor.push(String(req.headers["mcp-session-id"]))
        req.resume()
        res.writeHead(202).end()
        heard()
      })
      yield* Effect.acquireRelease(
        Effect.promise(() => new Promise<void>((resolve) => peer.listen(0, "127.0.0.1", () => resolve()))),
        () => Effect.promise(() => new Promise<void>((resolve) => peer.close(() => resolve())))
      )
      const { port } = peer.address() as { port: number }
      const nothing = { started: () => undefined, cancelled: () => undefined }
      const one = yield* replica([`127.0.0.1:${port}`], nothing)
      const cancel = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7 } }

      // A made-up session id first: a relay of it would be sent, and so arrive, before the next.
      const forged = yield* Effect.promise(() => post(one.address, { ...legacy, "mcp-session-id": "made-up-session" }, cancel))
      yield* Effect.promise(() => forged.text())
      // Then a session of this fleet, whose call might run on the peer: relayed.
      const opened = yield* Effect.promise(() =>
        post(one.address, legacy, {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } }
        }))
      const session = opened.headers.get("mcp-session-id")!
      yield* Effect.promise(() => opened.text())
      const real = yield* Effect.promise(() => post(one.address, { ...legacy, "mcp-session-id": session }, cancel))
      expect(real.status).toBe(202)
      yield* Effect.promise(() => relayed)
      expect(relayedFor).toEqual([session])
    }))
})
