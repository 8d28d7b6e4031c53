// @ts-check
/**
 * `npm run mutation`: Stryker mutates the policy modules (names, permissions, settings load and
 * merge, the resilience policy, output shaping, redaction), the tool registry and the request
 * driver, and runs their fast unit tests
 * (packages/core/vitest.mutation.config.ts) against every mutant. Not part of `npm test`; reports go to reports/.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: "vitest",
  vitest: { configFile: "packages/core/vitest.mutation.config.ts" },
  plugins: ["@stryker-mutator/vitest-runner"],
  mutate: [
    "packages/core/src/internal/Naming.ts",
    "packages/core/src/permission/Permission.ts",
    "packages/core/src/internal/permission/NameFold.ts",
    "packages/core/src/internal/config/SettingsLoad.ts",
    "packages/core/src/internal/pool/Resilience.ts",
    "packages/core/src/internal/content/Shape.ts",
    "packages/core/src/internal/config/Redact.ts",
    // The catalogue's wiring (the public tag and its listing and calling halves) and the pool's
    // request driver with its one classification of failures, against in-process tests.
    "packages/core/src/catalog/ToolRegistry.ts",
    "packages/core/src/internal/catalog/toolListing.ts",
    "packages/core/src/internal/catalog/toolCalling.ts",
    "packages/core/src/internal/catalog/tools.ts",
    "packages/core/src/internal/pool/request.ts",
    "packages/core/src/internal/pool/RequestErrors.ts",
    "packages/core/src/internal/transport/ErrorText.ts"
  ],
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
  htmlReporter: { fileName: "reports/mutation/mutation.html" },
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  thresholds: { high: 85, low: 75, break: 75 },
  ignorePatterns: ["apps/cli/bin/*.cjs", "apps/cli/bin/*.cache", "apps/cli/bin/*.map", "bench/results*.json", "reports"],
  // Later runs re-test only mutants whose code or covering tests changed (delete the file for a
  // clean run; changes outside the mutated files and the test files are not seen).
  incremental: true,
  incrementalFile: "reports/stryker-incremental.json",
  tempDirName: ".stryker-tmp",
  cleanTempDir: true
}
