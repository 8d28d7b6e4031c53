/**
 * Progress that arrives in the same read as the call's answer reaches the caller: the SDK client
 * forgets a call's progress handler when it reads the answer and handles progress a microtask
 * later, so without the host client's ordering (hostClient.ts `_onresponse`) every progress of a
 * burst written with its answer was dropped.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Host from "@mcpctl/core/Host"
import { McpConfig } from "@mcpctl/core/McpConfig"
import { ToolRegistry } from "@mcpctl/core/ToolRegistry"
import { Transport } from "@mcpctl/core/Transport"
import * as Effect from "effect/Effect"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { slow } from "./support/slow.js"

const burstServer = fileURLToPath(new URL("./support/progressBurstServer.mjs", import.meta.url))

const hostLayer = () =>
  Host.layer({
    config: McpConfig.layerStatic({
      servers: { p: { command: process.execPath, args: [burstServer] } },
      permissions: { allow: ["mcp__p__*"] },
      home: mkdtempSync(join(tmpdir(), "mcpctl-progress-"))
    }),
    transport: Transport.layer,
    pins: false
  })

type Progress = { progress: number; total?: number; message?: string }

describe("progress written in one chunk with the answer", () => {
  it.live("every notification reaches onProgress, in order, before the call returns", () =>
    Effect.gen(function*() {
      const registry = yield* ToolRegistry
      const seen: Array<Progress> = []
      const { result } = yield* registry.call("mcp__p__burst", { count: 5 }, { onProgress: (p) => void seen.push(p) })
      expect(result.content).toEqual([{ type: "text", text: "sent 5" }])
      expect(seen.map((p) => [p.progress, p.total, p.message])).toEqual(
        [1, 2, 3, 4, 5].map((i) => [i, 5, `step ${i}`])
      )
    }).pipe(Effect.provide(hostLayer())), slow(30_000))

  it.live("calls in a row on one connection each get their own progress, and a call without onProgress none", () =>
    Effect.gen(function*() {
      const registry = yield* ToolRegistry
      const first: Array<Progress> = []
      const second: Array<Progress> = []
      yield* registry.call("mcp__p__burst", { count: 2 }, { onProgress: (p) => void first.push(p) })
      const { result } = yield* registry.call("mcp__p__burst", { count: 4 })
      expect(result.content).toEqual([{ type: "text", text: "sent 0" }])
      yield* registry.call("mcp__p__burst", { count: 3 }, { onProgress: (p) => void second.push(p) })
      expect(first.map((p) => p.progress)).toEqual([1, 2])
      expect(second.map((p) => p.progress)).toEqual([1, 2, 3])
    }).pipe(Effect.provide(hostLayer())), slow(30_000))
})
