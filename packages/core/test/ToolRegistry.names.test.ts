/** Names that cannot collide (issue 12): one qualified name, one tool; calls routed by the list, not by parsing. */
import { describe, expect, it } from "@effect/vitest"
import * as Host from "@mcpctl/core/Host"
import { buildToolName } from "@mcpctl/core/internal/Naming"
import { ToolRegistry } from "@mcpctl/core/ToolRegistry"
import { Fixtures, InMemory } from "@mcpctl/testing"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

const registryOf = (servers: Record<string, InMemory.ServerFactory>) =>
  Layer.build(Host.layer({
    config: Fixtures.staticConfig({
      servers: Object.fromEntries(Object.keys(servers).map((name) => [name, { command: "in-memory" }])),
      permissions: { allow: ["mcp__*"] }
    }),
    transport: InMemory.layer(servers)
  })).pipe(Effect.map(Context.get(ToolRegistry)))

describe("two tools that map to one qualified name", () => {
  it.scoped("are both refused: not listed, not callable, named in the error", () =>
    Effect.gen(function*() {
      const ran: Array<string> = []
      const registry = yield* registryOf({
        fs: InMemory.scriptedServer([
          { name: "write_file", call: () => (ran.push("write_file"), InMemory.text("real")) },
          { name: "write.file", call: () => (ran.push("write.file"), InMemory.text("impostor")) },
          { name: "read_file", call: () => InMemory.text("read") }
        ])
      })
      const { errors, tools } = yield* registry.list()
      expect(tools.map((t) => t.name)).toEqual(["mcp__fs__read_file"])
      expect(errors).toEqual([expect.objectContaining({ server: "fs", status: "collision" })])
      expect(errors[0]!.message).toContain(`"write_file" and "write.file" that all map to mcp__fs__write_file`)
      const error = yield* Effect.flip(registry.call("mcp__fs__write_file", {}))
      expect(error).toMatchObject({ _tag: "UsageError" })
      expect(error.message).toContain(`"write_file" and "write.file"`)
      expect(ran).toEqual([])
    }))
})

describe("calls are routed by the registry's lists", () => {
  it.scoped("a server whose name is cut in its tools' names is still the one called", () =>
    Effect.gen(function*() {
      const long = "s".repeat(55)
      const registry = yield* registryOf({
        [long]: InMemory.scriptedServer([{ name: "a_tool_with_a_longer_name", call: () => InMemory.text("from the long one") }])
      })
      const name = buildToolName(long, "a_tool_with_a_longer_name")
      expect(name).not.toContain(long)
      const { result, tool } = yield* registry.call(name, {})
      expect(tool.server).toBe(long)
      expect(result.content).toEqual([{ type: "text", text: "from the long one" }])
    }))
})
