/**
 * `registry.call` and `registry.list` wired to the pool, in process over in-memory servers: which
 * timeout a call gets and what its error says, the listed outputSchema checked, a server's error
 * kept as that error (not retried, not taken for a URL step), the span a traced call makes, a
 * paged listing, hidden tools told from typos, and the warnings said once.
 */
import { describe, expect, it } from "@effect/vitest"
import { Elicitation } from "@mcpctl/core/Elicitation"
import { ServerUnavailable } from "@mcpctl/core/Errors"
import * as Host from "@mcpctl/core/Host"
import type { ServerConfig } from "@mcpctl/core/ServerConfig"
import { ToolRegistry } from "@mcpctl/core/ToolRegistry"
import { Transport } from "@mcpctl/core/Transport"
import { Fixtures, InMemory } from "@mcpctl/testing"
import { ProtocolError, Server, UrlElicitationRequiredError } from "@modelcontextprotocol/server"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as TestClock from "effect/TestClock"
import type * as Tracer from "effect/Tracer"
import { recording } from "./support/tracing.js"

interface Options {
  readonly servers?: Record<string, Partial<ServerConfig>>
  readonly toolTimeoutMs?: number
  readonly deny?: ReadonlyArray<string>
  readonly elicitation?: Layer.Layer<Elicitation>
}

const registryOf = (factories: Record<string, InMemory.ServerFactory>, options: Options = {}) =>
  Layer.build(Host.layer({
    // A home of its own (removed with the host): a needs-auth refusal is remembered there.
    config: Fixtures.staticConfig({
      servers: Object.fromEntries(Object.keys(factories).map((name) =>
        [name, { command: "in-memory", ...options.servers?.[name] } as ServerConfig]
      )),
      permissions: { allow: ["mcp__*"], deny: [...(options.deny ?? [])] },
      ...(options.toolTimeoutMs !== undefined ? { limits: { toolTimeoutMs: options.toolTimeoutMs } } : {})
    }),
    transport: InMemory.layer(factories),
    ...(options.elicitation ? { elicitation: options.elicitation } : {}),
    pins: false
  })).pipe(Effect.map(Context.get(ToolRegistry)))

/** A tool that never answers; `reached` completes when the server has the call. */
const hangingServer = (reached: Deferred.Deferred<void>) =>
  InMemory.scriptedServer([{
    name: "wait",
    call: () => new Promise(() => Effect.runSync(Deferred.succeed(reached, undefined)))
  }])

describe("the call's timeout", () => {
  it.scoped("the server's own timeout wins over the default, and the error names the tool, the figure and how to raise it", () =>
    Effect.gen(function*() {
      const reached = yield* Deferred.make<void>()
      const registry = yield* registryOf({ slow: hangingServer(reached) }, { servers: { slow: { timeout: 100 } }, toolTimeoutMs: 5_000 })
      const fiber = yield* Effect.fork(Effect.flip(registry.call("mcp__slow__wait", {})))
      yield* Deferred.await(reached)
      yield* TestClock.adjust(5_000)
      const error = yield* Fiber.join(fiber)
      expect(error).toMatchObject({ _tag: "ToolTimeout", server: "slow", tool: "mcp__slow__wait", timeoutMs: 100 })
      expect(error.message).toBe(
        "mcp__slow__wait did not answer within 100 ms and was cancelled. " +
          `Raise it with --timeout MS, the server's "timeout" setting, or MCP_TOOL_TIMEOUT.`
      )
    }))

  it.scoped("without a server timeout the default applies, and a call's own timeout wins over both", () =>
    Effect.gen(function*() {
      const reached = yield* Deferred.make<void>()
      const registry = yield* registryOf({ slow: hangingServer(reached) }, { toolTimeoutMs: 300 })
      const fiber = yield* Effect.fork(Effect.flip(registry.call("mcp__slow__wait", {})))
      yield* Deferred.await(reached)
      yield* TestClock.adjust(300)
      expect(yield* Fiber.join(fiber)).toMatchObject({ _tag: "ToolTimeout", timeoutMs: 300 })

      const again = yield* Deferred.make<void>()
      const own = yield* registryOf({ slow: hangingServer(again) }, { servers: { slow: { timeout: 100 } }, toolTimeoutMs: 300 })
      const mine = yield* Effect.fork(Effect.flip(own.call("mcp__slow__wait", {}, { timeoutMs: 50 })))
      yield* Deferred.await(again)
      yield* TestClock.adjust(50)
      expect(yield* Fiber.join(mine)).toMatchObject({ _tag: "ToolTimeout", timeoutMs: 50 })
    }))
})

describe("the listed outputSchema", () => {
  const counter = (structured: Record<string, unknown>) =>
    InMemory.scriptedServer([{
      name: "count",
      outputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
      call: () => ({ content: [{ type: "text", text: "counted" }], structuredContent: structured })
    }])

  it.scoped("a result that matches it is the result; one that does not is refused, saying what is wrong", () =>
    Effect.gen(function*() {
      const good = yield* registryOf({ c: counter({ n: 3 }) })
      expect((yield* good.call("mcp__c__count", {})).result.structuredContent).toEqual({ n: 3 })
      const bad = yield* registryOf({ c: counter({ n: "three" }) })
      const error = yield* Effect.flip(bad.call("mcp__c__count", {}))
      expect(error).toMatchObject({ _tag: "McpRequestError", server: "c", method: "tools/call" })
      expect(error.message).toContain("does not match the tool's output schema: data/n must be number")
    }))
})

describe("a server's own error", () => {
  /** A tool that fails with `error` every time; counts the calls. */
  const failing = (error: () => Error) => {
    const state = { calls: 0 }
    const factory: InMemory.ServerFactory = () => {
      const s = new Server({ name: "f", version: "1" }, { capabilities: { tools: {} } })
      s.setRequestHandler("tools/list", () => ({ tools: [{ name: "go", inputSchema: { type: "object" as const, properties: {} } }] }))
      s.setRequestHandler("tools/call", () => {
        state.calls++
        throw error()
      })
      return s
    }
    return { state, factory }
  }
  /** An elicitation port that opens every required URL, into `asked`. */
  const opener = (asked: Array<string>) =>
    Elicitation.layerWith({
      opensRequiredUrls: true,
      answer: () => Effect.succeed({ action: "decline" }),
      openUrl: (url) => Effect.sync(() => void asked.push(url))
    })

  it.scoped("with an elicitation port, a plain JSON-RPC error is that error, sent once, with no URL step", () =>
    Effect.gen(function*() {
      const asked: Array<string> = []
      const { factory, state } = failing(() => new ProtocolError(-32010, "quota exceeded", { left: 0 }))
      const registry = yield* registryOf({ f: factory }, { elicitation: opener(asked) })
      const error = yield* Effect.flip(registry.call("mcp__f__go", {}))
      expect(error).toMatchObject({ _tag: "McpRequestError", server: "f", method: "tools/call", code: -32010 })
      expect(state.calls).toBe(1)
      expect(asked).toEqual([])
    }))

  it.scoped("a -32042 refusal naming no step is not retried either", () =>
    Effect.gen(function*() {
      const asked: Array<string> = []
      const { factory, state } = failing(() => new ProtocolError(-32042, "needs a step", { elicitations: [] }))
      const registry = yield* registryOf({ f: factory }, { elicitation: opener(asked) })
      expect(yield* Effect.flip(registry.call("mcp__f__go", {}))).toMatchObject({ _tag: "McpRequestError", code: -32042 })
      expect(state.calls).toBe(1)
      expect(asked).toEqual([])
    }))

  it.scoped("without an elicitation port, a -32042 refusal with its steps is the server's error", () =>
    Effect.gen(function*() {
      const { factory, state } = failing(() =>
        new UrlElicitationRequiredError([{ mode: "url", message: "Link", url: "https://pay.test/x", elicitationId: "e1" }])
      )
      const registry = yield* registryOf({ f: factory })
      expect(yield* Effect.flip(registry.call("mcp__f__go", {}))).toMatchObject({ _tag: "McpRequestError", code: -32042 })
      expect(state.calls).toBe(1)
    }))
})

describe("a traced call", () => {
  it.scoped("is one span named ToolRegistry.call with the server and the qualified tool name", () => {
    const spans: Array<Tracer.Span> = []
    return Effect.gen(function*() {
      const registry = yield* registryOf({ alpha: InMemory.scriptedServer([{ name: "echo", call: () => InMemory.text("hi") }]) })
      yield* registry.call("mcp__alpha__echo", {}).pipe(Effect.provide(recording(spans)))
      yield* Effect.either(registry.call("mcp__ghost__echo", {})).pipe(Effect.provide(recording(spans)))
      const calls = spans.filter((s) => s.name === "ToolRegistry.call")
      expect(calls.map((s) => Object.fromEntries(s.attributes))).toEqual([
        { server: "alpha", tool: "mcp__alpha__echo" },
        // Not listed by anyone: the server part of the name.
        { server: "ghost", tool: "mcp__ghost__echo" }
      ])
    })
  })
})

describe("listing", () => {
  /** Three pages of one tool each; records the cursors asked for. */
  const paged = (cursors: Array<string | undefined>) => () => {
    const s = new Server({ name: "p", version: "1" }, { capabilities: { tools: {} } })
    s.setRequestHandler("tools/list", (request) => {
      const cursor = request.params?.cursor
      cursors.push(cursor)
      const page = cursor === undefined ? 0 : Number(cursor)
      return {
        tools: [{ name: `t${page}`, inputSchema: { type: "object" as const, properties: {} } }],
        ...(page < 2 ? { nextCursor: String(page + 1) } : {}),
        // Only the first page's hint speaks for the list.
        ttlMs: page === 0 ? 60_000 : 5,
        cacheScope: page === 0 ? "public" : "private"
      }
    })
    s.setRequestHandler("tools/call", (request) => ({ content: [{ type: "text" as const, text: request.params.name }] }))
    return s
  }

  it.scoped("walks every page by its cursor, once per connection", () =>
    Effect.gen(function*() {
      const cursors: Array<string | undefined> = []
      const registry = yield* registryOf({ p: paged(cursors) })
      expect(registry.listStamp("p")).toBeUndefined()
      const { errors, tools } = yield* registry.list()
      expect(errors).toEqual([])
      expect(tools.map((t) => t.name)).toEqual(["mcp__p__t0", "mcp__p__t1", "mcp__p__t2"])
      expect(cursors).toEqual([undefined, "1", "2"])
      expect(registry.listStamp("p")?.hint).toEqual({ ttlMs: 60_000, scope: "public" })
      expect((yield* registry.call("mcp__p__t2", {})).result.content).toEqual([{ type: "text", text: "t2" }])
      yield* registry.list()
      expect(cursors).toHaveLength(3)
    }))

  it.scoped("a tool hidden by excludeTools is named as hidden; a typo is a typo with the tools listed", () =>
    Effect.gen(function*() {
      const tools = [
        { name: "read", call: () => InMemory.text("r") },
        { name: "write", call: () => InMemory.text("w") }
      ]
      const registry = yield* registryOf({ fs: InMemory.scriptedServer(tools) }, { servers: { fs: { excludeTools: ["write"] } } })
      const hidden = yield* Effect.flip(registry.call("mcp__fs__write", {}))
      expect(hidden).toMatchObject({ _tag: "UsageError" })
      expect(hidden.message).toContain("excludeTools")
      const typo = yield* Effect.flip(registry.call("mcp__fs__wrte", {}))
      expect(typo.message).toContain('Server "fs" has no tool mcp__fs__wrte.')
      expect(typo.message).toContain("Its tools: mcp__fs__read.")
      expect(typo.message).not.toContain("excludeTools")
      const plain = yield* registryOf({ fs: InMemory.scriptedServer(tools) })
      const noSuch = yield* Effect.flip(plain.call("mcp__fs__nope", {}))
      expect(noSuch.message).toContain("Its tools: mcp__fs__read, mcp__fs__write.")
    }))

  it.scoped("a name that is no tool name, and a server nobody configured, say so", () =>
    Effect.gen(function*() {
      const registry = yield* registryOf({ fs: InMemory.scriptedServer([]) })
      const notAName = yield* Effect.flip(registry.call("read", {}))
      expect(notAName.message).toBe('"read" is not a tool name. Tool names look like mcp__<server>__<tool>; run `mcpctl tools` to list them.')
      const unknown = yield* Effect.flip(registry.call("mcp__db__query", {}))
      expect(unknown.message).toMatch(/^mcp__db__query: No server named "db"\. .*Configured: fs\./)
      expect((yield* Effect.flip(registry.call("mcp__fs__x", {}))).message).toContain("Its tools: none.")
    }))

  it.scoped("search ranks the tools of the servers asked for, at most `limit`; a schema without properties is searched too", () =>
    Effect.gen(function*() {
      const registry = yield* registryOf({
        fs: InMemory.scriptedServer([
          { name: "read_file", description: "Reads a file", call: () => InMemory.text("r") },
          { name: "read_dir", description: "Reads a directory", call: () => InMemory.text("d") }
        ]),
        db: InMemory.scriptedServer([{ name: "read_rows", description: "Reads rows", inputSchema: { type: "object" }, call: () => InMemory.text("q") }])
      })
      const all = yield* registry.search("read")
      expect(all.results.map((r) => r.tool.name).sort()).toEqual(["mcp__db__read_rows", "mcp__fs__read_dir", "mcp__fs__read_file"])
      const one = yield* registry.search("read", { limit: 1 })
      expect(one.results).toHaveLength(1)
      const db = yield* registry.search("read", { servers: ["db"] })
      expect(db.results.map((r) => r.tool.name)).toEqual(["mcp__db__read_rows"])
    }))

  it.scoped("a server that cannot be listed is an error with its own status; the others are listed", () =>
    Effect.gen(function*() {
      const refusing = Layer.succeed(Transport, {
        open: (server) => Effect.fail(new ServerUnavailable({ server: server.name, status: "needs-auth", message: `${server.name} needs a sign-in` }))
      })
      const registry = yield* Layer.build(Host.layer({
        // A home of its own: the refusal is remembered there (under TestClock, at time 0).
        config: Fixtures.staticConfig({ servers: { web: { url: "https://web.test/mcp" } as ServerConfig }, permissions: { allow: ["mcp__*"] } }),
        transport: refusing,
        pins: false
      })).pipe(Effect.map(Context.get(ToolRegistry)))
      const { errors, tools } = yield* registry.list()
      expect(tools).toEqual([])
      expect(errors).toEqual([{ server: "web", status: "needs-auth", message: "web needs a sign-in" }])
    }))

  it.scoped("a deny rule that matches no listed tool is warned about once, however often the list is read", () =>
    Effect.gen(function*() {
      const warnings: Array<string> = []
      const logger = Logger.make(({ logLevel, message }) => {
        if (logLevel._tag === "Warning") warnings.push(String(message))
      })
      const registry = yield* registryOf({ fs: InMemory.scriptedServer([{ name: "read", call: () => InMemory.text("r") }]) }, {
        deny: ["mcp__fs__delete"]
      })
      const listed = Effect.provide(registry.list(), Logger.replace(Logger.defaultLogger, logger))
      yield* listed
      yield* listed
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toContain("mcp__fs__delete")
    }))
})
