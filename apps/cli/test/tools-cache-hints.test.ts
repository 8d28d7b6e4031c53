/**
 * `tools` and the server's cache hints (`ttlMs`, `cacheScope` on `tools/list`): a fresh public list
 * answers from the catalogue cache without starting the server, a private or stale one is asked
 * for again, and `--cached` serves what is kept, saying fresh or stale. An SDK v2 server (modern
 * era) that counts the lists it sends; real processes and files.
 */
import { afterAll, describe, expect, it } from "@effect/vitest"
import * as fixtures from "@mcpctl/testing/Fixtures"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { workspace } from "./support.js"
// In process: what is checked is output and exit codes, which a spawn adds nothing to (inProcess.ts).
import { runInProcess as run } from "./inProcess.js"

const ws = workspace()
afterAll(() => ws.cleanup())

const listings = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").split("\n").filter((l) => l === "tools/list").length : 0)

/** A settings file for the v2 server with these hints, its own list counter and its own home. */
const setup = (name: string, ttlMs: number, scope: "public" | "private") => {
  const count = join(ws.dir, `${name}.count`)
  const settings = ws.settings(`${name}.json`, {
    mcpServers: {
      v2: {
        command: "node",
        args: [fixtures.v2ErasServer, "--cache-ttl", String(ttlMs), "--cache-scope", scope, "--list-count", count]
      }
    }
  })
  const home = join(ws.dir, `home-${name}`)
  const tools = (...extra: Array<string>) => run(["tools", "--config", settings, "--no-daemon", ...extra], { home, cwd: ws.project })
  return { count, tools }
}

describe("tools and the server's cache hints", () => {
  it("a fresh public list answers from the cache without starting the server", async () => {
    const { count, tools } = setup("public", 600_000, "public")
    const first = await tools("--json")
    expect(first.code).toBe(0)
    expect(JSON.parse(first.stdout).lists).toEqual([
      expect.objectContaining({ server: "v2", from: "server", state: "fresh", ttlMs: 600_000, cacheScope: "public" })
    ])
    expect(listings(count)).toBe(1)
    const again = await tools("--json")
    expect(again.code).toBe(0)
    expect(listings(count)).toBe(1)
    expect(again.stderr).toMatch(/^note: the tools of v2 are from the catalogue cache, listed \d+ s ago, fresh for 10 min more \(public\)$/m)
    const doc = JSON.parse(again.stdout)
    expect(doc.tools.map((t: { name: string }) => t.name)).toEqual(JSON.parse(first.stdout).tools.map((t: { name: string }) => t.name))
    expect(doc.lists).toEqual([expect.objectContaining({ server: "v2", from: "cache", state: "fresh" })])
  })

  it("a private list is asked for again; --cached serves it and says it is fresh", async () => {
    const { count, tools } = setup("private", 600_000, "private")
    expect((await tools()).code).toBe(0)
    expect((await tools()).code).toBe(0)
    expect(listings(count)).toBe(2)
    const cached = await tools("--cached")
    expect(cached.code).toBe(0)
    expect(listings(count)).toBe(2)
    expect(cached.stderr).toMatch(/catalogue cache, listed \d+ s ago, fresh for 10 min more \(private\)$/m)
  })

  it("a stale list is asked for again, unless --cached asked for it (then it says stale)", async () => {
    const { count, tools } = setup("stale", 0, "public")
    expect((await tools()).code).toBe(0)
    expect((await tools()).code).toBe(0)
    expect(listings(count)).toBe(2)
    const cached = await tools("--cached", "--json")
    expect(cached.code).toBe(0)
    expect(listings(count)).toBe(2)
    expect(cached.stderr).toMatch(/catalogue cache, listed \d+ s ago, stale \(ttl 0 ms\)$/m)
    expect(JSON.parse(cached.stdout).lists).toEqual([expect.objectContaining({ from: "cache", state: "stale", ttlMs: 0 })])
  })
})
