/**
 * The wiring between the catalogue and the permission gate, through `registry.call`: what reaches
 * `authorize` (the qualified name rules match, the server, the server's own tool name, the
 * annotations, the arguments) decides the call. In process, over in-memory servers.
 */
// @ts-nocheck

import { describe, expect, it } from "@effect/vitest"
import { InMemory } from "@mcpctl/testing"
import * as CoreHost from "@mcpctl/core/Host"
import { defaultLimits, type ResolvedServer, type ServerConfig } from "@mcpctl/core/ServerConfig"
import { McpConfig } from "@mcpctl/core/McpConfig"
import { type PermissionRequest, type PromptAnswer, Prompter } from "@mcpctl/core/Permission"
import { ToolRegistry } from "@mcpctl/core/ToolRegistry"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

const stdio = (name: string): ResolvedServer => ({
  name,
  originalName: name,
  scope: "flag",
  source: "/test/settings.json",
  transport: "stdio",
  config: { command: "in-memory" } as ServerConfig
})

/** Two servers whose tools share names: a rule or a route that drops the server shows. */
const tools = (server: string): ReadonlyArray<InMemory.ScriptedTool> => [
  { name: "read", title: "Read it", annotations: { readOnlyHint: true }, call: () => InMemory.text(`${server} read`) },
  { name: "write", annotations: { destructiveHint: true, openWorldHint: false }, call: () => InMemory.text(`${server} wrote`) },
  { name: "ask.me", annotations: { readOnlyHint: false, destructiveHint: false }, call: () => InMemory.text(`${server} asked`) }
]

const host = (answer: PromptAnswer, asked: Array<PermissionRequest>, ran: Array<string>) =>
  CoreHost.layer({
    config: Layer.succeed(McpConfig, {
      servers: [stdio("alpha"), stdio("beta")],
      permissions: {
        allow: ["mcp__alpha__read", "mcp__beta__write"],
        ask: [],
        deny: ["mcp__alpha__write", "mcp__beta__read"]
      },
      limits: defaultLimits,
      home: "/tmp/mcpctl-test-home",
      projectDir: "/tmp",
      warnings: []
    }),
    transport: InMemory.layer({
      alpha: InMemory.scriptedServer(tools("alpha"), { onRequest: (method, params) => method === "tools/call" && ran.push(`alpha ${String(params?.name)}`) }),
      beta: InMemory.scriptedServer(tools("beta"), { onRequest: (method, params) => method === "tools/call" && ran.push(`beta ${String(params?.name)}`) })
    }),
    prompter: Layer.succeed(Prompter, { ask: (request) => Effect.succeed((asked.push(request), answer)) }),
    pins: false
  })

describe("ToolRegistry.call through the permission gate", () => {
  it.effect("allow and deny rules match the qualified name of the tool called, per server", () => {
    const asked: Array<PermissionRequest> = []
    const ran: Array<string> = []
    return Effect.gen(function*() {
      const registry = yield* ToolRegistry
      const allowed = yield* registry.call("mcp__alpha__read", {})
      expect(allowed.result.content).toEqual([{ type: "text", text: "alpha read" }])
      expect((yield* registry.call("mcp__beta__write", {})).result.content).toEqual([{ type: "text", text: "beta wrote" }])
      const denied = yield* Effect.flip(registry.call("mcp__alpha__write", {}))
      expect(denied).toMatchObject({ _tag: "PermissionDenied", tool: "mcp__alpha__write", rule: "mcp__alpha__write" })
      const deniedToo = yield* Effect.flip(registry.call("mcp__beta__read", {}))
      expect(deniedToo).toMatchObject({ _tag: "PermissionDenied", tool: "mcp__beta__read", rule: "mcp__beta__read" })
      // Only the allowed calls reached a server, and each reached its own.
      expect(ran).toEqual(["alpha read", "beta write"])
      expect(asked).toEqual([])
    }).pipe(Effect.provide(host("no", asked, ran)))
  })

  it.effect("an ask hands the prompter the qualified name, the server, its own tool name, the annotations and the arguments", () => {
    const asked: Array<PermissionRequest> = []
    const ran: Array<string> = []
    return Effect.gen(function*() {
      const registry = yield* ToolRegistry
      const result = yield* registry.call("mcp__beta__ask_me", { path: "/x" })
      expect(result.result.content).toEqual([{ type: "text", text: "beta asked" }])
      expect(asked).toEqual([{
        tool: "mcp__beta__ask_me",
        server: "beta",
        toolName: "ask.me",
        annotations: { readOnly: false, destructive: false, openWorld: true, title: "ask.me" },
        args: { path: "/x" }
      }])
      expect(ran).toEqual(["beta ask.me"])
    }).pipe(Effect.provide(host("once", asked, ran)))
  })

  it.effect("a refused ask runs nothing and names the tool", () => {
    const asked: Array<PermissionRequest> = []
    const ran: Array<string> = []
    return Effect.gen(function*() {
      const registry = yield* ToolRegistry
      const error = yield* Effect.flip(registry.call("mcp__alpha__ask_me", {}))
      expect(error).toMatchObject({ _tag: "PermissionDenied", tool: "mcp__alpha__ask_me" })
      expect(asked.map((r) => [r.tool, r.server, r.toolName, r.annotations.title])).toEqual([["mcp__alpha__ask_me", "alpha", "ask.me", "ask.me"]])
      expect(ran).toEqual([])
    }).pipe(Effect.provide(host("no", asked, ran)))
  })
})
