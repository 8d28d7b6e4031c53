/**
 * `Reaper.endAll`, what the CLI's first signal calls before it interrupts anything: every open
 * stdio transport begins its own shutdown at once (SIGINT to its group, the escalation, the
 * watchdog's deadline), with no scope closed; the scopes' closes then share those ends. Real
 * stubborn servers (hostile `--stubborn`: INT/TERM/HUP/EOF ignored, a `sleep` grandchild in the
 * group) that log the signals they get.
 */
import { describe, expect, it } from "@effect/vitest"
import { Fixtures, Processes } from "@mcpctl/testing"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Scope from "effect/Scope"
import { mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { StdioServerConfig } from "../src/config/ServerConfig.js"
import { endAll, endingGroups } from "../src/internal/transport/Reaper.js"
import { openStdio } from "../src/internal/transport/Stdio.js"
import { slow } from "./support/slow.js"

const dir = mkdtempSync(join(tmpdir(), "mcpctl-endall-"))

const stubborn = (i: number) => {
  const pidFile = join(dir, `s${i}.pids`)
  const signalLog = join(dir, `s${i}.signals`)
  const server = Fixtures.nodeServer(`s${i}`, Fixtures.hostileServer, ["--stubborn", "--pid-file", pidFile, "--signal-log", signalLog])
  return { server, config: server.config as StdioServerConfig, pidFile, signalLog }
}

const signals = (file: string): Array<string> => {
  try {
    return readFileSync(file, "utf8").trim().split("\n").filter(Boolean)
  } catch {
    return []
  }
}

describe("Reaper.endAll", () => {
  it("begins every stdio server's shutdown with no scope closed; the closes then share it", async () => {
    const count = 5
    const scope = Effect.runSync(Scope.make())
    const servers = Array.from({ length: count }, (_, i) => stubborn(i))
    await Effect.runPromise(
      Effect.forEach(servers, (s) => openStdio(s.server, s.config), { concurrency: "unbounded" }).pipe(Scope.extend(scope))
    )
    const pids = (await Promise.all(servers.map((s) => Processes.waitForFile(s.pidFile, slow(30_000)))))
      .flatMap((text) => Object.values(JSON.parse(text) as Record<string, number>))
    expect(pids).toHaveLength(2 * count)

    expect(endAll()).toBe(count)
    // Synchronous: every group is being ended before this line, and a second call adds nothing.
    expect(endingGroups()).toHaveLength(count)
    expect(endAll()).toBe(0)
    // Without closing the scope, the escalation runs to SIGKILL and nothing is left.
    const { alive } = await Processes.waitForExit(pids, slow(20_000))
    expect(alive).toEqual([])
    for (const s of servers) expect(signals(s.signalLog).slice(0, 2)).toEqual(["SIGINT", "SIGTERM"])

    // The scope's close finds the ends done (shared, not begun again: no second SIGINT).
    const started = performance.now()
    await Effect.runPromise(Scope.close(scope, Exit.void))
    console.log(`scope close after endAll: ${Math.round(performance.now() - started)} ms`)
    for (const s of servers) expect(signals(s.signalLog).filter((x) => x === "SIGINT")).toHaveLength(1)
    expect(endingGroups()).toEqual([])
    // Closed transports are no longer watched.
    expect(endAll()).toBe(0)
  }, slow(90_000))
})
