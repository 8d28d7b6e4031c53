/**
 * `registry.call`'s short path: a tool the live connection's list holds is taken from it, and the
 * pin and permission checks are skipped as steps only when both answer `Effect.void` (nothing to
 * do). Anything else a Permission answers runs, on every call, also once the list is held; the
 * checks are taken when the call runs, not when its effect is built. In process, in-memory server.
 */
import { describe, expect, it } from "@effect/vitest"
import { Fixtures, InMemory } from "@mcpctl/testing"
import { ConnectionPool } from "@mcpctl/core/ConnectionPool"
import { Permission, type PermissionRequest } from "@mcpctl/core/Permission"
import { ToolRegistry } from "@mcpctl/core/ToolRegistry"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

const tools: ReadonlyArray<InMemory.ScriptedTool> = [
  { name: "echo", annotations: { readOnlyHint: true }, call: () => InMemory.text("echoed") }
]

/** A registry over one in-memory server `s`, with `permission` as the gate; `ran` counts tools/call. */
const registryWith = (permission: Permission["Type"], ran: { calls: number }) =>
  ToolRegistry.layer.pipe(
    Layer.provideMerge(Layer.merge(ConnectionPool.layer, Layer.succeed(Permission, permission))),
    Layer.provideMerge(Layer.merge(
      InMemory.layer({ s: InMemory.scriptedServer(tools, { onRequest: (method) => void (method === "tools/call" && ran.calls++) }) }),
      Fixtures.staticConfig({ servers: { s: { command: "in-memory" } } })
    ))
  )

const gate = (authorize: Permission["Type"]["authorize"]): Permission["Type"] => ({
  decide: () => ({ behavior: "allow", rule: undefined }),
  serverDenied: () => undefined,
  authorize
})

describe("ToolRegistry.call's short path", () => {
  it.effect("a verdict other than Effect.void is run on every call, the list held or not", () => {
    const ran = { calls: 0 }
    const checked: Array<string> = []
    const permission = gate((request: PermissionRequest) => Effect.sync(() => void checked.push(request.tool)))
    return Effect.gen(function*() {
      const registry = yield* ToolRegistry
      // The first call resolves the name (lists the tools); the next ones find it in the held list.
      for (let i = 0; i < 3; i++) expect((yield* registry.call("mcp__s__echo", {})).result.content).toEqual([{ type: "text", text: "echoed" }])
      expect(checked).toEqual(["mcp__s__echo", "mcp__s__echo", "mcp__s__echo"])
      expect(ran.calls).toBe(3)
    }).pipe(Effect.provide(registryWith(permission, ran)))
  })

  it.effect("a refusal once the list is held still stops the call before the server", () => {
    const ran = { calls: 0 }
    let refuse = false
    const permission = gate(() =>
      refuse ? Effect.die(new Error("refused by the test's gate")) : Effect.void
    )
    return Effect.gen(function*() {
      const registry = yield* ToolRegistry
      yield* registry.call("mcp__s__echo", {})
      refuse = true
      const exit = yield* Effect.exit(registry.call("mcp__s__echo", {}))
      expect(exit._tag).toBe("Failure")
      expect(ran.calls).toBe(1)
    }).pipe(Effect.provide(registryWith(permission, ran)))
  })

  it.effect("one call effect run three times asks the gate three times (the verdict is taken when it runs)", () => {
    const ran = { calls: 0 }
    let asked = 0
    const permission = gate(() => (asked++, Effect.void))
    return Effect.gen(function*() {
      const registry = yield* ToolRegistry
      const call = registry.call("mcp__s__echo", {})
      yield* call
      yield* call
      yield* call
      expect(asked).toBe(3)
      expect(ran.calls).toBe(3)
    }).pipe(Effect.provide(registryWith(permission, ran)))
  })
})
