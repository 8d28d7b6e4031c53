/**
 * The package test packs what `npm run build` makes, so it is built before any test starts, in
 * the root build's order (testing compiles against core's .d.ts files). The CLI bundle comes from
 * the cli project's setup, which builds it once per run, before any test uses it.
 */
import { execFileSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import buildCli from "../apps/cli/test/globalSetup.js"

export default async function setup() {
  const cwd = fileURLToPath(new URL("..", import.meta.url))
  for (const workspace of ["@mcpctl/core", "@mcpctl/testing"]) {
    execFileSync("npm", ["run", "build", "--silent", "-w", workspace], { cwd, stdio: "inherit" })
  }
  await buildCli()
}
