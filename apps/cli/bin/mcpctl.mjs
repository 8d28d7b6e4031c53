#!/usr/bin/env node
// Entry point of the bundled CLI (`npm run build`, run by `npm ci` via `prepare`). It compiles the
// bundle with the V8 code cache recorded at build time, so a cold start skips most of the parse
// and compile work; a cache from another Node version is rejected by V8 and simply not used.
import { readFileSync, writeFileSync } from "node:fs"
import Module, { createRequire } from "node:module"
import { dirname } from "node:path"
import { fileURLToPath } from "node:url"
import { Script } from "node:vm"

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
