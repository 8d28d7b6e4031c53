import { describe, expect, it } from "@effect/vitest"
import { McpConfig } from "@mcpctl/core/McpConfig"
import { Fixtures } from "@mcpctl/testing"
import * as Effect from "effect/Effect"

const load = (servers: Record<string, { command: string }>) =>
  Effect.flip(Effect.provide(McpConfig, Fixtures.staticConfig({ servers })))

describe("server names that would make names collide are configuration errors", () => {
  it.effect("a name that normalizes to a trailing _ (fs. would make mcp__fs___write_file)", () =>
    Effect.gen(function*() {
      const error = yield* load({ "fs.": { command: "x" } })
      expect(error).toMatchObject({ _tag: "ConfigError", path: "mcpServers.fs." })
      expect(error.message).toContain(`server "fs." normalizes to "fs_", which ends in "_"`)
    }))

  it.effect("two long names that are one after the 64-character cut", () =>
    Effect.gen(function*() {
      const prefix = "a_very_long_server_name_shared_by_two_entries_xyz"
      const error = yield* load({ [`${prefix}_one`]: { command: "x" }, [`${prefix}_two`]: { command: "y" } })
      expect(error).toMatchObject({ _tag: "ConfigError" })
      expect(error.message).toContain(`"${prefix}_one"`)
      expect(error.message).toContain(`"${prefix}_two"`)
      expect(error.message).toContain("Shorten one of the names")
    }))

  it.effect("long names that differ early, and ordinary names, are fine", () =>
    Effect.gen(function*() {
      const config = yield* Effect.provide(McpConfig, Fixtures.staticConfig({
        servers: { ["x".repeat(60)]: { command: "x" }, ["y".repeat(60)]: { command: "y" }, fs: { command: "z" } }
      }))
      expect(config.servers.map((s) => s.name).length).toBe(3)
    }))
})
