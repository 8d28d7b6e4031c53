/**
 * `serve --http` in both protocol eras (issue 10): a stateless 2026-07-28 request needs no session
 * and gets a `resultType`, behind the same token; its headers must agree with its body; modern
 * clients hear of catalogue changes on `subscriptions/listen`, legacy ones by `list_changed`; a
 * denied tool is refused in both.
 */
import { describe, expect, it } from "@effect/vitest"
import { Elicitation } from "@mcpctl/core/Elicitation"
import { Gateway } from "@mcpctl/core/Gateway"
import * as Host from "@mcpctl/core/Host"
import { Fixtures, InMemory } from "@mcpctl/testing"
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  Server
} from "@modelcontextprotocol/server"
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"

/**
 * The upstream server `a`: `echo`, `danger` (denied), `slow` (runs until cancelled), `ask` (asks
 * its client for input, says what it got); and its latest instance, to announce changes from.
 */
const upstream = () => {
  const live: { server?: Server; cancelled: number; started?: () => void } = { cancelled: 0 }
  const make = (): Server => {
    const s = new Server({ name: "a", version: "1" }, { capabilities: { tools: { listChanged: true } } })
    const tool = (name: string) => ({ name, inputSchema: { type: "object" as const, properties: {} } })
    const route = {
      name: "route",
      inputSchema: { type: "object" as const, properties: { region: { type: "string", "x-mcp-header": "Region" } } }
    }
    s.setRequestHandler("tools/list", () => ({ tools: [tool("echo"), tool("danger"), tool("slow"), tool("ask"), route, tool("progress")] }))
    s.setRequestHandler("tools/call", async (r, ctx) => {
      if (r.params.name === "slow") {
        live.started?.()
        return new Promise((resolve) =>
          ctx.mcpReq.signal.addEventListener("abort", () => {
            live.cancelled++
            resolve({ content: [] })
          }))
      }
      if (r.params.name === "progress") {
        const token = r.params._meta?.progressToken
        if (token !== undefined) {
          await ctx.mcpReq.notify({ method: "notifications/progress", params: { progressToken: token, progress: 1, total: 2, message: "half" } })
        }
        return { content: [{ type: "text", text: "done" }] }
      }
      if (r.params.name === "ask") {
        const answer = await ctx.mcpReq.elicitInput({
          mode: "form",
          message: "Which colour?",
          requestedSchema: { type: "object", properties: { colour: { type: "string" } } }
        })
        return { content: [{ type: "text", text: `answer: ${answer.action}` }] }
      }
      return { content: [{ type: "text", text: `ran ${r.params.name}: ${JSON.stringify(r.params.arguments)}` }] }
    })
    live.server = s
    return s
  }
  return { live, make }
}

const gatewayOf = (make: () => Server, options: Parameters<typeof Gateway.layerHttp>[0] = { port: 0 }) =>
  Effect.map(
    Layer.build(
      Gateway.layerHttp({ drainTimeoutMs: 0, ...options }).pipe(Layer.provide(Host.layer({
        config: Fixtures.staticConfig({
          servers: { a: { command: "in-memory" } },
          permissions: { allow: ["mcp__a__echo", "mcp__a__slow", "mcp__a__ask", "mcp__a__route", "mcp__a__progress"], deny: ["mcp__a__danger"] }
        }),
        transport: InMemory.layer({ a: make }),
        // As `serve` without --yes: no one to ask, so a server's question is declined.
        elicitation: Elicitation.layerDecline
      })))
    ),
    Context.get(Gateway)
  )

const modernList = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/list",
  params: {
    _meta: {
      [PROTOCOL_VERSION_META_KEY]: "2026-07-28",
      [CLIENT_INFO_META_KEY]: { name: "curl", version: "1" },
      [CLIENT_CAPABILITIES_META_KEY]: {}
    }
  }
})
const modernHeaders = (token: string | undefined, method = "tools/list") => ({
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": method,
  ...(token === undefined ? {} : { authorization: `Bearer ${token}` })
})

const clientIn = (era: "legacy" | "modern") =>
  new Client({ name: "t", version: "1" }, { versionNegotiation: { mode: era === "modern" ? { pin: "2026-07-28" } : "legacy" } })

describe("serve --http speaks both eras", () => {
  it.scoped("a stateless 2026-07-28 request needs no session, gets a resultType, and still needs the token", () =>
    Effect.gen(function*() {
      const { make } = upstream()
      const gateway = yield* gatewayOf(make)
      const post = (headers: Record<string, string>, body: unknown) =>
        Effect.promise(async () => {
          const res = await fetch(gateway.address, { method: "POST", headers, body: JSON.stringify(body) })
          return { status: res.status, session: res.headers.get("mcp-session-id"), body: await res.json() as Record<string, any> }
        })
      const answered = yield* post(modernHeaders(gateway.token), modernList(1))
      expect(answered.status).toBe(200)
      expect(answered.session).toBeNull()
      expect(answered.body.result.resultType).toBe("complete")
      // Permissions hold here too: the denied tool is not listed.
      expect(answered.body.result.tools.map((t: { name: string }) => t.name)).toEqual(["mcp__a__echo", "mcp__a__slow", "mcp__a__ask", "mcp__a__route", "mcp__a__progress"])
      // Stateless: the next request is answered just the same, with nothing kept between them.
      expect((yield* post(modernHeaders(gateway.token), modernList(2))).body.result.tools).toHaveLength(5)

      const anonymous = yield* post(modernHeaders(undefined), modernList(3))
      expect(anonymous.status).toBe(401)
      // The Mcp-Method header must name the body's method.
      const mismatched = yield* post(modernHeaders(gateway.token, "tools/call"), modernList(4))
      expect(mismatched.body.result).toBeUndefined()
      expect(mismatched.body.error.code).toBe(-32020)
    }))

  for (const era of ["legacy", "modern"] as const) {
    it.scoped(`a ${era} client calls allowed tools (progress passed through), is refused denied ones, and hears of catalogue changes`, () =>
      Effect.gen(function*() {
        const { live, make } = upstream()
        const gateway = yield* gatewayOf(make)
        const client = clientIn(era)
        yield* Effect.acquireRelease(
          Effect.promise(() =>
            client.connect(new StreamableHTTPClientTransport(new URL(gateway.address), {
              requestInit: { headers: { authorization: `Bearer ${gateway.token}` } }
            }))
          ),
          () => Effect.promise(() => client.close())
        )
        expect(client.getNegotiatedProtocolVersion()).toBe(era === "modern" ? "2026-07-28" : "2025-11-25")
        const { tools } = yield* Effect.promise(() => client.listTools())
        expect(tools.map((t) => t.name)).toEqual(["mcp__a__echo", "mcp__a__slow", "mcp__a__ask", "mcp__a__route", "mcp__a__progress"])
        const echoed = yield* Effect.promise(() => client.callTool({ name: "mcp__a__echo", arguments: { text: "hi" } }))
        expect(echoed.content).toEqual([{ type: "text", text: `ran echo: {"text":"hi"}` }])
        const denied = yield* Effect.promise(() => client.callTool({ name: "mcp__a__danger", arguments: {} }))
        expect(denied.isError).toBe(true)
        expect(JSON.stringify(denied.content)).toContain("denied")
        // A server's question is answered by serve's own elicitation port (declined here), in
        // both eras: it never reaches this client as a request or as input_required.
        const asked = yield* Effect.promise(() => client.callTool({ name: "mcp__a__ask", arguments: {} }))
        expect(asked.content).toEqual([{ type: "text", text: "answer: decline" }])
        // A header-bound argument: a modern client repeats it in Mcp-Param-Region, and serve checks it.
        const routed = yield* Effect.promise(() => client.callTool({ name: "mcp__a__route", arguments: { region: "eu" } }))
        expect(routed.content).toEqual([{ type: "text", text: `ran route: {"region":"eu"}` }])
        // A server's progress reaches the client that asked for it (over SSE on a modern request).
        const progress: Array<unknown> = []
        const done = yield* Effect.promise(() =>
          client.callTool({ name: "mcp__a__progress", arguments: {} }, { onprogress: (p) => void progress.push(p) })
        )
        expect(done.content).toEqual([{ type: "text", text: "done" }])
        expect(progress).toEqual([{ progress: 1, total: 2, message: "half" }])

        const changed = new Promise<void>((resolve) => client.setNotificationHandler("notifications/tools/list_changed", () => resolve()))
        if (era === "modern") {
          const subscription = yield* Effect.promise(() => client.listen({ toolsListChanged: true }))
          yield* Effect.addFinalizer(() => Effect.promise(() => subscription.close()))
          yield* Effect.promise(() => live.server!.sendToolListChanged())
          yield* Effect.promise(() => changed)
        } else {
          // A legacy client hears unsolicited notifications on its session's GET stream, which it
          // opens on its own time: announced until heard.
          yield* Effect.promise(() => live.server!.sendToolListChanged()).pipe(
            Effect.repeat(Schedule.spaced("50 millis")),
            Effect.raceFirst(Effect.promise(() => changed))
          )
        }
      }))
  }

  it.scoped("a modern client that drops its request cancels the upstream call", () =>
    Effect.gen(function*() {
      const { live, make } = upstream()
      const gateway = yield* gatewayOf(make)
      const started = new Promise<void>((resolve) => (live.started = resolve))
      const call = {
        ...modernList(9),
        method: "tools/call",
        params: { ...modernList(9).params, name: "mcp__a__slow", arguments: {} }
      }
      const aborted = new AbortController()
      const pending = fetch(gateway.address, {
        method: "POST",
        headers: { ...modernHeaders(gateway.token, "tools/call"), "mcp-name": "mcp__a__slow" },
        body: JSON.stringify(call),
        signal: aborted.signal
      }).catch(() => undefined)
      // The call runs upstream: hang up.
      yield* Effect.promise(() => started)
      aborted.abort()
      yield* Effect.promise(() => pending)
      // The upstream server sees the cancellation (bounded wait on a real event).
      const deadline = Date.now() + 10_000
      while (live.cancelled === 0 && Date.now() < deadline) yield* Effect.promise(() => new Promise((r) => setImmediate(r)))
      expect(live.cancelled).toBe(1)
    }))

  it.scoped("a modern tools/call whose Mcp-Param-* header disagrees with its arguments is refused (400, -32020)", () =>
    Effect.gen(function*() {
      const { make } = upstream()
      const gateway = yield* gatewayOf(make)
      const call = (id: number, region: string, header: Record<string, string>) =>
        Effect.promise(async () => {
          const res = await fetch(gateway.address, {
            method: "POST",
            headers: { ...modernHeaders(gateway.token, "tools/call"), "mcp-name": "mcp__a__route", ...header },
            body: JSON.stringify({
              ...modernList(id),
              method: "tools/call",
              params: { ...modernList(id).params, name: "mcp__a__route", arguments: { region } }
            })
          })
          return { status: res.status, body: await res.json() as Record<string, any> }
        })
      const agreeing = yield* call(1, "eu", { "mcp-param-region": "eu" })
      expect(agreeing.status).toBe(200)
      expect(agreeing.body.result.content).toEqual([{ type: "text", text: `ran route: {"region":"eu"}` }])
      const encoded = yield* call(2, "süd", { "mcp-param-region": `=?base64?${Buffer.from("süd").toString("base64")}?=` })
      expect(encoded.body.result.isError).toBeUndefined()
      for (const [id, header] of [[3, { "mcp-param-region": "us" }], [4, {}]] as const) {
        const refused = yield* call(id, "eu", header)
        expect(refused.status).toBe(400)
        expect(refused.body).toMatchObject({ id, error: { code: -32020 } })
      }
    }))

  it.scoped("open subscriptions/listen streams are capped like sessions", () =>
    Effect.gen(function*() {
      const { make } = upstream()
      const gateway = yield* gatewayOf(make, { port: 0, maxSessions: 1 })
      const connect = Effect.acquireRelease(
        Effect.promise(async () => {
          const client = clientIn("modern")
          await client.connect(new StreamableHTTPClientTransport(new URL(gateway.address), {
            requestInit: { headers: { authorization: `Bearer ${gateway.token}` } }
          }))
          return client
        }),
        (client) => Effect.promise(() => client.close())
      )
      const first = yield* connect
      const second = yield* connect
      const open = yield* Effect.promise(() => first.listen({ toolsListChanged: true }))
      yield* Effect.promise(() => expect(second.listen({ toolsListChanged: true })).rejects.toThrow(/limit/i))
      // Its place is free again once it closes.
      yield* Effect.promise(() => open.close())
      const again = yield* Effect.promise(() => second.listen({ toolsListChanged: true }))
      yield* Effect.promise(() => again.close())
    }))
})
