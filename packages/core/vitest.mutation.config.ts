/**
 * The vitest config of `npm run mutation` (Stryker's vitest runner needs one plain config, not the
 * workspace): only the fast unit tests of the policy modules Stryker mutates (see stryker.config.mjs).
 * It lives here, not beside vitest.workspace.ts, because vitest picks up a workspace file found
 * next to the config it is given, and would then run every project.
 *
 * Stryker runs in a sandbox copy of the repository whose node_modules is a symlink to this one's,
 * so `@mcpctl/core/<Module>` would resolve through the workspace link to the original, unmutated
 * sources. The plugin resolves every `@mcpctl/<package>[/<Module>]` through that package's
 * `@mcpctl/source` export relative to this file instead: in the sandbox, to the mutated copy.
 */
import { readFileSync } from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { defineConfig, type Plugin } from "vitest/config"

const here = path.dirname(fileURLToPath(import.meta.url))
const root = path.resolve(here, "../..")
const packageDirs: Record<string, string> = { "@mcpctl/core": "packages/core", "@mcpctl/testing": "packages/testing" }

const inRepoSources = (): Plugin => ({
  name: "mcpctl-in-repo-sources",
  enforce: "pre",
  resolveId(source) {
    const match = /^(@mcpctl\/[^/]+)(\/.*)?$/.exec(source)
    const dir = match && packageDirs[match[1]!]
    if (!dir) return null
    const exports = JSON.parse(readFileSync(path.join(root, dir, "package.json"), "utf8")).exports as Record<
      string,
      Record<string, string> | undefined
    >
    const sub = `.${match![2] ?? ""}`
    // `./internal/*` is a pattern entry (the repository's own imports of internal modules).
    const target = exports[sub]?.["@mcpctl/source"] ??
      (sub.startsWith("./internal/") ? exports["./internal/*"]?.["@mcpctl/source"]?.replace("*", sub.slice("./internal/".length)) : undefined)
    return target ? path.join(root, dir, target) : null
  }
})

export const mutationTests = [
  "test/Naming.test.ts",
  "test/Permission.test.ts",
  "test/NameFold.test.ts",
  "test/SettingsLoad.test.ts",
  "test/McpConfig.test.ts",
  "test/ResiliencePolicy.test.ts",
  "test/Shape.test.ts",
  "test/Redact.test.ts",
  "test/RequestDriver.test.ts",
  "test/RequestDriverSignals.test.ts",
  "test/FailureKinds.test.ts",
  "test/RequestDriver.failures.test.ts",
  "test/RequestErrors.test.ts",
  "test/ToolRegistry.test.ts",
  "test/ToolRegistry.permission.test.ts",
  "test/ToolRegistry.names.test.ts",
  "test/ToolRegistry.tools.test.ts",
  // In-process tests that go through the registry's listing and calling halves: filtered tools,
  // search, pagination, URL elicitation steps, the call's span. (Pins.test.ts also runs a real
  // server process, which times out under a loaded machine's mutation run.)
  "test/ToolFilter.test.ts",
  "test/Search.test.ts",
  "test/Pagination.test.ts",
  "test/Elicitation.urls.test.ts",
  "test/TraceContext.test.ts"
]

/**
 * `MUTATION_TESTS=test/A.test.ts,test/B.test.ts npx stryker run --mutate <files>` narrows the run
 * to a module's own tests: every mutant re-runs the test files that cover it, and on a loaded
 * machine loading a file costs more than its tests.
 */
const only = process.env.MUTATION_TESTS?.split(",").map((f) => f.trim()).filter((f) => f !== "")

export default defineConfig({
  plugins: [inRepoSources()],
  resolve: { conditions: ["@mcpctl/source"] },
  ssr: { resolve: { conditions: ["@mcpctl/source"], externalConditions: ["@mcpctl/source"] } },
  test: {
    name: "mutation",
    root: here,
    include: only && only.length > 0 ? only : mutationTests,
    // Stryker switches mutants at run time (static mutants are off, see stryker.config.mjs), so
    // a test file need not load the modules afresh for every mutant.
    isolate: false,
    testTimeout: 30_000
  }
})
