/** The CLI tests run the bundled CLI: build it once before they start, so they never test a stale bundle. */
import { execFileSync } from "node:child_process"
import { fileURLToPath } from "node:url"

export default function setup() {
  execFileSync(process.execPath, [fileURLToPath(new URL("../build.mjs", import.meta.url))], { stdio: "inherit" })
}
