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

// undici (1 MB) is needed only when a proxy variable is set (core transport/Proxy.ts imports it
// lazily): it gets its own file next to the bundle, required on first use, so a cold start
// neither reads nor compiles it.
const undiciApart = {
  name: "undici-apart",
  setup(b) {
    b.onResolve({ filter: /^undici$/ }, () => ({ path: "./undici.cjs", external: true }))
  }
}
await build({
  stdin: { contents: `module.exports = require("undici")`, resolveDir: here, loader: "js" },
  outfile: join(here, "bin/undici.cjs"),
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  legalComments: "none",
  logLevel: "warning"
})

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
  plugins: [undiciApart],
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
