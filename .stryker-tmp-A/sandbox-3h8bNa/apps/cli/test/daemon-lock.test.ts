/**
 * The daemon lock (daemon/Lock.ts) in process: one holder at a time per run directory, free again
 * once released; another directory has a lock of its own.
 */
// @ts-nocheck

import { afterAll, describe, expect, it } from "@effect/vitest"
import { mkdirSync, statSync } from "node:fs"
import { join } from "node:path"
import { takeDaemonLock } from "../src/daemon/Lock.js"
import { workspace } from "./support.js"

const ws = workspace()
afterAll(() => ws.cleanup())

const runDirAt = (name: string) => {
  const dir = join(ws.dir, name, "run")
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  return dir
}

describe("takeDaemonLock", () => {
  it("has one holder at a time, and is free again once released", async () => {
    const dir = runDirAt("a")
    const first = await takeDaemonLock(dir)
    expect(first).toBeDefined()
    expect(await takeDaemonLock(dir)).toBeUndefined()
    first!.release()
    const again = await takeDaemonLock(dir)
    expect(again).toBeDefined()
    again!.release()
  })

  it("is per run directory", async () => {
    const a = await takeDaemonLock(runDirAt("b"))
    const b = await takeDaemonLock(runDirAt("c"))
    expect(a).toBeDefined()
    expect(b).toBeDefined()
    a!.release()
    b!.release()
  })

  it.runIf(process.platform === "linux")("keeps its key private to the user (0600)", async () => {
    const dir = runDirAt("d")
    const lock = await takeDaemonLock(dir)
    expect(statSync(join(dir, "daemon.lockkey")).mode & 0o777).toBe(0o600)
    lock!.release()
  })
})
