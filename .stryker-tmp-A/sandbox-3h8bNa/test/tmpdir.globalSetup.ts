/**
 * Every vitest run gets a temporary directory and an id of its own, and leaves neither processes
 * nor files behind, however it ends:
 * - `TMPDIR` points into a directory made for this run, which the workers and every process they
 *   start (mcpctl, servers) inherit; temp homes and files a test forgets (hundreds of
 *   `mcpctl-auth-*` once) go with it.
 * - `MCPCTL_TEST_RUN=<id>` is inherited the same way: at the end, and on SIGINT, SIGTERM or SIGHUP
 *   (Ctrl-C included), every process marked with it or with the run's TMPDIR is killed, wherever
 *   it was reparented, and the directory is removed (runGuard.ts).
 * - `MCPCTL_TEST_SLOWDOWN` is set for the workers (vitest.workspace.ts measures it).
 */
// @ts-nocheck

import { randomUUID } from "node:crypto"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { cleanUpRun, RUN_MARKER } from "./runGuard.js"
import { slowdown } from "./slowdown.js"

// Once per vitest run: every project lists this setup, and they share the main process's env.
const made = Symbol.for("mcpctl.test.tmpdir")

export default function setup() {
  const flags = globalThis as { [made]?: string }
  if (flags[made] !== undefined) return
  slowdown()
  const previous = process.env.TMPDIR
  const dir = mkdtempSync(join(tmpdir(), "mcpctl-test-run-"))
  const id = randomUUID()
  flags[made] = dir
  process.env.TMPDIR = dir
  process.env[RUN_MARKER] = id
  let done = false
  const cleanUp = (spareWorkers: boolean) => {
    if (done) return
    done = true
    cleanUpRun(id, dir, { spareWorkers })
  }
  // vitest answers SIGINT/SIGTERM, and "exit" itself, with process.exit(), which ends the process
  // at once: the listeners registered after its own never run. Ours go first.
  process.prependOnceListener("exit", () => cleanUp(false))
  const onSignal = (signal: NodeJS.Signals) => {
    cleanUp(false)
    // Nobody else (vitest handles SIGINT and SIGTERM, not SIGHUP) ends the process: do it.
    if (process.listenerCount(signal) === 0) process.exit(128 + (signal === "SIGHUP" ? 1 : signal === "SIGINT" ? 2 : 15))
  }
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.prependOnceListener(signal, onSignal)
  return () => {
    if (previous === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = previous
    // The workers are still needed to close the run; everything they started is not.
    cleanUp(true)
  }
}
