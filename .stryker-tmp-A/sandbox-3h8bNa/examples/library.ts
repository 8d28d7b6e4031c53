// @ts-nocheck
// The README's Library block with its parts exported: packages/testing/test/example.test.ts runs it
// here; test/package.test.ts runs the README block itself on the packed packages and checks that
// this file matches it.
import { McpConfig } from "@mcpctl/core/McpConfig"
import { ConnectionPool } from "@mcpctl/core/ConnectionPool"
import { Permission, Prompter, RuleWriter } from "@mcpctl/core/Permission"
import { ToolRegistry } from "@mcpctl/core/ToolRegistry"
import { InMemory } from "@mcpctl/testing"
import { Effect, Layer } from "effect"

const config = McpConfig.layerStatic({
  servers: { notes: { command: "in-memory" } },
  permissions: { allow: ["mcp__notes__*"] }
})
const transport = InMemory.layer({
  notes: InMemory.scriptedServer([
    { name: "search", annotations: { readOnlyHint: true }, call: (args) => InMemory.text(`found ${args.q}`) }
  ])
})
// The settings' rules decide; nobody to ask (an unmatched call fails with exit code 3's error).
export const permission = Permission.layer.pipe(Layer.provide(Layer.merge(Prompter.layerNone, RuleWriter.layerNoop)))
export const host = ToolRegistry.layer.pipe(
  Layer.provideMerge(ConnectionPool.layer.pipe(Layer.provide(transport))),
  Layer.provideMerge(permission),
  Layer.provideMerge(config)
)

export const program = Effect.gen(function*() {
  const registry = yield* ToolRegistry
  const { tools } = yield* registry.list() // [{ name: "mcp__notes__search", readOnly: true, … }]
  const { result } = yield* registry.call("mcp__notes__search", { q: "effect" })
  return { tools, result }
})

export const main = () => Effect.runPromise(Effect.scoped(program.pipe(Effect.provide(host))))
