// @ts-nocheck
import { describe, expect, it } from "@effect/vitest"
import * as CacheHints from "../src/internal/pool/CacheHints.js"

const at = (fetchedAt: number, ttlMs?: number, scope?: string) => ({
  fetchedAt,
  hint: CacheHints.hintOf(ttlMs === undefined ? {} : { ttlMs, ...(scope ? { cacheScope: scope } : {}) })
})

describe("CacheHints", () => {
  it("reads ttlMs and cacheScope; no ttlMs is no hint, an unknown scope is private", () => {
    expect(CacheHints.hintOf({ tools: [], ttlMs: 5000, cacheScope: "public" })).toEqual({ ttlMs: 5000, scope: "public" })
    expect(CacheHints.hintOf({ ttlMs: 5000 })).toEqual({ ttlMs: 5000, scope: "private" })
    expect(CacheHints.hintOf({ ttlMs: 5000, cacheScope: "everyone" })).toEqual({ ttlMs: 5000, scope: "private" })
    expect(CacheHints.hintOf({ cacheScope: "public" })).toBeUndefined()
    expect(CacheHints.hintOf({ ttlMs: "5000" })).toBeUndefined()
    expect(CacheHints.hintOf(null)).toBeUndefined()
  })

  it("clamps ttlMs to [0, one day]", () => {
    expect(CacheHints.hintOf({ ttlMs: -5 })?.ttlMs).toBe(0)
    expect(CacheHints.hintOf({ ttlMs: 1e15 })?.ttlMs).toBe(CacheHints.MAX_TTL_MS)
    expect(CacheHints.hintOf({ ttlMs: Infinity })).toBeUndefined()
  })

  it("a hinted list is fresh for ttlMs after it arrived, then stale; ttlMs 0 is stale at once", () => {
    const stamp = at(1_000, 500)
    expect(CacheHints.freshness(stamp, 1_000)).toBe("fresh")
    expect(CacheHints.freshness(stamp, 1_499)).toBe("fresh")
    expect(CacheHints.freshness(stamp, 1_500)).toBe("stale")
    expect(CacheHints.freshFor(stamp, 1_200)).toBe(300)
    expect(CacheHints.freshFor(stamp, 9_999)).toBe(0)
    expect(CacheHints.freshness(at(1_000, 0), 1_000)).toBe("stale")
    expect(CacheHints.freshness(at(1_000), 1e12)).toBe("unhinted")
  })

  it("a connection serves fresh and unhinted lists, never stale ones", () => {
    expect(CacheHints.servesOnConnection(at(0, 100), 50)).toBe(true)
    expect(CacheHints.servesOnConnection(at(0), 1e9)).toBe(true)
    expect(CacheHints.servesOnConnection(at(0, 100), 100)).toBe(false)
  })

  it("beyond its connection only a fresh list goes, and only a public one to another caller", () => {
    expect(CacheHints.servesBeyond(at(0, 100, "public"), 50, false)).toBe(true)
    expect(CacheHints.servesBeyond(at(0, 100, "private"), 50, false)).toBe(false)
    expect(CacheHints.servesBeyond(at(0, 100, "private"), 50, true)).toBe(true)
    expect(CacheHints.servesBeyond(at(0, 100, "public"), 150, true)).toBe(false)
    expect(CacheHints.servesBeyond(at(0), 1, true)).toBe(false)
  })

  it("on disk: a stale or private list is refreshed unless cached answers were asked for", () => {
    expect(CacheHints.onDisk(at(0, 100, "public"), 50, false)).toBe("serve")
    expect(CacheHints.onDisk(at(0, 100, "public"), 150, false)).toBe("refresh")
    expect(CacheHints.onDisk(at(0, 100, "private"), 50, false)).toBe("refresh")
    expect(CacheHints.onDisk(at(0), 50, false)).toBe("refresh")
    expect(CacheHints.onDisk(at(0, 100, "public"), 150, true)).toBe("serve")
    expect(CacheHints.onDisk(at(0), 150, true)).toBe("serve")
  })

  it("says where a list stands for people", () => {
    expect(CacheHints.describe(at(0, 60_000, "public"), 18_000)).toBe("fresh for 42 s more (public)")
    expect(CacheHints.describe(at(0, 600_000), 0)).toBe("fresh for 10 min more (private)")
    expect(CacheHints.describe(at(0, 500), 600)).toBe("stale (ttl 500 ms)")
    expect(CacheHints.describe(at(0), 600)).toBe("no cache hints")
  })
})
