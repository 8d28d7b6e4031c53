/**
 * Shutdown deadlines that hold while the host is busy: a host (fixtures/blocked-host.ts, bundled
 * here with esbuild and run as a real process) begins its shutdown on SIGTERM and then blocks
 * its event loop synchronously until told to stop. Every server process must be gone while the
 * host is still blocked: the watchdog owns the SIGKILL deadline, the host's timers do not. The
 * test waits for the processes to disappear and checks the host's "unblocked" marker is still
 * absent then; no wall-clock bound on the shutdown itself.
 */
// @ts-nocheck

import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Fixtures, Processes } from "@mcpctl/testing"
import { spawn } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { slow } from "./support/slow.js"

const dir = mkdtempSync(join(tmpdir(), "mcpctl-blocked-"))
const host = join(dir, "blocked-host.mjs")

beforeAll(async () => {
  const { build } = await import("esbuild")
  await build({
    entryPoints: [fileURLToPath(new URL("./fixtures/blocked-host.ts", import.meta.url))],
    outfile: host,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    conditions: ["@mcpctl/source"],
    logLevel: "warning"
  })
}, slow(120_000))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const runBlocked = async (mode: "signal" | "close", count: number) => {
  const work = join(dir, mode)
  mkdirSync(work)
  const child = spawn(process.execPath, [host, mode, String(count), work, Fixtures.hostileServer], { stdio: ["ignore", "pipe", "inherit"] })
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve))
  let out = ""
  const pids = await new Promise<Array<number>>((resolve, reject) => {
    child.stdout!.on("data", (chunk) => {
      out += chunk
      const m = /ready (\[.*\])\n/.exec(out)
      if (m) resolve(JSON.parse(m[1]!) as Array<number>)
    })
    child.on("exit", (code) => reject(new Error(`host exited ${code} before ready: ${out}`)))
  })
  expect(pids).toHaveLength(2 * count)
  for (const pid of pids) expect(Processes.isAlive(pid)).toBe(true)
  child.kill("SIGTERM")
  await Processes.waitForFile(join(work, "blocked"), 60_000)
  // The host spins until `release` exists: whatever ends the servers now is not its event loop.
  const { alive } = await Processes.waitForExit(pids, 60_000)
  const stillBlocked = !existsSync(join(work, "unblocked")) && Processes.isAlive(child.pid!)
  writeFileSync(join(work, "release"), "")
  const code = await exited
  return { alive, stillBlocked, code }
}

describe("a host blocked in its shutdown", () => {
  it("first signal (as the CLI does): every server and grandchild is gone while the host is still blocked", async () => {
    const { alive, stillBlocked, code } = await runBlocked("signal", 5)
    expect(alive).toEqual([])
    expect(stillBlocked).toBe(true)
    expect(code).toBe(0)
  }, slow(180_000))

  it("a scope closed by the library alone: the deadline comes with the close", async () => {
    const { alive, stillBlocked, code } = await runBlocked("close", 3)
    expect(alive).toEqual([])
    expect(stillBlocked).toBe(true)
    expect(code).toBe(0)
  }, slow(180_000))
})
