// @ts-nocheck
// Bundles the CLI into one CommonJS file so a cold start loads only the code a command uses
// (the @effect/* indexes pull in cluster, rpc and sql; a bundle tree-shakes them away), then
// records V8's code cache for it: compiling the 2 MB bundle was the largest single cost of a cold
// start (~110 ms), and Node 20 has no module.enableCompileCache. bin/mcpctl.mjs loads both.
import { build } from "esbuild"
import { execFileSync } from "node:child_process"
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
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

// The SDK's server side (@modelcontextprotocol/server, /node and its HTTP framework, ~650 KB)
// serves `serve` only: it gets its own file too, required when `serve` loads the gateway, so
// other commands neither read nor compile it. That file has its own copy of what it shares with
// the client (the SDK's core, zod, tree-shaken to what the server uses): handing the main
// bundle's modules over would keep all of zod in the main bundle (~800 KB instead of ~230 KB).
// Nothing crosses between the copies: the gateway builds its ProtocolErrors from the server
// package, and answers upstream failures with mcpctl's own tagged errors.
const serverModules = ["@modelcontextprotocol/server", "@modelcontextprotocol/server/stdio", "@modelcontextprotocol/node"]
const serverApart = {
  name: "server-apart",
  setup(b) {
    const names = new RegExp(`^(${serverModules.map((n) => n.replace(/[/.]/g, "\\$&")).join("|")})$`)
    b.onResolve({ filter: names }, (args) => ({ path: args.path, namespace: "server-apart" }))
    b.onLoad({ filter: /.*/, namespace: "server-apart" }, (args) => ({
      resolveDir: here,
      loader: "js",
      contents: `module.exports = require("./server.cjs")[${JSON.stringify(args.path)}]`
    }))
    b.onResolve({ filter: /^\.\/server\.cjs$/ }, () => ({ path: "./server.cjs", external: true }))
  }
}
await build({
  stdin: {
    contents: `module.exports = {${serverModules.map((m) => `${JSON.stringify(m)}: require(${JSON.stringify(m)})`).join(", ")}}`,
    resolveDir: here,
    loader: "js"
  },
  outfile: join(here, "bin/server.cjs"),
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  // The packages' ESM builds, as the main bundle uses them (their CommonJS builds are bigger).
  conditions: ["import"],
  mainFields: ["module", "main"],
  minify: true,
  legalComments: "none",
  logLevel: "warning"
})

// Ajv (twice: the schema engine's, and the copy inside the SDK client's default validator, which
// mcpctl never constructs: handshake.ts hands every Client its own) and re2js are ~600 KB whose
// top level ran at every start. They get a file of their own, required on first use: the main
// bundle sees each of those modules as an object of getters that load the file when read (a
// `tools` run with no output schema never does).
function sdkChunk(name) {
  const dist = dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/client"))
  const file = readdirSync(dist).find((f) => f.startsWith(`${name}-`) && f.endsWith(".mjs"))
  if (!file) throw new Error(`no ${name}-*.mjs in ${dist}: the SDK's layout changed, see build.mjs`)
  return join(dist, file)
}
const lazyDeps = {
  ajv: "ajv",
  "ajv/dist/2019.js": "ajv/dist/2019.js",
  "ajv/dist/2020.js": "ajv/dist/2020.js",
  "ajv-formats": "ajv-formats",
  re2js: "re2js",
  sdkAjvProvider: sdkChunk("ajvProvider")
}
const lazyExports = {
  ajv: ["Ajv"],
  "ajv/dist/2019.js": ["Ajv2019"],
  "ajv/dist/2020.js": ["Ajv2020"],
  "ajv-formats": ["default"],
  re2js: ["RE2JS"],
  sdkAjvProvider: ["n", "r", "t"]
}
await build({
  stdin: {
    contents: `module.exports = {${Object.entries(lazyDeps).map(([k, m]) => `${JSON.stringify(k)}: require(${JSON.stringify(m)})`).join(", ")}}`,
    resolveDir: here,
    loader: "js"
  },
  outfile: join(here, "bin/schema-deps.cjs"),
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  mainFields: ["module", "main"],
  minify: true,
  legalComments: "none",
  logLevel: "warning"
})
const lazyApart = {
  name: "lazy-apart",
  setup(b) {
    const engine = /schemaEngine[\\/]engine\.mjs$/
    const names = /^(ajv|ajv\/dist\/2019\.js|ajv\/dist\/2020\.js|ajv-formats|re2js)$/
    b.onResolve({ filter: names }, (args) => (engine.test(args.importer) ? { path: args.path, namespace: "lazy-apart" } : undefined))
    b.onResolve({ filter: /^\.\/ajvProvider-[\w-]+\.mjs$/ }, (args) =>
      /@modelcontextprotocol[\\/]client[\\/]dist[\\/]shimsNode\.mjs$/.test(args.importer) ? { path: "sdkAjvProvider", namespace: "lazy-apart" } : undefined)
    b.onLoad({ filter: /.*/, namespace: "lazy-apart" }, (args) => ({
      resolveDir: here,
      loader: "js",
      contents: `let m
const load = () => (m ??= require("./schema-deps.cjs")[${JSON.stringify(args.path)}])
module.exports = { ${lazyExports[args.path].map((e) => `get ${e}() { return load().${e} }`).join(", ")} }`
    }))
    b.onResolve({ filter: /^\.\/schema-deps\.cjs$/ }, () => ({ path: "./schema-deps.cjs", external: true }))
  }
}

// `serve --metrics` (core `internal/metricsExport.ts`: OpenTelemetry's metrics SDK and its
// Prometheus exporter, ~200 KB) gets its own file too, required only when the flag is given.
const metricsApart = {
  name: "metrics-apart",
  setup(b) {
    b.onResolve({ filter: /internal\/metricsExport\.js$/ }, () => ({ path: "./metrics.cjs", external: true }))
  }
}
await build({
  entryPoints: [join(here, "../../packages/core/src/internal/metricsExport.ts")],
  outfile: join(here, "bin/metrics.cjs"),
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  mainFields: ["module", "main"],
  minify: true,
  legalComments: "none",
  logLevel: "warning"
})

// Node's own modules that a run may never touch (a `tools` run on stdio servers starts no HTTP
// server, no worker, no readline; the raw SDK client loads none of them): the bundle's top level
// required all of them, ~40 internal modules to compile at every start. Each is a module of
// getters, one per export (names read here, from this Node), that requires it on first read.
const lazyBuiltins = ["http", "https", "worker_threads", "readline", "readline/promises", "perf_hooks", "crypto", "os", "vm"]
const builtinApart = {
  name: "builtin-apart",
  setup(b) {
    const names = new RegExp(`^(node:)?(${lazyBuiltins.map((n) => n.replace("/", "\\/")).join("|")})$`)
    b.onResolve({ filter: names }, (args) =>
      args.namespace === "builtin-apart"
        ? { path: args.path, external: true } // the real module, from inside its getters
        : { path: args.path.replace(/^node:/, ""), namespace: "builtin-apart" })
    b.onLoad({ filter: /.*/, namespace: "builtin-apart" }, (args) => {
      const keys = Object.keys(createRequire(import.meta.url)(`node:${args.path}`)).filter((k) => /^[A-Za-z_$][\w$]*$/.test(k))
      return {
        loader: "js",
        contents: `let m
const load = () => (m ??= require("node:${args.path}"))
module.exports = { ${keys.map((k) => `get ${k}() { return load().${k} }`).join(", ")} }`
      }
    })
  }
}

// The output-schema check's worker thread (core `internal/validation/workers.ts` looks for it
// beside the bundle): its own file with the schema engine (Ajv, formats, re2js) inside.
await build({
  entryPoints: [join(here, "../../packages/core/src/internal/schemaEngine/worker.mjs")],
  outfile: join(here, "bin/schema-worker.cjs"),
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  mainFields: ["module", "main"],
  minify: true,
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
  // Minified (1.7 MB instead of 3.6 MB to read at every start; the cache below is V8's, not the
  // text's), with function and class names kept for stack traces; the source map is beside it.
  minify: true,
  keepNames: true,
  legalComments: "none",
  // Native code stays outside the bundle; `import("sharp")` becomes a lazy require.
  external: ["sharp"],
  supported: { "dynamic-import": false },
  plugins: [undiciApart, serverApart, lazyApart, builtinApart, metricsApart],
  // ESM entry points first: jsonc-parser's UMD "main" uses a dynamic require esbuild cannot follow.
  mainFields: ["module", "main"],
  // The workspace packages from their TypeScript sources, not a stale dist/.
  conditions: ["@mcpctl/source"],
  // `import.meta.url` is empty in CommonJS: core's validation workers look beside the bundle
  // (`__dirname`) first.
  logOverride: { "empty-import-meta": "silent" },
  logLevel: "warning"
})

// Shell completion (`mcpctl __complete LINE`, at every Tab) has a small file of its own, which
// bin/mcpctl.mjs loads instead of the bundle: the completer, the settings parser and the command
// tree as JSON, read here from the commands themselves (a throwaway bundle prints it), so a
// completion neither compiles the CLI nor starts Effect's runtime.
{
  const scratch = mkdtempSync(join(tmpdir(), "mcpctl-tree-"))
  try {
    const dump = join(scratch, "tree.cjs")
    await build({
      stdin: {
        contents: `import { mcpctl } from "./src/Commands.ts"
import { treeOf } from "./src/completion/Tree.ts"
process.stdout.write(JSON.stringify(treeOf(mcpctl)))`,
        resolveDir: here,
        loader: "ts"
      },
      outfile: dump,
      bundle: true,
      platform: "node",
      format: "cjs",
      target: "node20",
      external: ["sharp"],
      mainFields: ["module", "main"],
      conditions: ["@mcpctl/source"],
      logOverride: { "empty-import-meta": "silent" },
      logLevel: "warning"
    })
    const tree = execFileSync(process.execPath, [dump], { encoding: "utf8", timeout: 120_000 })
    JSON.parse(tree)
    await build({
      stdin: { contents: `require("./src/completion/Entry.ts").main(${tree})`, resolveDir: here, loader: "js" },
      outfile: join(here, "bin/complete.cjs"),
      bundle: true,
      platform: "node",
      format: "cjs",
      target: "node20",
      minify: true,
      legalComments: "none",
      mainFields: ["module", "main"],
      conditions: ["@mcpctl/source"],
      logLevel: "warning"
    })
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

// A fresh cache for the new bundle, recorded at the exit of a typical command (`tools --json` on
// one tiny stdio server, in an empty home and project), so what a command compiles lazily (CLI
// parsing, settings, the pool, the SDK client's handshake, rendering) is in the cache too, not
// only the bundle's top level (`--version`): the rest of a cold start's compile work.
const cache = join(here, "bin/mcpctl.cjs.cache")
rmSync(cache, { force: true })
const scratch = mkdtempSync(join(tmpdir(), "mcpctl-build-"))
try {
  const server = `const rl = require("node:readline").createInterface({ input: process.stdin })
rl.on("line", (line) => {
  const m = JSON.parse(line)
  if (m.id === undefined) return
  const result = m.method === "initialize"
    ? { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "cache", version: "1" } }
    : m.method === "tools/list" ? { tools: [{ name: "echo", inputSchema: { type: "object" } }] } : {}
  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, result }) + "\\n")
})`
  const settings = join(scratch, "settings.json")
  writeFileSync(settings, JSON.stringify({ mcpServers: { cache: { command: process.execPath, args: ["-e", server] } } }))
  const record = (args) =>
    execFileSync(process.execPath, [join(here, "bin/mcpctl.mjs"), ...args], {
      cwd: scratch,
      env: { ...process.env, HOME: scratch, MCPCTL_HOME: join(scratch, "home"), MCPCTL_WRITE_CODE_CACHE: cache },
      stdio: "ignore",
      timeout: 60_000
    })
  try {
    record(["tools", "--json", "--config", settings])
  } catch {
    // Where the command cannot run (no child processes in a sandbox, say), the top level's cache.
    record(["--version"])
  }
} finally {
  rmSync(scratch, { recursive: true, force: true })
}
