// @ts-nocheck
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { homedir } from "node:os"
import * as Path from "node:path"
import { McpConfig } from "../src/config/McpConfig.js"
import { defaultLimits } from "../src/config/ServerConfig.js"

describe("layerStatic", () => {
  it.effect("builds the service from in-code servers", () =>
    Effect.gen(function*() {
      const cfg = yield* McpConfig
      expect(cfg.servers.map((s) => [s.name, s.originalName, s.transport])).toEqual([["my_fs", "my.fs", "stdio"]])
      expect(cfg.servers[0]!.config).toEqual({ command: "node", args: ["/tmp/x"] })
      expect(cfg.limits).toEqual({ ...defaultLimits, connectTimeoutMs: 5 })
      expect(cfg.permissions).toEqual({ allow: ["mcp__my_fs"], ask: [], deny: [] })
    }).pipe(Effect.provide(McpConfig.layerStatic({
      servers: { "my.fs": { command: "node", args: ["${D}/x"] } },
      env: { D: "/tmp" },
      permissions: { allow: ["mcp__my_fs"] },
      limits: { connectTimeoutMs: 5 }
    }))))
})

describe("layerStatic, defaults", () => {
  it.effect("no options: no servers, empty rules, default limits, ~/.mcpctl, the current directory", () =>
    Effect.gen(function*() {
      const cfg = yield* McpConfig
      expect(cfg).toStrictEqual({
        servers: [],
        permissions: { allow: [], ask: [], deny: [] },
        limits: defaultLimits,
        home: Path.join(homedir(), ".mcpctl"),
        projectDir: process.cwd(),
        warnings: []
      })
    }).pipe(Effect.provide(McpConfig.layerStatic())))

  it.effect("expands against the given env only, never the process's; MCPCTL_HOME and paths from it", () =>
    Effect.gen(function*() {
      const cfg = yield* McpConfig
      expect(cfg.home).toBe("/h")
      expect(cfg.projectDir).toBe(Path.resolve("rel"))
      expect(cfg.permissions).toStrictEqual({ allow: [], ask: [], deny: ["mcp__x"] })
      expect(cfg.servers[0]).toMatchObject({ scope: "adhoc", source: "code", config: { command: "v", cwd: Path.resolve("rel", "w") } })
    }).pipe(Effect.provide(McpConfig.layerStatic({
      servers: { s: { command: "${V}", cwd: "w" } },
      env: { V: "v", MCPCTL_HOME: "/h" },
      permissions: { deny: ["mcp__x"] },
      projectDir: "rel"
    }))))

  it.effect("an unset variable fails its server (never started), even one the process has", () =>
    Effect.gen(function*() {
      expect(process.env.PATH).toBeDefined()
      const cfg = yield* Effect.provide(McpConfig, McpConfig.layerStatic({ servers: { s: { command: "${PATH}" } } }))
      expect(cfg.servers[0]!.unresolved?.message).toContain("mcpServers.s.command uses ${PATH}")
      expect(cfg.servers[0]!.unresolved?.message).toMatch(/^code: /)
      expect(cfg.servers[0]!.unresolved?.path).toBe("mcpServers.s.command")
    }))

  it.effect("a disabled server's unset variable is no warning (no command uses it): it is marked for get", () =>
    Effect.gen(function*() {
      const cfg = yield* McpConfig
      expect(cfg.warnings).toEqual([])
      expect(cfg.servers[0]!.unresolved?.message).toContain("(ignored: the server is disabled)")
    }).pipe(Effect.provide(McpConfig.layerStatic({ servers: { off: { command: "${NOPE}", disabled: true } } }))))
})
