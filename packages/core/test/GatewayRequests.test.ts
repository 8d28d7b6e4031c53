/**
 * `serve` answering what real clients (the Inspector, a plain SDK client) send: reads of URIs the
 * session never listed, URIs from templates, servers without `resources/templates/list`, errors
 * without an "MCP error" prefix, progress passed through, completion and `logging/setLevel`. The
 * gateway runs over Streamable HTTP on 127.0.0.1 in front of in-memory servers.
 */
import { describe, expect, it } from "@effect/vitest"
import { Gateway } from "@mcpctl/core/Gateway"
import { protocolError, templateOwner, toProtocolError } from "@mcpctl/core/internal/gateway/GatewayRequests"
import * as Host from "@mcpctl/core/Host"
import { McpRequestError, ServerUnavailable, UsageError } from "@mcpctl/core/Errors"
import { Fixtures, InMemory } from "@mcpctl/testing"
import { Client, ResourceNotFoundError, StreamableHTTPClientTransport } from "@modelcontextprotocol/client"
import { type LoggingLevel, ProtocolError, ProtocolErrorCode, Server } from "@modelcontextprotocol/server"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

describe("errors for the gateway's client (pure)", () => {
  it("carry no \"MCP error\" prefix, and the upstream code", () => {
    const upstream = new McpRequestError({
      server: "pg",
      method: "resources/read",
      code: -32602,
      message: "pg: MCP error -32602: MCP error -32602: bad uri"
    })
    const e = toProtocolError(upstream) as Error & { code: number }
    expect(e.code).toBe(-32602)
    expect(e.message).toBe("pg: bad uri")
    expect((toProtocolError(new UsageError({ message: "no such tool" })) as Error & { code: number }).code).toBe(-32602)
    const down = toProtocolError(new ServerUnavailable({ server: "pg", status: "failed", message: "down" }))
    expect(down).toMatchObject({ code: -32603, message: "down" })
    expect(protocolError(-32002, "MCP error -32002: gone")).toMatchObject({ code: -32002, message: "gone" })
    // The gateway's own not-found keeps its URI for the client (ResourceNotFoundError).
    expect(toProtocolError(new ResourceNotFoundError("x://y"))).toMatchObject({ code: -32602, data: { uri: "x://y" } })
  })

  it("route a URI to the one server whose template matches it", () => {
    const templates = [
      { server: "notes", uriTemplate: "notes://{id}", name: "note" },
      { server: "files", uriTemplate: "file:///{+path}", name: "file" }
    ]
    expect(templateOwner(templates, "notes://alpha")).toBe("notes")
    expect(templateOwner(templates, "file:///a/b.txt")).toBe("files")
    expect(templateOwner(templates, "other://x")).toBeUndefined()
  })
})

/** What the in-memory servers saw, for the assertions. */
const seen = { levels: [] as Array<{ server: string; level: LoggingLevel }> }

/**
 * Like server-postgres: resources listed and read (also ones it does not list), but no
 * `resources/templates/list` (-32601); a tool that fails with a JSON-RPC error.
 */
const postgresLike = () => {
  const server = new Server({ name: "pg", version: "1" }, { capabilities: { resources: {}, tools: {}, logging: {} } })
  server.setRequestHandler("resources/list", () => ({
    resources: [{ uri: "postgres://db/users/schema", name: "users table schema", mimeType: "application/json" }]
  }))
  server.setRequestHandler("resources/read", (request) => {
    const m = /^postgres:\/\/db\/(\w+)\/schema$/.exec(request.params.uri)
    if (!m) throw new ResourceNotFoundError(request.params.uri)
    return { contents: [{ uri: request.params.uri, mimeType: "application/json", text: JSON.stringify({ table: m[1] }) }] }
  })
  server.setRequestHandler("tools/list", () => ({
    tools: [{ name: "query", inputSchema: { type: "object", properties: { sql: { type: "string" } }, required: ["sql"] } }]
  }))
  server.setRequestHandler("tools/call", async (request, ctx) => {
    if (request.params.name !== "query") throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool ${request.params.name}`)
    const token = ctx.mcpReq._meta?.progressToken
    if (token !== undefined) {
      for (const progress of [1, 2]) {
        await ctx.mcpReq.notify({ method: "notifications/progress", params: { progressToken: token, progress, total: 2, message: `step ${progress}` } })
      }
    }
    if (String(request.params.arguments?.sql).startsWith("SELEC ")) {
      throw new ProtocolError(ProtocolErrorCode.InternalError, 'syntax error at or near "SELEC"')
    }
    return { content: [{ type: "text", text: "1 row" }] }
  })
  server.setRequestHandler("logging/setLevel", (request) => {
    seen.levels.push({ server: "pg", level: request.params.level })
    return {}
  })
  return server
}

/** Notes behind a template (`notes://{id}`), a prompt, and completion for both. */
const notesServer = () => {
  const server = new Server({ name: "notes", version: "1" }, { capabilities: { resources: {}, prompts: {}, completions: {} } })
  const ids = ["alpha", "beta", "bravo"]
  server.setRequestHandler("resources/list", () => ({ resources: [] }))
  server.setRequestHandler("resources/templates/list", () => ({
    resourceTemplates: [{ uriTemplate: "notes://{id}", name: "note", mimeType: "text/plain" }]
  }))
  server.setRequestHandler("resources/read", (request) => {
    const id = request.params.uri.slice("notes://".length)
    if (!ids.includes(id)) throw new ResourceNotFoundError(request.params.uri)
    return { contents: [{ uri: request.params.uri, mimeType: "text/plain", text: `note ${id}` }] }
  })
  server.setRequestHandler("prompts/list", () => ({
    prompts: [{ name: "summarize", arguments: [{ name: "id", required: true }] }]
  }))
  server.setRequestHandler("prompts/get", (request) => {
    if (!request.params.arguments?.id) throw new ProtocolError(ProtocolErrorCode.InvalidParams, "MCP error -32602: missing argument id")
    return { messages: [{ role: "user", content: { type: "text", text: `summarize ${request.params.arguments.id}` } }] }
  })
  server.setRequestHandler("completion/complete", (request) => ({
    completion: { values: ids.filter((id) => id.startsWith(request.params.argument.value)) }
  }))
  return server
}

const host = Host.layer({
  config: Fixtures.staticConfig({
    servers: { pg: { command: "in-memory" }, notes: { command: "in-memory" } },
    permissions: { allow: ["mcp__pg__*"] }
  }),
  transport: InMemory.layer({ pg: postgresLike, notes: notesServer })
})

/** A plain SDK client on a fresh gateway session, as the Inspector connects. */
const connectTo = (hostLayer: typeof host) => Effect.gen(function*() {
  const context = yield* Layer.build(Gateway.layerHttp({ port: 0, drainTimeoutMs: 0 }).pipe(Layer.provide(hostLayer)))
  const { address, token } = Context.get(context, Gateway)
  const client = new Client({ name: "inspector-like", version: "1" })
  // The run's bearer token, as the user gives it to the client (issue 12).
  const requestInit = { headers: { authorization: `Bearer ${token}` } }
  yield* Effect.acquireRelease(
    Effect.promise(() => client.connect(new StreamableHTTPClientTransport(new URL(address), { requestInit }))),
    () => Effect.promise(() => client.close())
  )
  return client
})
const connect = connectTo(host)

const failure = (p: Promise<unknown>) => Effect.promise(() => p.then(() => undefined, (e: Error & { code?: number }) => e))

describe("serve answers what the client asks", () => {
  it.scoped("reads a resource the session never listed, from a template, and from a server without templates", () =>
    Effect.gen(function*() {
      const client = yield* connect
      // No resources/list first, as every Inspector read: the gateway finds the owner itself.
      const listed = yield* Effect.promise(() => client.readResource({ uri: "postgres://db/users/schema" }))
      expect(listed.contents[0]).toMatchObject({ text: '{"table":"users"}' })
      const templated = yield* Effect.promise(() => client.readResource({ uri: "notes://beta" }))
      expect(templated.contents[0]).toMatchObject({ text: "note beta" })
      // Not listed, no template: the server that offers resources and can read it answers.
      const unlisted = yield* Effect.promise(() => client.readResource({ uri: "postgres://db/orders/schema" }))
      expect(unlisted.contents[0]).toMatchObject({ text: '{"table":"orders"}' })
      const { resources } = yield* Effect.promise(() => client.listResources())
      expect(resources.map((r) => r.uri)).toEqual(["postgres://db/users/schema"])
      const { resourceTemplates } = yield* Effect.promise(() => client.listResourceTemplates())
      expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(["notes://{id}"])
    }))

  // SDK v2's client shows the message as sent; SDK 1.x clients (the Inspector) put one
  // "MCP error <code>: " before it, so the message sent must carry none.
  it.scoped("sends no \"MCP error\" prefix (a 1.x client adds one), with the code of whoever refused", () =>
    Effect.gen(function*() {
      const client = yield* connect
      const nowhere = yield* failure(client.readResource({ uri: "nothing://x" }))
      // Resource not found as the 2026-07-28 spec says: -32602 with the URI in data.
      expect(ResourceNotFoundError.isInstance(nowhere)).toBe(true)
      expect(nowhere).toMatchObject({ code: -32602, data: { uri: "nothing://x" } })
      expect(nowhere?.message).toMatch(/^Resource not found: nothing:\/\/x\. /)
      // The upstream's own message carried the prefix: sent on without it.
      const missing = yield* failure(client.getPrompt({ name: "notes__summarize", arguments: {} }))
      expect(missing?.code).toBe(-32602)
      expect(missing?.message).toBe("notes: missing argument id")
    }))

  it.scoped("passes a server's progress through to the client that asked for it", () =>
    Effect.gen(function*() {
      const client = yield* connect
      const progress: Array<{ progress: number; total?: number; message?: string }> = []
      const result = yield* Effect.promise(() =>
        client.callTool({ name: "mcp__pg__query", arguments: { sql: "SELECT 1" } }, { onprogress: (p) => void progress.push(p) })
      )
      expect(result.content).toEqual([{ type: "text", text: "1 row" }])
      expect(progress).toEqual([
        { progress: 1, total: 2, message: "step 1" },
        { progress: 2, total: 2, message: "step 2" }
      ])
      // The server's JSON-RPC error reaches the client as that error (code kept), not as a result.
      const bad = yield* failure(client.callTool({ name: "mcp__pg__query", arguments: { sql: "SELEC 1" } }))
      expect(bad?.code).toBe(-32603)
      expect(bad?.message).toBe('pg: syntax error at or near "SELEC"')
    }))

  it.scoped("answers completion for prompts and templates, and logging/setLevel", () =>
    Effect.gen(function*() {
      const client = yield* connect
      expect(client.getServerCapabilities()).toMatchObject({ completions: {}, logging: {} })
      const forPrompt = yield* Effect.promise(() =>
        client.complete({ ref: { type: "ref/prompt", name: "notes__summarize" }, argument: { name: "id", value: "b" } })
      )
      expect(forPrompt.completion.values).toEqual(["beta", "bravo"])
      const forTemplate = yield* Effect.promise(() =>
        client.complete({ ref: { type: "ref/resource", uri: "notes://{id}" }, argument: { name: "id", value: "al" } })
      )
      expect(forTemplate.completion.values).toEqual(["alpha"])
      seen.levels.length = 0
      yield* Effect.promise(() => client.setLoggingLevel("error"))
      // Passed on to the server that logs; the one without logging is left alone.
      expect(seen.levels).toEqual([{ server: "pg", level: "error" }])
    }))

  it.scoped("advertises unannotated tools with the spec's defaults", () =>
    Effect.gen(function*() {
      const client = yield* connect
      const { tools } = yield* Effect.promise(() => client.listTools())
      expect(tools.find((t) => t.name === "mcp__pg__query")?.annotations).toMatchObject({
        destructiveHint: true,
        openWorldHint: true,
        readOnlyHint: false
      })
    }))
})

/**
 * A server that answers a read of any URI ("from <me>"), lists `<me>://listed`, has the template
 * `<me>://{id}` and a prompt: two of them could each claim the other's URIs.
 */
const readsAnything = (me: string) => () => {
  const server = new Server({ name: me, version: "1" }, { capabilities: { resources: {}, prompts: {}, completions: {}, logging: {} } })
  server.setRequestHandler("resources/list", () => ({ resources: [{ uri: `${me}://listed`, name: "listed" }] }))
  server.setRequestHandler("resources/templates/list", () => ({
    resourceTemplates: [{ uriTemplate: `${me}://{id}`, name: "item" }, { uriTemplate: "shared://{id}", name: "shared" }]
  }))
  server.setRequestHandler("resources/read", (request) => ({
    contents: [{ uri: request.params.uri, text: `from ${me}` }]
  }))
  server.setRequestHandler("prompts/list", () => ({ prompts: [{ name: "p", arguments: [{ name: "x" }] }] }))
  server.setRequestHandler("completion/complete", () => ({ completion: { values: [`${me}-value`] } }))
  server.setRequestHandler("logging/setLevel", (request) => {
    seen.levels.push({ server: me, level: request.params.level })
    return {}
  })
  return server
}

const twoReaders = (deny: Array<string>) =>
  Host.layer({
    config: Fixtures.staticConfig({
      servers: { one: { command: "in-memory" }, two: { command: "in-memory" } },
      permissions: { deny }
    }),
    transport: InMemory.layer({ one: readsAnything("one"), two: readsAnything("two") })
  })

describe("serve reads a URI only from the one server that owns it (issues 12 and 13 together)", () => {
  it.scoped("a URI nobody lists that two servers would both answer is served by neither", () =>
    Effect.gen(function*() {
      const client = yield* connectTo(twoReaders([]))
      // Listed or templated by one server: that server's, whoever else could answer.
      expect((yield* Effect.promise(() => client.readResource({ uri: "two://listed" }))).contents[0]).toMatchObject({ text: "from two" })
      expect((yield* Effect.promise(() => client.readResource({ uri: "one://7" }))).contents[0]).toMatchObject({ text: "from one" })
      const unlisted = yield* failure(client.readResource({ uri: "other://x" }))
      expect(unlisted?.message).toContain("servers one and two all read the resource other://x")
      // A template both list matches for neither, so it is no owner either.
      const shared = yield* failure(client.readResource({ uri: "shared://1" }))
      expect(shared?.message).toContain("servers one and two all read")
      const completion = yield* Effect.promise(() =>
        client.complete({ ref: { type: "ref/resource", uri: "shared://{id}" }, argument: { name: "id", value: "" } })
      )
      expect(completion.completion.values).toEqual([])
    }))

  it.scoped("a denied server's URIs, template, prompt and log level are not reached through another server", () =>
    Effect.gen(function*() {
      const client = yield* connectTo(twoReaders(["mcp__two"]))
      // `one` would answer them; they are `two`'s, and `two` is denied.
      expect(yield* failure(client.readResource({ uri: "two://listed" }))).toBeInstanceOf(Error)
      expect(yield* failure(client.readResource({ uri: "two://7" }))).toBeInstanceOf(Error)
      // Nobody's URI: `one` is the only allowed server offering resources, so it answers.
      expect((yield* Effect.promise(() => client.readResource({ uri: "other://x" }))).contents[0]).toMatchObject({ text: "from one" })
      const prompt = yield* failure(client.complete({ ref: { type: "ref/prompt", name: "two__p" }, argument: { name: "x", value: "" } }))
      expect(prompt?.message).toContain("Unknown prompt two__p")
      const ownPrompt = yield* Effect.promise(() =>
        client.complete({ ref: { type: "ref/prompt", name: "one__p" }, argument: { name: "x", value: "" } })
      )
      expect(ownPrompt.completion.values).toEqual(["one-value"])
      seen.levels.length = 0
      yield* Effect.promise(() => client.setLoggingLevel("debug"))
      expect(seen.levels).toEqual([{ server: "one", level: "debug" }])
    }))
})
