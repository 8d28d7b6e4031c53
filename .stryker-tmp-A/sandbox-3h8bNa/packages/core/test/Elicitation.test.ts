// @ts-nocheck
import { describe, expect, it } from "@effect/vitest"
import {
  acceptWithDefaults,
  capabilities,
  Elicitation,
  type ElicitationRequest,
  fromSdkRequest,
  parseAnswer
} from "@mcpctl/core/Elicitation"
import * as Host from "@mcpctl/core/Host"
import { McpConfig } from "@mcpctl/core/McpConfig"
import { defaultLimits, type ResolvedServer } from "@mcpctl/core/ServerConfig"
import { ToolRegistry } from "@mcpctl/core/ToolRegistry"
import { InMemory } from "@mcpctl/testing"
import { Server, UrlElicitationRequiredError, ProtocolErrorCode } from "@modelcontextprotocol/server"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

describe("elicitation answers (pure)", () => {
  it("--yes accepts with every default, and declines when a required field has none", () => {
    const schema = {
      properties: { name: { type: "string", default: "Ada" }, age: { type: "integer", default: 30 }, note: { type: "string" } },
      required: ["name"]
    }
    expect(acceptWithDefaults(schema)).toEqual({ action: "accept", content: { name: "Ada", age: 30 } })
    expect(acceptWithDefaults({ ...schema, required: ["note"] })).toEqual({ action: "decline" })
  })

  it("typed terminal answers: numbers, booleans, enum by value or number", () => {
    expect(parseAnswer({ type: "integer" }, "3")).toBe(3)
    expect(parseAnswer({ type: "integer" }, "3.5")).toBeUndefined()
    expect(parseAnswer({ type: "number", minimum: 0 }, "-1")).toBeUndefined()
    expect(parseAnswer({ type: "boolean" }, "y")).toBe(true)
    expect(parseAnswer({ type: "string", enum: ["a", "b"] }, "2")).toBe("b")
    expect(parseAnswer({ type: "string", enum: ["a", "b"] }, "c")).toBeUndefined()
  })

  it("arrays take comma-separated members of the allowed set", () => {
    const field = { type: "array", items: { enum: ["x", "y"] } }
    expect(parseAnswer(field, "x, y")).toEqual(["x", "y"])
    expect(parseAnswer(field, "x,z")).toBeUndefined()
    expect(parseAnswer(field, "")).toEqual([])
  })

  it("reads both modes of the SDK's request", () => {
    const form = fromSdkRequest(
      { method: "elicitation/create", params: { message: "Who?", requestedSchema: { type: "object", properties: {} } } },
      "s"
    )
    expect(form).toEqual({ mode: "form", server: "s", message: "Who?", requestedSchema: { type: "object", properties: {} } })
    const url = fromSdkRequest(
      { method: "elicitation/create", params: { mode: "url", message: "Go", url: "https://x.test/", elicitationId: "e" } },
      "s"
    )
    expect(url).toEqual({ mode: "url", server: "s", message: "Go", url: "https://x.test/", elicitationId: "e" })
  })
})

// ---------------------------------------------------------------------------------------------
// Through the host: handlers on the client, and the -32042 retry in ToolRegistry.call
// ---------------------------------------------------------------------------------------------

const server: ResolvedServer = {
  name: "shop",
  originalName: "shop",
  scope: "flag",
  source: "/test/settings.json",
  transport: "stdio",
  config: { command: "in-memory" }
}

const config = Layer.succeed(McpConfig, {
  servers: [server],
  permissions: { allow: ["mcp__*"], ask: [], deny: [] },
  limits: defaultLimits,
  home: "/tmp/mcpctl-test-home",
  projectDir: "/tmp",
  warnings: []
})

/** A server whose `ask` tool elicits a form and whose `pay` tool needs a URL step first. */
const shop = () => {
  const state = { calls: 0, instance: undefined as Server | undefined, capabilities: undefined as unknown }
  const factory: InMemory.ServerFactory = () => {
    const s = new Server({ name: "shop", version: "1" }, { capabilities: { tools: {} } })
    state.instance = s
    s.oninitialized = () => void (state.capabilities = s.getClientCapabilities())
    s.setRequestHandler("tools/list", () => ({
      tools: [
        { name: "ask", inputSchema: { type: "object", properties: {} } },
        { name: "pay", inputSchema: { type: "object", properties: {} } }
      ]
    }))
    s.setRequestHandler("tools/call", async (request) => {
      if (request.params.name === "ask") {
        const answer = await s.elicitInput({
          mode: "form",
          message: "Which size?",
          requestedSchema: { type: "object", properties: { size: { type: "string", default: "M" } }, required: ["size"] }
        })
        return { content: [{ type: "text", text: JSON.stringify(answer) }] }
      }
      state.calls++
      if (state.calls === 1) {
        throw new UrlElicitationRequiredError([
          { mode: "url", message: "Link your card", url: "https://pay.test/link", elicitationId: "e1" }
        ])
      }
      return { content: [{ type: "text", text: "paid" }] }
    })
    return s
  }
  return { state, factory }
}

/** The registry of a host over the shop, alive for the test's scope. */
const registryOf = (factory: InMemory.ServerFactory, elicitation?: Layer.Layer<Elicitation>) =>
  Layer.build(Host.layer({ config, transport: InMemory.layer({ shop: factory }), elicitation })).pipe(
    Effect.map(Context.get(ToolRegistry))
  )

describe("Elicitation through the host", () => {
  it.scoped("declares the capability and answers a form with the layer's policy", () =>
    Effect.gen(function*() {
      const { factory, state } = shop()
      const asked: Array<ElicitationRequest> = []
      const layer = Elicitation.layerWith({
        opensRequiredUrls: false,
        answer: (request) =>
          Effect.sync(() => {
            asked.push(request)
            return request.mode === "form" ? acceptWithDefaults(request.requestedSchema) : { action: "decline" as const }
          })
      })
      const registry = yield* registryOf(factory, layer)
      const { result } = yield* registry.call("mcp__shop__ask", {})
      expect(result.content).toEqual([{ type: "text", text: JSON.stringify({ action: "accept", content: { size: "M" } }) }])
      expect(asked).toEqual([expect.objectContaining({ mode: "form", server: "shop", message: "Which size?" })])
      expect(state.capabilities).toMatchObject(capabilities)
    }))

  it.scoped("without an elicitation layer no elicitation is declared (only the tasks extension)", () =>
    Effect.gen(function*() {
      const { factory, state } = shop()
      const registry = yield* registryOf(factory)
      yield* registry.list()
      expect(state.capabilities).toEqual({ extensions: { "io.modelcontextprotocol/tasks": {} } })
    }))

  it.scoped("a call refused with -32042 is sent again once the URL step is complete", () =>
    Effect.gen(function*() {
      const { factory, state } = shop()
      const opened: Array<string> = []
      const layer = Elicitation.layerWith({
        opensRequiredUrls: true,
        answer: () => Effect.succeed({ action: "decline" }),
        // The "browser" finishes the step: the server then reports it complete.
        openUrl: (url) =>
          Effect.promise(async () => {
            opened.push(url)
            await state.instance!.createElicitationCompletionNotifier("e1")()
          })
      })
      const registry = yield* registryOf(factory, layer)
      const { result } = yield* registry.call("mcp__shop__pay", {})
      expect(result.content).toEqual([{ type: "text", text: "paid" }])
      expect(opened).toEqual(["https://pay.test/link"])
      expect(state.calls).toBe(2)
    }))

  it.scoped("a layer that opens nothing leaves the refusal standing", () =>
    Effect.gen(function*() {
      const { factory, state } = shop()
      const registry = yield* registryOf(factory, Elicitation.layerDecline)
      const error = yield* Effect.flip(registry.call("mcp__shop__pay", {}))
      expect(error).toMatchObject({ _tag: "McpRequestError", code: ProtocolErrorCode.UrlElicitationRequired })
      expect(state.calls).toBe(1)
    }))
})
