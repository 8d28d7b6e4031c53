import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
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
