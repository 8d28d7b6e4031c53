/** The CLI tests run the bundled CLI: build it once before they start, so they never test a stale bundle. */
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"

// Once per vitest run: the package project (test/package.globalSetup.ts) asks for it too.
const built = Symbol.for("mcpctl.test.cliBundleBuilt")

// Built in a child the main process waits for without blocking: vitest's main process answers its
// workers' RPCs, and a main blocked past their 60 s deadline fails the run.
export default async function setup() {
  const flags = globalThis as { [built]?: Promise<void> }
  flags[built] ??= new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(new URL("../build.mjs", import.meta.url))], { stdio: "inherit" })
    child.on("error", reject)
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`apps/cli/build.mjs exited with ${code}`))))
  })
  await flags[built]
}
