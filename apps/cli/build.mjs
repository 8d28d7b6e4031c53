// Bundles the CLI into one CommonJS file so a cold start loads only the code a command uses
// (the @effect/* indexes pull in cluster, rpc and sql; a bundle tree-shakes them away), then
// records V8's code cache for it: compiling the 2 MB bundle was the largest single cost of a cold
// start (~110 ms), and Node 20 has no module.enableCompileCache. bin/mcpctl.mjs loads both.
import { build } from "esbuild"
import { execFileSync } from "node:child_process"
import { rmSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const here = dirname(fileURLToPath(import.meta.url))

await build({
  entryPoints: [join(here, "src/main.ts")],
  outfile: join(here, "bin/mcpctl.cjs"),
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  sourcemap: "linked",
  legalComments: "none",
  // Native code stays outside the bundle; `import("sharp")` becomes a lazy require.
  external: ["sharp"],
  supported: { "dynamic-import": false },
  // ESM entry points first: jsonc-parser's UMD "main" uses a dynamic require esbuild cannot follow.
  mainFields: ["module", "main"],
  // The workspace packages from their TypeScript sources, not a stale dist/.
  conditions: ["@mcpctl/source"],
  logLevel: "warning"
})

// A fresh cache for the new bundle: load it once (`--version` runs no command) and save V8's cache.
const cache = join(here, "bin/mcpctl.cjs.cache")
rmSync(cache, { force: true })
execFileSync(process.execPath, [join(here, "bin/mcpctl.mjs"), "--version"], {
  env: { ...process.env, MCPCTL_WRITE_CODE_CACHE: cache },
  stdio: "ignore"
})
