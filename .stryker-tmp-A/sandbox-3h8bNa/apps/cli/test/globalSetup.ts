/** The CLI tests run the bundled CLI: build it once before they start, so they never test a stale bundle. */
// @ts-nocheck

import { execFileSync } from "node:child_process"
import { fileURLToPath } from "node:url"

// Once per vitest run: the package project (test/package.globalSetup.ts) asks for it too.
const built = Symbol.for("mcpctl.test.cliBundleBuilt")

export default function setup() {
  const flags = globalThis as { [built]?: boolean }
  if (flags[built]) return
  execFileSync(process.execPath, [fileURLToPath(new URL("../build.mjs", import.meta.url))], { stdio: "inherit" })
  flags[built] = true
}
