// @ts-nocheck
// The run guard (tmpdir.globalSetup.ts, runGuard.ts): a vitest run interrupted with SIGINT leaves
// no process and no temporary directory behind, and deadlines scale with the machine's slowdown.
import { spawn } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { processesOfRun } from "./runGuard.js"
import { parseSlowdown, slowdownOf } from "./slowdown.js"

const root = fileURLToPath(new URL("..", import.meta.url))
const fixture = fileURLToPath(new URL("./fixtures/harness/", import.meta.url))

const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    return !/^[ZX]$/.test(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0]!)
  } catch {
    return false
  }
}

/** The file's content once written: polled, bounded only by the test's own (scaled) timeout. */
const written = async (file: string): Promise<string> => {
  for (;;) {
    if (existsSync(file)) {
      const text = readFileSync(file, "utf8")
      if (text !== "") return text
    }
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe.runIf(process.platform === "linux")("an interrupted vitest run", () => {
  it("SIGINT: every process it started (detached, reparented, plain) is gone, and so is its TMPDIR", async () => {
    const ready = join(mkdtempSync(join(tmpdir(), "harness-")), "ready.json")
    const vitest = spawn(process.execPath, [join(root, "node_modules/vitest/vitest.mjs"), "run", "--config", join(fixture, "vitest.config.ts")], {
      cwd: fixture,
      env: { ...process.env, HARNESS_READY: ready },
      stdio: "ignore"
    })
    const exited = new Promise<number | null>((resolve) => vitest.on("exit", (code) => resolve(code)))
    const started = JSON.parse(await written(ready)) as { run: string; tmpdir: string; pids: Array<number> }
    expect(started.pids.every(alive)).toBe(true)
    expect(processesOfRun(started.run, started.tmpdir, vitest.pid!).length).toBeGreaterThanOrEqual(3)
    vitest.kill("SIGINT")
    expect(await exited).not.toBe(0)
    expect(started.pids.filter(alive)).toEqual([])
    expect(processesOfRun(started.run, started.tmpdir, vitest.pid!)).toEqual([])
    expect(existsSync(started.tmpdir)).toBe(false)
  })
})

describe("the slowdown factor", () => {
  it("comes from MCPCTL_TEST_SLOWDOWN when that is a number ≥ 1, else from a node start's time", () => {
    expect(parseSlowdown("3")).toBe(3)
    expect(parseSlowdown("0.5")).toBeUndefined()
    expect(parseSlowdown("fast")).toBeUndefined()
    expect(parseSlowdown(undefined)).toBeUndefined()
    expect(parseSlowdown("1000")).toBe(20)
    expect(slowdownOf(40)).toBe(1)
    expect(slowdownOf(400)).toBe(5)
    expect(slowdownOf(60_000)).toBe(20)
  })

  it("is set for the workers of this run", () => {
    expect(parseSlowdown(process.env.MCPCTL_TEST_SLOWDOWN)).toBeGreaterThanOrEqual(1)
  })
})
