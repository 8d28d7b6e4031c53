/**
 * Reading and judging the results of `@modelcontextprotocol/conformance` 0.2 client runs (plain
 * functions; conformance-next.test.ts runs the suite). A scenario's result is the set of check
 * ids that failed or warned (the suite's own rule: a warning fails a scenario too). Expected
 * failures are named per check, so a scenario that fails for a new reason is not excused by an
 * entry written for an old one.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"

export interface ScenarioResult {
  readonly scenario: string
  /** Ids of the checks that are FAILURE or WARNING, sorted, once each. */
  readonly failing: ReadonlyArray<string>
  readonly counts: { readonly success: number; readonly failure: number; readonly warning: number }
}

/** One expected failure: the checks that fail and why. */
export interface Expectation {
  readonly checks: ReadonlyArray<string>
  readonly reason: string
}

/** scenario → expectation, for one run (`all` or `requirements-<revision>`). */
export type Expectations = Readonly<Record<string, Expectation>>

/** An expectations file: `{ "<run>": { "<scenario>": { checks, reason } } }`; keys starting with `//` are comments. */
export const readExpectations = (file: string, run: string): Expectations => {
  const doc = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>
  const entries = (doc[run] ?? {}) as Record<string, Expectation>
  return Object.fromEntries(Object.entries(entries).filter(([k]) => !k.startsWith("//")))
}

/** `auth/iss-normalized-2026-12-01T11-18-08-618Z` → `auth/iss-normalized`. */
export const scenarioOfDir = (relative: string): string => relative.replace(/-\d{4}-\d\d-\d\dT[\d-]+Z$/, "")

/** What scripts/conformance-client.mjs prints on stderr when mcpctl exited with a code the scenario does not expect. */
export const EXIT_MARKER = "conformance-client: unexpected exit code"

/**
 * The failing id a scenario gets when its client exited unexpectedly: `--suite` runs judge by
 * checks alone, so a scenario whose checks pass while mcpctl failed would otherwise pass.
 */
export const CLIENT_EXIT_CHECK = "client-exit-code"

/** Whether a scenario's stderr.txt (the client's stderr) says mcpctl exited unexpectedly. */
export const exitedUnexpectedly = (stderr: string): boolean => stderr.includes(EXIT_MARKER)

const readOr = (file: string, fallback: string): string => {
  try {
    return readFileSync(file, "utf8")
  } catch {
    return fallback
  }
}

/** Every scenario's checks.json under `dir` (the suite nests `auth/...` names into folders). */
export const readResults = (dir: string): Map<string, ScenarioResult> => {
  const results = new Map<string, ScenarioResult>()
  let files: Array<string> = []
  try {
    files = (readdirSync(dir, { recursive: true }) as Array<string>).filter((f) => f.endsWith("checks.json"))
  } catch {
    return results
  }
  for (const f of files) {
    const checks = JSON.parse(readFileSync(join(dir, f), "utf8")) as Array<{ id: string; status: string }>
    const bad = checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING")
    const exit = exitedUnexpectedly(readOr(join(dir, f.replace(/checks\.json$/, "stderr.txt")), "")) ? [CLIENT_EXIT_CHECK] : []
    results.set(scenarioOfDir(f.replace(/[/\\]checks\.json$/, "")), {
      scenario: scenarioOfDir(f.replace(/[/\\]checks\.json$/, "")),
      failing: [...new Set([...bad.map((c) => c.id), ...exit])].sort(),
      counts: {
        success: checks.filter((c) => c.status === "SUCCESS").length,
        failure: checks.filter((c) => c.status === "FAILURE").length,
        warning: checks.filter((c) => c.status === "WARNING").length
      }
    })
  }
  return results
}

/** A scenario of `conformance list`, with the spec versions it covers (`extension` for an extension's). */
export interface ListedScenario {
  readonly name: string
  readonly versions: ReadonlyArray<string>
}

/**
 * The client scenarios of `conformance list` (0.2): the lines under "Client scenarios" up to the
 * next blank line, with the spec versions a scenario covers when the line has them
 * (`  - initialize [2025-06-18,2025-11-25]`).
 */
export const listedClientScenarios = (output: string): Array<ListedScenario> => {
  const start = output.indexOf("Client scenarios")
  if (start < 0) return []
  const section = output.slice(start).split(/\n\s*\n/)[0]!
  return [...section.matchAll(/^\s+-\s+(\S+)(?:\s+\[([^\]]*)\])?$/gm)].map((m) => ({
    name: m[1]!,
    versions: m[2] === undefined ? [] : m[2].split(",")
  }))
}

/**
 * The client scenarios `conformance list --requirements REV` says a `--requirements REV` run
 * runs: the required ones, then the ones it runs without scoring (`  - auth/dpop [client]`),
 * in the runner's own order.
 */
export const requiredClientScenarios = (output: string): Array<string> => {
  const notScored = output.indexOf("never scored")
  const unscored = notScored < 0 ? [] : [...output.slice(notScored).matchAll(/^\s+-\s+(\S+)\s+\[client\]$/gm)].map((m) => m[1]!)
  return [...listedClientScenarios(notScored < 0 ? output : output.slice(0, notScored)).map((s) => s.name), ...unscored]
}

/** The newest spec revision: what `--requirements` runs every scenario at. */
export const NEWEST_REVISION = "2026-07-28"

/**
 * The wire version `--suite all` runs a scenario at: the newest revision for one introduced in
 * it, 2025-11-25 for the rest, extensions included (the runner's rule; pure).
 */
export const suiteWire = (scenario: ListedScenario): string =>
  scenario.versions[0] === NEWEST_REVISION ? NEWEST_REVISION : "2025-11-25"

/** One runner process: a scenario at a wire version, and the runner's arguments for it. */
export interface Job {
  readonly key: string
  readonly scenario: string
  readonly args: ReadonlyArray<string>
}

/** The jobs of the two runs, and which job gives each run's result for each of its scenarios. */
export interface Plan {
  readonly jobs: ReadonlyArray<Job>
  /** run name → its scenarios, in order, each with the key of its job. */
  readonly runs: ReadonlyMap<string, ReadonlyArray<{ readonly scenario: string; readonly job: string }>>
}

/**
 * The runner processes for `--suite all` and `--requirements NEWEST` scenario by scenario (pure).
 * A scenario both runs put on the same wire (one introduced in the newest revision) is one job
 * whose result counts in both: its two runs would be the same invocation of the same fixture.
 * `--requirements` is `--spec-version REV --force` for each of its scenarios.
 */
export const planJobs = (all: ReadonlyArray<ListedScenario>, required: ReadonlyArray<string>): Plan => {
  const jobs = new Map<string, Job>()
  const add = (scenario: string, wire: string, args: ReadonlyArray<string>) => {
    const key = `${scenario}@${wire}`
    if (!jobs.has(key)) jobs.set(key, { key, scenario, args: ["--scenario", scenario, ...args] })
    return { scenario, job: key }
  }
  const allRun = all.map((s) => add(s.name, suiteWire(s), []))
  const requiredRun = required.map((s) => add(s, NEWEST_REVISION, ["--spec-version", NEWEST_REVISION, "--force"]))
  return { jobs: [...jobs.values()], runs: new Map([["all", allRun], [`requirements-${NEWEST_REVISION}`, requiredRun]]) }
}

/** Scenario names from the suite's summary lines (`✓ name: 3 passed, 0 failed`). */
export const summaryScenarios = (output: string): Array<string> =>
  [...output.matchAll(/^[✓✗] (\S+): \d+ passed, \d+ failed/gm)].map((m) => m[1]!)

export interface Verdict {
  readonly passed: ReadonlyArray<string>
  /** Failing exactly within their entries (pending or suite bug). */
  readonly expected: ReadonlyArray<string>
  /** Scenarios with failing checks no entry names (or no results at all). */
  readonly unexpected: ReadonlyArray<{ readonly scenario: string; readonly checks: ReadonlyArray<string> }>
  /** Entries naming checks that no longer fail: remove them, so the lists only shrink. */
  readonly stale: ReadonlyArray<{ readonly scenario: string; readonly checks: ReadonlyArray<string> }>
}

/**
 * Judges one run. A scenario passes with no failing check; a failing check is excused when the
 * pending list or the suite-bug baseline names it for that scenario; an entry whose checks do not
 * all fail is stale. `scenarios` lists what ran: one without results counts as unexpected.
 */
export const judge = (
  scenarios: ReadonlyArray<string>,
  results: ReadonlyMap<string, ScenarioResult>,
  ...lists: ReadonlyArray<Expectations>
): Verdict => {
  const passed: Array<string> = []
  const expected: Array<string> = []
  const unexpected: Array<{ scenario: string; checks: Array<string> }> = []
  const stale: Array<{ scenario: string; checks: Array<string> }> = []
  for (const scenario of scenarios) {
    const result = results.get(scenario)
    const excused = new Set(lists.flatMap((l) => l[scenario]?.checks ?? []))
    if (result === undefined) {
      unexpected.push({ scenario, checks: ["(no results: the scenario did not run)"] })
      continue
    }
    const notExcused = result.failing.filter((c) => !excused.has(c))
    const notFailing = [...excused].filter((c) => !result.failing.includes(c))
    if (notExcused.length > 0) unexpected.push({ scenario, checks: notExcused })
    if (notFailing.length > 0) stale.push({ scenario, checks: notFailing })
    if (result.failing.length === 0) passed.push(scenario)
    else if (notExcused.length === 0) expected.push(scenario)
  }
  // Entries for scenarios the suite no longer runs are stale too.
  for (const l of lists) {
    for (const scenario of Object.keys(l)) {
      if (!scenarios.includes(scenario)) stale.push({ scenario, checks: [...l[scenario]!.checks] })
    }
  }
  return { passed, expected, unexpected, stale }
}
