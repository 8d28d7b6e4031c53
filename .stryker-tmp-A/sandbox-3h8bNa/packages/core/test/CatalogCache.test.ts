// @ts-nocheck
import { describe, expect, it } from "@effect/vitest"
import * as CatalogCache from "@mcpctl/core/internal/catalog/CatalogCache"
import type { McpTool } from "@mcpctl/core/ToolRegistry"
import * as fixtures from "@mcpctl/testing/Fixtures"
import * as Effect from "effect/Effect"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

const tool = (name: string): McpTool => ({
  name: `mcp__echo__${name}`,
  server: "echo",
  tool: name,
  title: name,
  description: "d",
  readOnly: true,
  destructive: false,
  openWorld: false,
  idempotent: false,
  concurrencySafe: true,
  inputSchema: { type: "object" },
  outputSchema: undefined,
  hash: "h",
  pin: "new"
})

describe("CatalogCache", () => {
  it("age: seconds, minutes, hours, days", () => {
    expect([0, 119_000, 120_000, 7_199_000, 7_200_000, 172_800_000, -5].map(CatalogCache.age)).toEqual(
      ["0 s", "119 s", "2 min", "120 min", "2 h", "2 days", "0 s"]
    )
  })

  it("key: the identity, the name and every setting of the entry count", () => {
    const key = (s: Parameters<typeof CatalogCache.cacheKey>[0]) => CatalogCache.cacheKey(s, "/p", "/bin")
    const base = fixtures.server("echo", { command: "/bin/echo-server", args: ["--x"] })
    expect(key(base)).toBe(key(fixtures.server("echo", { command: "/bin/echo-server", args: ["--x"] })))
    expect(key(base)).not.toBe(key(fixtures.server("echo", { command: "/bin/echo-server", args: ["--y"] })))
    expect(key(base)).not.toBe(key(fixtures.server("other", { command: "/bin/echo-server", args: ["--x"] })))
    expect(key(base)).not.toBe(key(fixtures.server("echo", { command: "/bin/echo-server", args: ["--x"], env: { K: "v" } })))
  })

  it.effect("write then read: the tools without their pin mark; another server reads nothing; remove forgets", () =>
    Effect.gen(function*() {
      const home = mkdtempSync(join(tmpdir(), "mcpctl-catalog-"))
      const spot = { home, projectDir: "/p", pathVar: "/bin" }
      const server = fixtures.server("echo", { command: "/bin/echo-server" })
      const other = fixtures.server("echo", { command: "/bin/other-server" })
      yield* CatalogCache.write(spot, server, [tool("a"), tool("b")], 1234)
      const back = yield* CatalogCache.read(spot, server)
      expect(back?.savedAt).toBe(1234)
      expect(back?.tools.map((t) => [t.tool, t.pin])).toEqual([["a", undefined], ["b", undefined]])
      expect(yield* CatalogCache.read(spot, other)).toBeUndefined()
      yield* CatalogCache.remove(spot, server)
      expect(yield* CatalogCache.read(spot, server)).toBeUndefined()
      rmSync(home, { recursive: true, force: true })
    }))

  it.effect("a corrupt or foreign file is a miss, not an error", () =>
    Effect.gen(function*() {
      const home = mkdtempSync(join(tmpdir(), "mcpctl-catalog-"))
      const spot = { home, projectDir: "/p", pathVar: "/bin" }
      const server = fixtures.server("echo", { command: "/bin/echo-server" })
      yield* CatalogCache.write(spot, server, [tool("a")])
      const file = join(home, "cache", "catalog", `${CatalogCache.cacheKey(server, "/p", "/bin")}.json`)
      writeFileSync(file, "{ nope")
      expect(yield* CatalogCache.read(spot, server)).toBeUndefined()
      writeFileSync(file, JSON.stringify({ key: "another", savedAt: 1, tools: [] }))
      expect(yield* CatalogCache.read(spot, server)).toBeUndefined()
      rmSync(home, { recursive: true, force: true })
    }))
})
