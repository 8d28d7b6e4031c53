// @ts-check
/**
 * `npm run mutation`: Stryker mutates the policy modules (names, permissions, settings load and
 * merge, the resilience policy, output shaping, redaction), the tool registry and the request
 * driver, and runs their fast unit tests
 * (packages/core/vitest.mutation.config.ts) against every mutant. Not part of `npm test`; reports go to reports/.
 *
 * `MUTATION_GROUP=<group> npm run mutation` mutates one group below and runs only that group's
 * tests (each mutant re-runs only the tests that cover it, and only the files listed here are
 * loaded), with its own report and incremental file.
 */

/** @type {Record<string, { mutate: string[], tests: string[] }>} */
const groups = {
  naming: {
    mutate: ["packages/core/src/internal/Naming.ts"],
    tests: ["test/Naming.test.ts", "test/Naming.fullName.test.ts", "test/ToolRegistry.names.test.ts"]
  },
  permission: {
    mutate: [
      "packages/core/src/permission/Permission.ts",
      "packages/core/src/internal/permission/rules.ts",
      "packages/core/src/internal/permission/prompt.ts",
      "packages/core/src/internal/permission/permission.ts",
      "packages/core/src/internal/permission/NameFold.ts"
    ],
    tests: ["test/Permission.test.ts", "test/Permission.ports.test.ts", "test/NameFold.test.ts", "test/ProjectAllow.test.ts", "test/ToolRegistry.permission.test.ts"]
  },
  // The pool's request driver with its one classification of failures.
  driver: {
    mutate: [
      "packages/core/src/internal/pool/request.ts",
      "packages/core/src/internal/pool/RequestErrors.ts",
      "packages/core/src/internal/transport/ErrorText.ts"
    ],
    tests: [
      "test/RequestDriver.test.ts",
      "test/RequestDriverSignals.test.ts",
      "test/RequestDriver.reuse.test.ts",
      "test/RequestDriver.failures.test.ts",
      "test/FailureKinds.test.ts",
      "test/RequestErrors.test.ts"
    ]
  },
  // The catalogue's wiring: the public tag and its listing and calling halves.
  registry: {
    mutate: [
      "packages/core/src/catalog/ToolRegistry.ts",
      "packages/core/src/internal/catalog/toolListing.ts",
      "packages/core/src/internal/catalog/toolCalling.ts",
      "packages/core/src/internal/catalog/tools.ts"
    ],
    tests: [
      "test/ToolRegistry.test.ts",
      "test/ToolRegistry.permission.test.ts",
      "test/ToolRegistry.names.test.ts",
      "test/ToolRegistry.tools.test.ts",
      "test/ToolRegistry.calls.test.ts",
      "test/ToolRegistry.pins.test.ts",
      "test/Resilience.test.ts",
      "test/ToolFilter.test.ts",
      "test/Search.test.ts",
      "test/Pagination.test.ts",
      "test/Elicitation.urls.test.ts",
      "test/TraceContext.test.ts"
    ]
  },
  policy: {
    mutate: [
      "packages/core/src/internal/config/SettingsLoad.ts",
      "packages/core/src/internal/pool/Resilience.ts",
      "packages/core/src/internal/content/Shape.ts",
      "packages/core/src/internal/config/Redact.ts"
    ],
    tests: [
      "test/SettingsLoad.test.ts",
      "test/McpConfig.test.ts",
      "test/ResiliencePolicy.test.ts",
      "test/Shape.test.ts",
      "test/Redact.test.ts"
    ]
  }
}

const groupName = process.env.MUTATION_GROUP
const group = groupName ? groups[groupName] : undefined
if (groupName && !group) throw new Error(`MUTATION_GROUP=${groupName}: not one of ${Object.keys(groups).join(", ")}`)
// The vitest config (in Stryker's test processes, which inherit this environment) reads the list.
process.env.MUTATION_TESTS ||= [...new Set((group ? [group] : Object.values(groups)).flatMap((g) => g.tests))].join(",")
const reportName = groupName ?? "mutation"

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  // Not `related`: the covering tests are known per mutant (perTest), and vitest would otherwise
  // walk the import graph of every listed test file again for each mutant.
  vitest: { configFile: "packages/core/vitest.mutation.config.ts", related: false },
  plugins: ["@stryker-mutator/vitest-runner"],
  mutate: group ? group.mutate : Object.values(groups).flatMap((g) => g.mutate),
  coverageAnalysis: "perTest",
  // Static mutants (module-level tables and constants: NameFold's look-alikes, the regexes) need
  // every test file reloaded per mutant, hours on this machine; they are left out and counted as
  // ignored. Without them the test files need no isolation (vitest.mutation.config.ts).
  ignoreStatic: true,
  // The machine is shared: two test processes at most.
  concurrency: 2,
  // Under that load the first, unmutated run of every covering test takes minutes.
  dryRunTimeoutMinutes: 30,
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: `reports/mutation/${reportName}.html` },
  jsonReporter: { fileName: `reports/mutation/${reportName}.json` },
  thresholds: { high: 85, low: 75, break: 75 },
  ignorePatterns: ["apps/cli/bin/*.cjs", "apps/cli/bin/*.cache", "apps/cli/bin/*.map", "bench/results*.json", "reports"],
  // Later runs re-test only mutants whose code or covering tests changed (delete the file for a
  // clean run; changes outside the mutated files and the test files are not seen).
  incremental: true,
  incrementalFile: `reports/stryker-incremental${groupName ? `-${groupName}` : ""}.json`,
  tempDirName: ".stryker-tmp",
  cleanTempDir: true
}
