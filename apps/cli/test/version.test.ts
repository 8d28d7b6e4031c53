/**
 * `mcpctl --version` answers in the bin (bin/mcpctl.mjs) without loading the bundle: the same text
 * @effect/cli prints for it inside the bundle, the same version Host.ts gives spans and servers.
 */
import { describe, expect, it } from "@effect/vitest"
import { UNUSED_HOME } from "@mcpctl/testing/Fixtures"
import { spawnSync } from "node:child_process"
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { VERSION } from "../src/Host.js"
import { cliBin, repoRoot } from "./support.js"

const bundle = join(repoRoot, "apps/cli/bin/mcpctl.cjs")
const pkg = JSON.parse(readFileSync(join(repoRoot, "apps/cli/package.json"), "utf8")) as { version: string }
// A home that is never created: --version reads none, and no run may reach the user's.
const node = (args: ReadonlyArray<string>) =>
  spawnSync(process.execPath, args, { encoding: "utf8", cwd: repoRoot, env: { ...process.env, MCPCTL_HOME: UNUSED_HOME } })

describe("mcpctl --version", () => {
  it("is the package's version, the one Host.ts names", () => {
    expect(VERSION).toBe(pkg.version)
  })

  it("prints what @effect/cli prints in the bundle, for --version and -v", () => {
    const inBundle = node([bundle, "--version"])
    expect(inBundle.status).toBe(0)
    expect(inBundle.stdout).toContain(pkg.version)
    for (const flag of ["--version", "-v"]) {
      const r = node([cliBin, flag])
      expect(r.status).toBe(0)
      expect(r.stdout).toBe(inBundle.stdout)
    }
  })

  it("does not need the bundle (a bin beside no bundle still answers; anything else fails there)", () => {
    const dir = mkdtempSync(join(tmpdir(), "mcpctl-version-"))
    try {
      mkdirSync(join(dir, "bin"))
      copyFileSync(cliBin, join(dir, "bin/mcpctl.mjs"))
      copyFileSync(join(repoRoot, "apps/cli/package.json"), join(dir, "package.json"))
      const alone = join(dir, "bin/mcpctl.mjs")
      const r = node([alone, "--version"])
      expect(r.status).toBe(0)
      expect(r.stdout.trim()).toBe(pkg.version)
      expect(node([alone, "--version", "--json"]).status).not.toBe(0)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
