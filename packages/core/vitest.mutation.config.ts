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

type Exports = Record<string, Record<string, string> | undefined>
// Read once per package: resolveId runs for every import of every module a test loads.
const exportsOf = new Map<string, Exports>()
const readExports = (dir: string): Exports => {
  let exports = exportsOf.get(dir)
  if (exports === undefined) {
    exports = JSON.parse(readFileSync(path.join(root, dir, "package.json"), "utf8")).exports as Exports
    exportsOf.set(dir, exports)
  }
  return exports
}

const inRepoSources = (): Plugin => ({
  name: "mcpctl-in-repo-sources",
  enforce: "pre",
  resolveId(source) {
    const match = /^(@mcpctl\/[^/]+)(\/.*)?$/.exec(source)
    const dir = match && packageDirs[match[1]!]
    if (!dir) return null
    const exports = readExports(dir)
    const sub = `.${match![2] ?? ""}`
    // `./internal/*` is a pattern entry (the repository's own imports of internal modules).
    const target = exports[sub]?.["@mcpctl/source"] ??
      (sub.startsWith("./internal/") ? exports["./internal/*"]?.["@mcpctl/source"]?.replace("*", sub.slice("./internal/".length)) : undefined)
    return target ? path.join(root, dir, target) : null
  }
})

/**
 * The test files to load, comma-separated in MUTATION_TESTS: stryker.config.mjs sets them from
 * its groups (a group's own tests, or all groups' for a full run), unless given. Each mutant
 * re-runs only the tests that cover it, but every file listed is loaded for the dry run.
 */
const only = process.env.MUTATION_TESTS?.split(",").map((f) => f.trim()).filter((f) => f !== "") ?? []
if (only.length === 0) throw new Error("MUTATION_TESTS is empty: run through `npm run mutation` (stryker.config.mjs sets it)")

export default defineConfig({
  plugins: [inRepoSources()],
  resolve: { conditions: ["@mcpctl/source"] },
  ssr: { resolve: { conditions: ["@mcpctl/source"], externalConditions: ["@mcpctl/source"] } },
  test: {
    name: "mutation",
    root: here,
    include: only,
    // Stryker switches mutants at run time (static mutants are off, see stryker.config.mjs), so
    // a test file need not load the modules afresh for every mutant.
    isolate: false,
    testTimeout: 30_000
  }
})
