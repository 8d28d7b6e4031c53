/**
 * Every test project runs with its own temporary directory: `TMPDIR` points into a directory made
 * for this vitest run, which the workers and every process they start (mcpctl, servers) inherit,
 * and which is removed when the run ends. Temp homes and files a test forgets to remove (hundreds
 * of `mcpctl-auth-*` once) are gone with it, however the test made them.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

// Once per vitest run: every project lists this setup, and they share the main process's env.
const made = Symbol.for("mcpctl.test.tmpdir")

export default function setup() {
  const flags = globalThis as { [made]?: string }
  if (flags[made] !== undefined) return
  const previous = process.env.TMPDIR
  const dir = mkdtempSync(join(tmpdir(), "mcpctl-test-run-"))
  flags[made] = dir
  process.env.TMPDIR = dir
  return () => {
    if (previous === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = previous
    rmSync(dir, { recursive: true, force: true })
  }
}
