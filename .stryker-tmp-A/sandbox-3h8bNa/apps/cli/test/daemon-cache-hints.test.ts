/**
 * A warm daemon host and the server's cache hints: between commands it keeps a list the hints
 * keep fresh (and `tools` says so), and asks again for a stale one. One real daemon, real
 * clients (the bin), an SDK v2 server that counts the lists it sends.
 */
// @ts-nocheck

import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as fixtures from "@mcpctl/testing/Fixtures"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { run, slow, workspace } from "./support.js"

const ws = workspace()
const home = join(ws.dir, "home-daemon-hints")

const listings = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").split("\n").filter((l) => l === "tools/list").length : 0)

beforeAll(async () => {
  const r = await run(["daemon", "start"], { home })
  expect(r.stderr).toContain("mcpctl daemon started")
}, slow(60_000))
afterAll(async () => {
  await run(["daemon", "stop"], { home })
  ws.cleanup()
}, slow(60_000))

const server = (name: string, ttlMs: number) => {
  const count = join(ws.dir, `${name}.count`)
  const settings = ws.settings(`${name}.json`, {
    mcpServers: { v2: { command: "node", args: [fixtures.v2ErasServer, "--cache-ttl", String(ttlMs), "--list-count", count] } }
  })
  return { count, tools: () => run(["tools", "--json", "--config", settings], { home, cwd: ws.project }) }
}

describe("the daemon and cache hints", () => {
  it("keeps a fresh list between commands and says so; a stale one is asked for again", async () => {
    const fresh = server("fresh", 600_000)
    expect((await fresh.tools()).code).toBe(0)
    const second = await fresh.tools()
    expect(second.code).toBe(0)
    expect(listings(fresh.count)).toBe(1)
    expect(second.stderr).toMatch(/^note: the tools of v2 are the warm connection's, listed \d+ s ago, fresh for 10 min more \(private\)$/m)
    expect(JSON.parse(second.stdout).lists).toEqual([expect.objectContaining({ server: "v2", from: "connection", state: "fresh" })])

    const stale = server("stale", 0)
    expect((await stale.tools()).code).toBe(0)
    const again = await stale.tools()
    expect(again.code).toBe(0)
    expect(listings(stale.count)).toBe(2)
    expect(again.stderr).not.toContain("warm connection")
  })
})
