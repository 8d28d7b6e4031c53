/**
 * No test reads or writes the developer's real `~/.mcpctl` (a needs-auth refusal a test left there
 * once changed a later run's message). A setup file, so it runs in each test file's worker before
 * the file is imported:
 * - `HOME` points at an empty directory of the file's own inside the run's TMPDIR
 *   (tmpdir.globalSetup.ts removes it with the run). `os.homedir()` reads `HOME`, and every process
 *   the file starts inherits it, so a host built without a home (`McpConfig.layerStatic` without
 *   `home`, a CLI spawned without `MCPCTL_HOME`) lands here rather than in the real one.
 * - After the file, if `$HOME/.mcpctl` appeared, the file fails, naming what was written: give that
 *   host a home (`Fixtures.staticConfig`, `Fixtures.config`, `workspace().home`).
 *
 * Why not compare the real `~/.mcpctl` before and after: other runs on the machine (other
 * checkouts, the developer's own mcpctl, a daemon) write there at any time, so a snapshot would
 * fail innocent runs on a shared machine; a HOME of the file's own changes only through its tests,
 * and the check is one `existsSync`, nothing that a loaded machine could make late.
 * Safe for what the tests spawn: the servers are node scripts from node_modules and the fixtures,
 * the shells `sh -c`/`script`/non-interactive bash, none of which reads a startup file or cache
 * under HOME. The package project (npm install from ~/.npm's cache) does not load this file.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll } from "vitest"

const home = mkdtempSync(join(tmpdir(), "mcpctl-test-user-home-"))
process.env.HOME = home

afterAll(() => {
  const written = join(home, ".mcpctl")
  const found = existsSync(written) ? readdirSync(written, { recursive: true }).map(String).sort() : undefined
  rmSync(home, { recursive: true, force: true })
  if (found !== undefined) {
    throw new Error(
      `a test of this file wrote to $HOME/.mcpctl (the developer's real home outside tests): ${found.join(", ") || "(empty dir)"}. ` +
        "Give its host a home of its own: Fixtures.staticConfig / Fixtures.config, or MCPCTL_HOME for a spawned CLI."
    )
  }
})
