// Bundles the CLI into one ESM file so a cold start loads only the code a command uses
// (the @effect/* indexes pull in cluster, rpc and sql; a bundle tree-shakes them away).
import { build } from "esbuild"
import { fileURLToPath } from "node:url"
import { dirname, join } from "node:path"

const here = dirname(fileURLToPath(import.meta.url))

await build({
  entryPoints: [join(here, "src/main.ts")],
  outfile: join(here, "bin/mcpctl.js"),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: "linked",
  legalComments: "none",
  // CommonJS dependencies bundled into ESM need a require().
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  // ESM entry points first: jsonc-parser's UMD "main" uses a dynamic require esbuild cannot follow.
  mainFields: ["module", "main"],
  logLevel: "warning"
})
