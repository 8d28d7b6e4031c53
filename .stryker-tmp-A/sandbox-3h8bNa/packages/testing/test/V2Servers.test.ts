/**
 * The SDK v2 fixture servers (Fixtures.v2HttpServer, Fixtures.v2StdioServer) answer a plain SDK v2
 * client in both eras: 2026-07-28 (pinned, and chosen by `auto`) and the 2025 handshake. Real
 * child processes, real HTTP on 127.0.0.1, the v2 client used directly.
 */
// @ts-nocheck

import { describe, expect, it } from "@effect/vitest"
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client"
import type { Transport, VersionNegotiationMode } from "@modelcontextprotocol/client"
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fixtures from "../src/Fixtures.js"

const MODERN: VersionNegotiationMode = { pin: "2026-07-28" }

/**
 * A connected v2 client for the scope. It accepts every form with its defaults and records the
 * forms' messages; `onToolsChanged` gets the names of the tools after each list change.
 */
const connect = (
  transport: () => Transport,
  mode: VersionNegotiationMode,
  onToolsChanged: (names: ReadonlyArray<string>) => void = () => {}
) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const asked: Array<string> = []
      const client = new Client(
        { name: "v2-servers-test", version: "1.0.0" },
        {
          capabilities: { elicitation: { form: {} } },
          versionNegotiation: { mode },
          listChanged: { tools: { onChanged: (_error, tools) => onToolsChanged((tools ?? []).map((t) => t.name)) } }
        }
      )
      client.setRequestHandler("elicitation/create", async (request) => {
        asked.push(request.params.message)
        const properties = ("requestedSchema" in request.params ? request.params.requestedSchema.properties : {}) as Record<
          string,
          { default?: unknown }
        >
        return { action: "accept", content: Object.fromEntries(Object.entries(properties).map(([k, p]) => [k, p.default])) } as never
      })
      await client.connect(transport())
      return { client, asked }
    }),
    ({ client }) => Effect.promise(() => client.close())
  )

const http = (url: string) => () => new StreamableHTTPClientTransport(new URL(url))
const stdio = (...args: Array<string>) => () =>
  new StdioClientTransport({ command: process.execPath, args: [Fixtures.v2StdioServer, ...args], stderr: "ignore" })

const textOf = (result: { content?: unknown }) => ((result.content as Array<{ text?: string }>)[0]?.text ?? "")

/** What every test asks of a server in one era: the catalogue, the era, a resource and a prompt. */
const catalogue = (client: Client, era: "modern" | "legacy", server: string) =>
  Effect.promise(async () => {
    const tools = (await client.listTools()).tools.map((t) => t.name)
    expect(tools).toEqual(expect.arrayContaining(["echo", "add", "era", "regional_echo", "deploy", "add_tool"]))
    expect(textOf(await client.callTool({ name: "add", arguments: { a: 2, b: 3 } }))).toBe("5")
    const served = await client.callTool({ name: "era", arguments: {} })
    expect(served.structuredContent).toEqual({ era })
    const [info] = (await client.readResource({ uri: "info://server" })).contents
    expect(info).toMatchObject({ uri: "info://server", text: `${server} (${era})` })
    const prompt = await client.getPrompt({ name: "greet", arguments: { name: "Ada" } })
    expect(prompt.messages[0]?.content).toEqual({ type: "text", text: "Hello, Ada!" })
  })

/** The two-round `deploy`: both forms asked, the reason (a default) in the result. */
const deploys = (client: Client, asked: Array<string>) =>
  Effect.promise(async () => {
    const result = await client.callTool({ name: "deploy", arguments: { env: "prod" } })
    expect(result.isError).toBeFalsy()
    expect(textOf(result)).toBe("deployed to prod: tests")
    expect(asked).toEqual(["Deploy to prod?", "Why deploy to prod?"])
  })

/** `add_tool NAME` changes the list: the change reaches the client (listen stream or list_changed), then a fresh list has it. */
const listChanges = (transport: () => Transport, mode: VersionNegotiationMode, name: string) =>
  Effect.gen(function*() {
    const changed = yield* Deferred.make<ReadonlyArray<string>>()
    const { client } = yield* connect(transport, mode, (names) => {
      if (names.includes(`extra_${name}`)) Deferred.unsafeDone(changed, Effect.succeed(names))
    })
    // A modern client opens its subscriptions/listen stream after connecting; let it be acknowledged first.
    yield* Effect.promise(() => client.listTools())
    yield* Effect.promise(() => client.callTool({ name: "add_tool", arguments: { name } }))
    const names = yield* Deferred.await(changed).pipe(Effect.timeout(Duration.seconds(10)))
    expect(names).toContain(`extra_${name}`)
    expect(textOf(yield* Effect.promise(() => client.callTool({ name: `extra_${name}`, arguments: {} })))).toBe(name)
  })

describe("v2-http-server (stateless Streamable HTTP, SDK v2)", () => {
  it.scoped("answers a 2026-07-28 client: no initialize, Mcp-Param-* headers, input_required rounds", () =>
    Effect.gen(function*() {
      const { url } = yield* Fixtures.httpServer(Fixtures.v2HttpServer)
      const { client, asked } = yield* connect(http(url), MODERN)
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28")
      yield* catalogue(client, "modern", "v2-http-server")
      const echoed = yield* Effect.promise(() => client.callTool({ name: "regional_echo", arguments: { region: "us-west1", text: "hi" } }))
      expect(JSON.parse(textOf(echoed))).toEqual({ region: "us-west1", text: "hi", header: "us-west1" })
      yield* deploys(client, asked)
    }))

  it.scoped("answers a 2025-era client with the same catalogue; a multi round-trip tool is an error there (no server-to-client requests on stateless HTTP)", () =>
    Effect.gen(function*() {
      const { url } = yield* Fixtures.httpServer(Fixtures.v2HttpServer)
      const { client, asked } = yield* connect(http(url), "legacy")
      expect(client.getNegotiatedProtocolVersion()).toBe("2025-11-25")
      yield* catalogue(client, "legacy", "v2-http-server")
      const echoed = yield* Effect.promise(() => client.callTool({ name: "regional_echo", arguments: { region: "us-west1", text: "hi" } }))
      expect(JSON.parse(textOf(echoed))).toEqual({ region: "us-west1", text: "hi", header: null })
      const deploy = yield* Effect.promise(() => client.callTool({ name: "deploy", arguments: { env: "prod" } }))
      expect(deploy.isError).toBe(true)
      expect(textOf(deploy)).toMatch(/per-request legacy serving cannot receive server-to-client requests/)
      expect(asked).toEqual([])
    }))

  it.scoped("is found modern by a client that negotiates (auto)", () =>
    Effect.gen(function*() {
      const { url } = yield* Fixtures.httpServer(Fixtures.v2HttpServer)
      const { client } = yield* connect(http(url), "auto")
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28")
      expect((yield* Effect.promise(() => client.callTool({ name: "era", arguments: {} }))).structuredContent).toEqual({ era: "modern" })
    }))

  it.scoped("with --modern-only refuses the 2025 handshake", () =>
    Effect.gen(function*() {
      const { url } = yield* Fixtures.httpServer(Fixtures.v2HttpServer, ["--modern-only"])
      const refused = yield* connect(http(url), "legacy").pipe(Effect.exit)
      expect(refused._tag).toBe("Failure")
      const { client } = yield* connect(http(url), MODERN)
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28")
    }))

  it.scoped("a tool list change reaches a 2026-07-28 client through subscriptions/listen", () =>
    Effect.gen(function*() {
      const { url } = yield* Fixtures.httpServer(Fixtures.v2HttpServer)
      yield* listChanges(http(url), MODERN, "http_modern")
    }))
})

describe("v2-stdio-server (stdio, SDK v2)", () => {
  it.scoped("answers a 2026-07-28 client, input_required rounds included", () =>
    Effect.gen(function*() {
      const { client, asked } = yield* connect(stdio(), MODERN)
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28")
      yield* catalogue(client, "modern", "v2-stdio-server")
      yield* deploys(client, asked)
    }))

  it.scoped("answers a 2025-era client; the same multi round-trip tool asks through elicitation/create", () =>
    Effect.gen(function*() {
      const { client, asked } = yield* connect(stdio(), "legacy")
      expect(client.getNegotiatedProtocolVersion()).toBe("2025-11-25")
      yield* catalogue(client, "legacy", "v2-stdio-server")
      yield* deploys(client, asked)
    }))

  it.scoped("is found modern by a client that negotiates (auto)", () =>
    Effect.gen(function*() {
      const { client } = yield* connect(stdio(), "auto")
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28")
    }))

  it.scoped("with --modern-only refuses the 2025 handshake", () =>
    Effect.gen(function*() {
      const refused = yield* connect(stdio("--modern-only"), "legacy").pipe(Effect.exit)
      expect(refused._tag).toBe("Failure")
    }))

  it.scoped("a tool list change reaches the client in both eras (listen stream; list_changed)", () =>
    Effect.gen(function*() {
      yield* listChanges(stdio(), MODERN, "stdio_modern")
      yield* listChanges(stdio(), "legacy", "stdio_legacy")
    }))
})
