#!/usr/bin/env node
// @ts-nocheck
// Entry point of the bundled CLI (`npm run build`, run by `npm ci` via `prepare`). It compiles the
// bundle with the V8 code cache recorded at build time, so a cold start skips most of the parse
// and compile work; a cache from another Node version is rejected by V8 and simply not used.
import { readFileSync, writeFileSync } from "node:fs"
import Module, { createRequire } from "node:module"
import { dirname } from "node:path"
import { fileURLToPath } from "node:url"
import { Script } from "node:vm"

// The commands a running `mcpctl daemon` answers from its warm servers (docs/CLI.md, "Daemon"),
// unless `--no-daemon` says otherwise. A person at a terminal (stdin and stderr, no --json) may be
// asked something (a permission, an elicitation form): those commands always run in-process.
const RELAYED = new Set(["servers", "tools", "call", "task", "resources", "read", "prompts", "prompt"])
const args = process.argv.slice(2)
// `mcpctl --version` alone answers from package.json without loading the bundle: loading it (read,
// code cache, top-level init) costs ~5× `node -e 0`. The same text @effect/cli prints for it
// (`cli.test.ts` compares the two), and the same version as Host.ts's VERSION (also tested).
if (args.length === 1 && (args[0] === "--version" || args[0] === "-v")) {
  process.stdout.write(JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).version + "\n\n")
} else main()

async function main() {
  const end = args.indexOf("--") < 0 ? args.length : args.indexOf("--")
  const noDaemon = args.slice(0, end).indexOf("--no-daemon")
  if (noDaemon >= 0) process.argv.splice(2 + noDaemon, 1)
  const terminal = process.stdin.isTTY && process.stderr.isTTY && !args.slice(0, end).includes("--json")
  const warm = noDaemon < 0 && !terminal && RELAYED.has(args[0]) && !process.env.MCPCTL_DAEMON_ROLE &&
    !args.slice(0, end).some((a) => a === "--help" || a === "-h" || a === "--auth" || a === "--wizard")
  // `mcpctl __complete LINE` (a shell's Tab, docs/CLI.md "Shell completion") has a small file of
  // its own: it reads settings and the catalogue cache, and never needs the bundle.
  if (args[0] === "__complete") createRequire(import.meta.url)("./complete.cjs")
  else if (!warm || !(await (await import("./relay.mjs")).relay(args))) loadBundle()
}

function loadBundle() {
  const file = fileURLToPath(new URL("./mcpctl.cjs", import.meta.url))
  const cacheFile = file + ".cache"
  let cachedData
  try {
    cachedData = readFileSync(cacheFile)
  } catch {
    cachedData = undefined
  }
  const script = new Script(Module.wrap(readFileSync(file, "utf8")), { filename: file, cachedData })
  const module = { exports: {} }
  script.runInThisContext().call(module.exports, module.exports, createRequire(file), module, file, dirname(file))
  // The build asks for the cache at the exit of a command it runs: everything that command
  // compiled, lazily too, is in it.
  if (process.env.MCPCTL_WRITE_CODE_CACHE) process.on("exit", () => writeFileSync(process.env.MCPCTL_WRITE_CODE_CACHE, script.createCachedData()))
}
