/**
 * The protocol's server suite (`conformance-next server`) through `mcpctl serve --http` in front
 * of the reference server, compared scenario by scenario with the same suite run against that
 * server directly. A scenario that passes directly and fails through serve fails this test,
 * unless conformance/serve-losses.json names its failing checks for that run, with the reason.
 * An entry whose checks pass now fails the test too (remove it), so the list only shrinks.
 *
 * Runs: `--suite all` and `--requirements 2026-07-28`, each with serve's own names and with
 * `--names upstream` (the server's names, as a drop-in proxy). With serve's own names the
 * harness's proxy maps `mcp__ref__<tool>` and `ref__<prompt>` to the server's names and back
 * (conformanceNames.ts), so the suite finds its tools. All four run by default (the serve's-names
 * pair adds ~40 s on an idle 2-core machine); CONFORMANCE_SERVE=upstream runs only the two
 * `--names upstream` runs.
 */
import { afterAll, describe, expect, it } from "@effect/vitest"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { judge, readExpectations } from "./conformanceResults.js"
import { passing, runServerSuite, type Running, startReference, startServe } from "./conformanceServe.js"
import { repoRoot, slow, workspace } from "./support.js"

const lossesFile = join(repoRoot, "conformance/serve-losses.json")
const outDir = mkdtempSync(join(tmpdir(), "mcpctl-conformance-serve-"))
const ws = workspace()
const started: Array<Running> = []
afterAll(() => {
  for (const r of started) r.stop()
  rmSync(outDir, { recursive: true, force: true })
  ws.cleanup()
})

interface Run {
  readonly name: string
  readonly select: ReadonlyArray<string>
  readonly serveFlags: ReadonlyArray<string>
  /** The proxy maps serve's own names to the server's for the suite. */
  readonly mapNames: boolean
}

const SELECTS = { all: ["--suite", "all"], "requirements-2026-07-28": ["--requirements", "2026-07-28"] } as const
const RUNS: ReadonlyArray<Run> = (Object.entries(SELECTS) as Array<[string, ReadonlyArray<string>]>).flatMap(([name, select]) => [
  { name: `${name}-names-upstream`, select, serveFlags: ["--names", "upstream"], mapNames: false },
  { name, select, serveFlags: [], mapNames: true }
])
const selected = process.env.CONFORMANCE_SERVE === "upstream" ? RUNS.filter((r) => r.serveFlags.length > 0) : RUNS

const reference = startReference().then((r) => (started.push(r), r))
// The direct run of each selection once, shared by both naming modes.
const direct = new Map<string, ReturnType<typeof runServerSuite>>()
const directRun = (select: ReadonlyArray<string>) => {
  const key = select.join(" ")
  if (!direct.has(key)) direct.set(key, reference.then((r) => runServerSuite(r.url, select, join(outDir, `direct-${select.join("-")}`))))
  return direct.get(key)!
}

describe("MCP conformance server suite through mcpctl serve", () => {
  for (const run of selected) {
    it(`server ${run.select.join(" ")} through serve ${run.serveFlags.join(" ") || "(serve's names, mapped by the proxy)"}: no scenario lost that is not listed`, async () => {
      const ref = await reference
      const before = await directRun(run.select)
      const serve = await startServe(ref.url, ws, run.serveFlags, { mapNames: run.mapNames })
      started.push(serve)
      const through = await runServerSuite(serve.url, run.select, join(outDir, run.name))
      serve.stop()
      const directPass = passing(before.scenarios, before.results)
      const throughPass = passing(through.scenarios, through.results)
      const verdict = judge(directPass, through.results, readExpectations(lossesFile, run.name))
      console.log(
        `conformance server ${run.name}: direct ${directPass.length}/${before.scenarios.length}, ` +
          `through serve ${throughPass.length}/${through.scenarios.length}; lost and listed: ${verdict.expected.length}\n` +
          directPass.map((s) =>
            `${verdict.passed.includes(s) ? "PASS" : verdict.expected.includes(s) ? "LISTED" : "LOST"} ${s}` +
            (through.results.get(s)?.failing.length ? ` (${through.results.get(s)!.failing.join(", ")})` : "")
          ).join("\n")
      )
      expect(before.scenarios.length, "the runner listed its scenarios").toBeGreaterThan(30)
      expect(verdict.unexpected, "scenarios passing directly that fail through serve, not in serve-losses.json").toEqual([])
      expect(verdict.stale.filter((s) => directPass.includes(s.scenario) || !before.scenarios.includes(s.scenario)), "listed checks that pass now (remove them)").toEqual([])
    }, slow(600_000))
  }
})
