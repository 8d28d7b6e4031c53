/** The daemon's knobs, read through effect/Config (in process, from a map). */
// @ts-nocheck

import { describe, expect, it } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import { join } from "node:path"
import { daemonOptions, logLine } from "../src/daemon/DaemonOptions.js"

const read = (map: Record<string, string>) =>
  Effect.withConfigProvider(daemonOptions, ConfigProvider.fromMap(new Map(Object.entries(map))))

describe("daemonOptions", () => {
  it.effect("reads the run directory and both idle times", () =>
    Effect.gen(function*() {
      const options = yield* read({ MCPCTL_HOME: "/tmp/h", MCPCTL_DAEMON_IDLE_MS: "1500", MCPCTL_DAEMON_SERVER_IDLE_MS: "250" })
      expect(options).toEqual({ dir: join("/tmp/h", "run"), idleMs: 1500, serverIdleMs: 250 })
    }))

  it.effect("falls back to 30 and 5 minutes when unset, zero, negative or not a number", () =>
    Effect.gen(function*() {
      for (const [idle, server] of [[undefined, undefined], ["0", "-5"], ["soon", ""]] as const) {
        const map: Record<string, string> = { MCPCTL_HOME: "/tmp/h" }
        if (idle !== undefined) map.MCPCTL_DAEMON_IDLE_MS = idle
        if (server !== undefined) map.MCPCTL_DAEMON_SERVER_IDLE_MS = server
        const options = yield* read(map)
        expect([options.idleMs, options.serverIdleMs]).toEqual([30 * 60_000, 5 * 60_000])
      }
    }))
})

describe("logLine", () => {
  it("puts the time before the CLI's line", () => {
    expect(logLine(new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6)), "mcpctl: info: listening")).toBe("2026-01-02T03:04:05.006Z mcpctl: info: listening")
  })
})
