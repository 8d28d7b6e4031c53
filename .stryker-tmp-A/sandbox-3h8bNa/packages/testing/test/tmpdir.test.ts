// @ts-nocheck
// test/tmpdir.globalSetup.ts: the run's temp files live in a directory of its own, removed at the
// end, so no test run leaves /tmp/mcpctl-* behind.
import { describe, expect, it } from "@effect/vitest"
import { execFileSync } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { basename, dirname, join } from "node:path"

describe("the test run's temporary directory", () => {
  it("is this run's own, for the workers and the processes they start", () => {
    expect(basename(tmpdir())).toMatch(/^mcpctl-test-run-/)
    const made = mkdtempSync(join(tmpdir(), "mcpctl-leftover-"))
    expect(dirname(made)).toBe(tmpdir())
    const child = execFileSync(process.execPath, ["-e", "process.stdout.write(require('node:os').tmpdir())"], { encoding: "utf8" })
    expect(child).toBe(tmpdir())
  })
})
