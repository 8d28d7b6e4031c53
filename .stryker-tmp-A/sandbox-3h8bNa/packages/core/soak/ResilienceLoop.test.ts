/**
 * The agent-loop promise of issue 3: one pool kept alive across 1,000 read-only calls to a real
 * stdio server whose whole process group is killed every 100 calls. Every call must be answered.
 */
// @ts-nocheck

import { describe, expect, it } from "@effect/vitest"
import { echoServer } from "@mcpctl/testing/Fixtures"
import { defaultLimits, type ServerConfig } from "@mcpctl/core/ServerConfig"
import { McpConfig } from "@mcpctl/core/McpConfig"
import { Host } from "@mcpctl/testing"
import { ConnectionPool } from "@mcpctl/core/ConnectionPool"
import { ToolRegistry } from "@mcpctl/core/ToolRegistry"
import { Transport } from "@mcpctl/core/Transport"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"

const CALLS = 1_000
const KILL_EVERY = Number(process.env.LOOP_KILL_EVERY ?? 100)

const hostLayer = () => {
  const config = Layer.succeed(McpConfig, {
    servers: [{
      name: "echo",
      originalName: "echo",
      scope: "flag",
      source: "/test/settings.json",
      transport: "stdio",
      config: { command: process.execPath, args: [echoServer] } as ServerConfig
    }],
    permissions: { allow: ["mcp__echo__echo"], ask: [], deny: [] },
    limits: defaultLimits,
    home: mkdtempSync(path.join(tmpdir(), "mcpctl-loop-")),
    projectDir: "/tmp",
    warnings: []
  })
  return Host.layer({ config, transport: Transport.layer })
}

describe("agent loop", () => {
  it.scoped(`answers ${CALLS} read-only calls while the server is killed every ${KILL_EVERY}`, () =>
    Effect.gen(function*() {
      const registry = yield* ToolRegistry
      const pool = yield* ConnectionPool
      const pids = new Set<number>()
      let kills = 0
      let answered = 0
      const started = performance.now()
      for (let i = 1; i <= CALLS; i++) {
        const { result } = yield* registry.call("mcp__echo__echo", { text: `call ${i}` })
        expect(result.content).toEqual([{ type: "text", text: `call ${i}` }])
        answered++
        const pid = (yield* pool.get("echo")).pid!
        pids.add(pid)
        if (i % KILL_EVERY === 0 && i < CALLS) {
          // SIGKILL to the whole group, no waiting: the next call may meet the dying process.
          process.kill(-pid, "SIGKILL")
          kills++
        }
      }
      const totalMs = Math.round(performance.now() - started)
      const restarts = pids.size - 1
      console.log(
        `agent loop: calls=${CALLS} answered=${answered} kills=${kills} restarts=${restarts} ` +
          `processes=${pids.size} total=${totalMs} ms (${(totalMs / CALLS).toFixed(2)} ms/call)`
      )
      expect(answered).toBe(CALLS)
      expect(restarts).toBe(kills)
    }).pipe(Effect.provide(hostLayer())), 60_000)
})
