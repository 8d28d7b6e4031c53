/**
 * A grandchild that leaves the process group (`setsid`): where this machine offers a writable
 * cgroup v2 subtree with `cgroup.kill` (Cgroups.ts), the server's shutdown kills it with the rest
 * of its cgroup; where it does not, the documented fallback holds: the group ends, the escaped
 * grandchild runs on (the test then ends it itself). Either way this test asserts something.
 */
import { describe, expect, it } from "@effect/vitest"
import { Fixtures, Processes } from "@mcpctl/testing"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Scope from "effect/Scope"
import { existsSync, mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { StdioServerConfig } from "../src/config/ServerConfig.js"
import { cgroupRoot } from "../src/internal/transport/Cgroups.js"
import { openStdio } from "../src/internal/transport/Stdio.js"
import { slow } from "./support/slow.js"

const dir = mkdtempSync(join(tmpdir(), "mcpctl-cgroup-"))

// A "server" that starts a grandchild in a session of its own (node's `detached` is setsid), then
// idles; neither ignores anything, the grandchild is simply out of reach of the group's signals.
const script = (pidFile: string) =>
  `const c = require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { detached: true, stdio: 'ignore' });` +
  `require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(c.pid)); setInterval(() => {}, 1 << 30)`

describe("a setsid grandchild", () => {
  it("is killed with its server's cgroup where cgroup v2 is delegated; otherwise it escapes (documented)", async () => {
    const pidFile = join(dir, "grandchild.pid")
    const server = Fixtures.server("escaper", { type: "stdio", command: process.execPath, args: ["-e", script(pidFile)] })
    const scope = Effect.runSync(Scope.make())
    await Effect.runPromise(openStdio(server, server.config as StdioServerConfig).pipe(Scope.extend(scope)))
    const grandchild = Number(await Processes.waitForFile(pidFile, slow(30_000)))
    expect(Processes.isAlive(grandchild)).toBe(true)
    const root = cgroupRoot()
    await Effect.runPromise(Scope.close(scope, Exit.void))
    console.log(`cgroup v2 subtree: ${root ?? "none (fallback: the process group is the limit)"}`)
    if (root !== undefined) {
      // The close resolved only once the cgroup was empty, and removed it.
      expect(Processes.isAlive(grandchild)).toBe(false)
      // Its cgroup, and this process's directory with it (no other server is left), are gone.
      expect(existsSync(root)).toBe(false)
    } else {
      expect(Processes.isAlive(grandchild)).toBe(true)
      process.kill(grandchild, "SIGKILL")
    }
  }, slow(60_000))
})
