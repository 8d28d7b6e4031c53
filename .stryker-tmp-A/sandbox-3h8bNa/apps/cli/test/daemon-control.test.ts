/**
 * `daemon status` / `daemon stop` check the daemon's files as the relay client does before they
 * send the token: a fake daemon in files another user could have made or swapped receives
 * nothing. The fake daemon is a socket server in this test process, and `control` runs here too.
 */
// @ts-nocheck

import { afterAll, describe, expect, it } from "@effect/vitest"
import { chmodSync, chownSync, lchownSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { control, untrustedFiles } from "../src/commands/daemon.js"
import { frame, socketPath, tokenPath } from "../src/daemon/Wire.js"
import { fakeDaemon as fakeDaemonIn } from "./fakeDaemon.js"
import { run, workspace } from "./support.js"

const ws = workspace()
afterAll(() => ws.cleanup())

/** A fake daemon in a fresh `$MCPCTL_HOME/run` that answers every control request with a status. */
const fakeDaemon = (name: string) => fakeDaemonIn(ws.dir, name, frame("J", JSON.stringify({ pid: 4242, spoofed: true })))

const cases: ReadonlyArray<readonly [string, (fake: Awaited<ReturnType<typeof fakeDaemon>>) => void, RegExp]> = [
  ["run/ of mode 0755", (f) => chmodSync(f.dir, 0o755), /run has mode 755, not 700/],
  ["a socket of mode 0666", (f) => chmodSync(socketPath(f.dir), 0o666), /daemon\.sock has mode 666, not 600/],
  ["a token file of mode 0644", (f) => chmodSync(tokenPath(f.dir), 0o644), /daemon\.token has mode 644, not 600/],
  ["run/ of another user (uid 65534)", (f) => chownSync(f.dir, 65534, 65534), /run belongs to uid 65534/],
  ["a socket of another user (uid 65534)", (f) => lchownSync(socketPath(f.dir), 65534, 65534), /daemon\.sock belongs to uid 65534/],
  ["a token file that is a symbolic link", (f) => {
    const elsewhere = join(f.home, "token-elsewhere")
    writeFileSync(elsewhere, "fake-token\n", { mode: 0o600 })
    rmSync(tokenPath(f.dir))
    symlinkSync(elsewhere, tokenPath(f.dir))
  }, /daemon\.token is a symbolic link/]
]

describe("daemon control requests check the daemon's files first", () => {
  it("ask a daemon whose files are private and its own (the fake is reached: the setup works)", async () => {
    const fake = await fakeDaemon("home-ok")
    expect(untrustedFiles(fake.dir)).toBeUndefined()
    const reply = await control(fake.dir, "status", 10_000)
    await fake.close()
    expect(reply).toEqual({ pid: 4242, spoofed: true })
    expect(fake.received).toHaveLength(1)
    expect(fake.received[0]).toContain("fake-token")
  })

  cases.forEach(([name, spoil, why], i) =>
    it(`send nothing for ${name}`, async () => {
      const fake = await fakeDaemon(`home-${i}`)
      spoil(fake)
      expect(untrustedFiles(fake.dir)).toMatch(why)
      expect(await control(fake.dir, "status", 10_000)).toBeUndefined()
      expect(await control(fake.dir, "stop", 10_000)).toBeUndefined()
      await fake.close()
      expect(fake.received).toEqual([])
    }))

  it("daemon status and daemon stop say why and exit 1 (the built CLI)", async () => {
    const fake = await fakeDaemon("home-cli")
    chmodSync(tokenPath(fake.dir), 0o644)
    const status = await run(["daemon", "status", "--json"], { home: fake.home })
    const stop = await run(["daemon", "stop"], { home: fake.home })
    await fake.close()
    expect(fake.received).toEqual([])
    expect(status.code).toBe(1)
    expect(JSON.parse(status.stdout)).toEqual({ running: false, untrusted: expect.stringMatching(/daemon\.token has mode 644, not 600/) })
    expect(stop.code).toBe(1)
    for (const r of [status, stop]) {
      expect(r.stdout).not.toContain("spoofed")
      expect(r.stderr).toMatch(/^mcpctl: not asking the daemon \(.*daemon\.token has mode 644, not 600\): its files must be yours and private/m)
    }
  })
})
