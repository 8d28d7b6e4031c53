/** The judging of conformance 0.2 results: plain functions on real files in a temp directory. */
import { afterAll, describe, expect, it } from "@effect/vitest"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import {
  CLIENT_EXIT_CHECK,
  EXIT_MARKER,
  judge,
  listedClientScenarios,
  planJobs,
  readExpectations,
  readResults,
  requiredClientScenarios,
  scenarioOfDir,
  type ScenarioResult,
  summaryScenarios
} from "./conformanceResults.js"

const dir = mkdtempSync(join(tmpdir(), "mcpctl-conformance-results-test-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const result = (scenario: string, failing: Array<string>): ScenarioResult => ({
  scenario,
  failing,
  counts: { success: 1, failure: failing.length, warning: 0 }
})

describe("conformanceResults", () => {
  it("names a scenario after its result folder, auth/ folders included", () => {
    expect(scenarioOfDir("auth/iss-normalized-2026-12-01T11-18-08-618Z")).toBe("auth/iss-normalized")
    expect(scenarioOfDir("tools_call-2026-12-01T11-18-08-618Z")).toBe("tools_call")
  })

  it("a scenario whose client exited unexpectedly fails, though its checks pass", () => {
    const run = join(dir, "exit")
    for (const [name, stderr] of [["tools_call", `$ mcpctl call\n${EXIT_MARKER} 1 (scenario tools_call expects 0)\n`], ["initialize", "$ mcpctl tools\n"]]) {
      const folder = join(run, `${name}-2026-12-01T11-18-08-618Z`)
      mkdirSync(folder, { recursive: true })
      writeFileSync(join(folder, "checks.json"), JSON.stringify([{ id: "a", status: "SUCCESS" }]))
      writeFileSync(join(folder, "stderr.txt"), stderr)
    }
    const results = readResults(run)
    expect(results.get("tools_call")?.failing).toEqual([CLIENT_EXIT_CHECK])
    expect(results.get("initialize")?.failing).toEqual([])
    expect(judge(["tools_call", "initialize"], results).unexpected).toEqual([{ scenario: "tools_call", checks: [CLIENT_EXIT_CHECK] }])
  })

  it("reads failing and warning check ids from checks.json, once each", () => {
    const run = join(dir, "run")
    mkdirSync(join(run, "auth", "dpop-2026-12-01T11-18-08-618Z"), { recursive: true })
    writeFileSync(
      join(run, "auth", "dpop-2026-12-01T11-18-08-618Z", "checks.json"),
      JSON.stringify([
        { id: "b", status: "FAILURE" },
        { id: "a", status: "WARNING" },
        { id: "b", status: "FAILURE" },
        { id: "c", status: "SUCCESS" },
        { id: "d", status: "SKIPPED" },
        { id: "e", status: "INFO" }
      ])
    )
    const r = readResults(run).get("auth/dpop")
    expect(r?.failing).toEqual(["a", "b"])
    expect(r?.counts).toEqual({ success: 1, failure: 2, warning: 1 })
  })

  it("takes scenario names from the suite summary", () => {
    expect(summaryScenarios("✓ initialize: 1 passed, 0 failed\n✗ auth/dpop: 1 passed, 3 failed, 2 warnings\nTotal: 2 passed"))
      .toEqual(["initialize", "auth/dpop"])
  })

  it("takes the client scenarios from `conformance list`, not the server ones", () => {
    const list = "Server scenarios (test against a server):\n  - ping [2025-06-18,2025-11-25]\n\n" +
      "Client scenarios (test against a client):\n  - initialize [2025-06-18,2025-11-25]\n  - auth/dpop [extension]\n\n" +
      "Authorization server scenarios (test against an authorization server):\n  - authorization-code-grant [2025-03-26]\n"
    expect(listedClientScenarios(list)).toEqual([
      { name: "initialize", versions: ["2025-06-18", "2025-11-25"] },
      { name: "auth/dpop", versions: ["extension"] }
    ])
  })

  it("takes a requirement set's client scenarios, the unscored client ones too, from `conformance list --requirements`", () => {
    // The shape of `list --client --requirements 2026-07-28` (0.2.0-alpha.12), shortened.
    const list = "Required for 2026-07-28 (69 scenarios, frozen; run at the 2026-07-28 wire):\n\n" +
      "Server scenarios (test against a server):\n  - server-stateless\n\n" +
      "Client scenarios (test against a client):\n  - tools_call\n  - auth/iss-normalized\n\n" +
      "Run and reported, but never scored:\n  extension (2):\n    - auth/dpop [client]\n    - tasks-lifecycle [server]\n" +
      "  added-after-release (1):\n    - json-schema-2020-12-preservation [client]\n"
    expect(requiredClientScenarios(list)).toEqual(["tools_call", "auth/iss-normalized", "auth/dpop", "json-schema-2020-12-preservation"])
  })

  it("plans one runner per scenario and wire; a scenario both runs put on the newest wire runs once", () => {
    const plan = planJobs(
      [
        { name: "initialize", versions: ["2025-06-18", "2025-11-25"] },
        { name: "tools_call", versions: ["2025-11-25", "2026-07-28"] },
        { name: "request-metadata", versions: ["2026-07-28"] },
        { name: "auth/dpop", versions: ["extension"] }
      ],
      ["tools_call", "request-metadata", "auth/dpop"]
    )
    expect(plan.jobs.map((j) => [j.key, j.args.join(" ")])).toEqual([
      ["initialize@2025-11-25", "--scenario initialize"],
      ["tools_call@2025-11-25", "--scenario tools_call"],
      ["request-metadata@2026-07-28", "--scenario request-metadata"],
      ["auth/dpop@2025-11-25", "--scenario auth/dpop"],
      ["tools_call@2026-07-28", "--scenario tools_call --spec-version 2026-07-28 --force"],
      ["auth/dpop@2026-07-28", "--scenario auth/dpop --spec-version 2026-07-28 --force"]
    ])
    expect(plan.runs.get("all")!.map((r) => r.job)).toEqual(["initialize@2025-11-25", "tools_call@2025-11-25", "request-metadata@2026-07-28", "auth/dpop@2025-11-25"])
    expect(plan.runs.get("requirements-2026-07-28")!.map((r) => r.job)).toEqual(["tools_call@2026-07-28", "request-metadata@2026-07-28", "auth/dpop@2026-07-28"])
  })

  it("reads one run of an expectations file, without comment keys", () => {
    const file = join(dir, "pending.json")
    writeFileSync(file, JSON.stringify({ "//": "about", all: { "//x": { checks: [], reason: "" }, s: { checks: ["a"], reason: "r" } } }))
    expect(readExpectations(file, "all")).toEqual({ s: { checks: ["a"], reason: "r" } })
    expect(readExpectations(file, "other")).toEqual({})
  })

  it("excuses only the listed checks, from either list, and reports entries that pass as stale", () => {
    const results = new Map([
      ["ok", result("ok", [])],
      ["listed", result("listed", ["x", "y"])],
      ["new-reason", result("new-reason", ["x", "z"])],
      ["fixed", result("fixed", [])],
      ["half-fixed", result("half-fixed", ["x"])]
    ])
    const pending = {
      listed: { checks: ["x"], reason: "" },
      "new-reason": { checks: ["x"], reason: "" },
      fixed: { checks: ["x"], reason: "" },
      "half-fixed": { checks: ["x", "y"], reason: "" },
      gone: { checks: ["x"], reason: "" }
    }
    const bugs = { listed: { checks: ["y"], reason: "" } }
    const verdict = judge(["ok", "listed", "new-reason", "fixed", "half-fixed", "missing"], results, pending, bugs)
    expect(verdict.passed).toEqual(["ok", "fixed"])
    expect(verdict.expected).toEqual(["listed", "half-fixed"])
    expect(verdict.unexpected).toEqual([
      { scenario: "new-reason", checks: ["z"] },
      { scenario: "missing", checks: ["(no results: the scenario did not run)"] }
    ])
    expect(verdict.stale).toEqual([
      { scenario: "fixed", checks: ["x"] },
      { scenario: "half-fixed", checks: ["y"] },
      { scenario: "gone", checks: ["x"] }
    ])
  })
})
