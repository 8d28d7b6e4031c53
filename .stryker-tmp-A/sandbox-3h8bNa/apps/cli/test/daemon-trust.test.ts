/**
 * The relay client (bin/relay.mjs) trusts the daemon's files only when they are this user's own
 * and private: a fake daemon listening where another user could have put it must receive nothing
 * (the environment carries secrets) and print nothing; the command runs in-process instead, with
 * one warning line. The fake daemon is a socket server in this test process.
 */
// @ts-nocheck

import { afterAll, describe, expect, it } from "@effect/vitest"
import { chmodSync, chownSync, lchownSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { frame, socketPath, tokenPath } from "../src/daemon/Wire.js"
import { fakeDaemon as fakeDaemonIn } from "./fakeDaemon.js"
import { run, workspace } from "./support.js"

const ws = workspace()
afterAll(() => ws.cleanup())
const empty = ws.settings("empty.json", { mcpServers: {} })

/** A fake daemon in a fresh `$MCPCTL_HOME/run`: answers every request with spoofed output and exit 0. */
const fakeDaemon = (name: string) => fakeDaemonIn(ws.dir, name, Buffer.concat([frame("S"), frame("O", "spoofed\n"), frame("X", "0")]))

const relayed = (home: string) => run(["tools", "--config", empty], { home, env: { SECRET_FOR_TEST: "s3cret" } })

describe("the relay client checks the daemon's files before it sends anything", () => {
  it("uses a daemon whose files are private and its own (the fake is reached: the setup works)", async () => {
    const fake = await fakeDaemon("home-ok")
    const r = await relayed(fake.home)
    await fake.close()
    expect(r.stdout).toBe("spoofed\n")
    expect(fake.received).toHaveLength(1)
    expect(fake.received[0]).toContain("fake-token")
  })

  const cases: ReadonlyArray<readonly [string, (fake: Awaited<ReturnType<typeof fakeDaemon>>) => void, RegExp]> = [
    ["run/ of mode 0755", (f) => chmodSync(f.dir, 0o755), /run has mode 755, not 700/],
    ["a socket of mode 0666", (f) => chmodSync(socketPath(f.dir), 0o666), /daemon\.sock has mode 666, not 600/],
    ["a token file of mode 0644", (f) => chmodSync(tokenPath(f.dir), 0o644), /daemon\.token has mode 644, not 600/],
    ["run/ of another user (uid 65534)", (f) => chownSync(f.dir, 65534, 65534), /run belongs to uid 65534/],
    ["a socket of another user (uid 65534)", (f) => lchownSync(socketPath(f.dir), 65534, 65534), /daemon\.sock belongs to uid 65534/],
    ["a token file of another user (uid 65534)", (f) => chownSync(tokenPath(f.dir), 65534, 65534), /daemon\.token belongs to uid 65534/],
    ["a token file that is a symbolic link", (f) => {
      const elsewhere = join(f.home, "token-elsewhere")
      writeFileSync(elsewhere, "fake-token\n", { mode: 0o600 })
      rmSync(tokenPath(f.dir))
      symlinkSync(elsewhere, tokenPath(f.dir))
    }, /daemon\.token is a symbolic link/]
  ]
  cases.forEach(([name, spoil, why], i) =>
    it(`runs in-process, with a warning, for ${name}`, async () => {
      const fake = await fakeDaemon(`home-${i}`)
      spoil(fake)
      const r = await relayed(fake.home)
      await fake.close()
      expect(fake.received).toEqual([])
      expect(r.stdout).not.toContain("spoofed")
      expect(r.code).toBe(0)
      const warnings = r.stderr.split("\n").filter((l) => l.startsWith("mcpctl: warning: not using the daemon"))
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toMatch(why)
      expect(warnings[0]).toMatch(/running in-process\.$/)
    }))

  it("says nothing when there is no daemon at all", async () => {
    const r = await relayed(join(ws.dir, "home-none"))
    expect(r.code).toBe(0)
    expect(r.stderr).not.toContain("daemon")
  })
})
