// @ts-nocheck
// Builds the workspace package in the current directory into dist/ (`npm run build -w <package>`):
// a clean emit of ESM JavaScript and .d.ts files from src/ by tsconfig.build.json, then each folder
// named on the command line copied from src/ as it is (fixture servers that are not TypeScript).
//
// dist/ is removed first so a module that was moved or deleted never ships from an old build.
// `--noCheck` emits without type-checking (4 s instead of 13 s for core; same output):
// `npm run typecheck` checks every package, and the package test type-checks a consumer against
// these .d.ts files.
import { execFileSync } from "node:child_process"
import { cpSync, existsSync, readFileSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"

const dir = process.cwd()
const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))

// A workspace dependency is resolved from its dist/ .d.ts files (no "@mcpctl/source" condition in
// tsconfig.build.json). Without them --noCheck would emit `any` silently where its types are used.
for (const name of Object.keys(pkg.dependencies ?? {}).filter((name) => name.startsWith("@mcpctl/"))) {
  const types = join(dir, "node_modules", name, "dist", "index.d.ts")
  const hoisted = join(dir, "..", "..", "node_modules", name, "dist", "index.d.ts")
  if (!existsSync(types) && !existsSync(hoisted)) {
    console.error(`${pkg.name}: build ${name} first (npm run build from the repository root builds all in order)`)
    process.exit(1)
  }
}

rmSync(join(dir, "dist"), { recursive: true, force: true })
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc")
execFileSync(process.execPath, [tsc, "-p", join(dir, "tsconfig.build.json"), "--noCheck"], { stdio: "inherit" })
for (const folder of process.argv.slice(2)) {
  cpSync(join(dir, "src", folder), join(dir, "dist", folder), { recursive: true })
}
