// @ts-nocheck
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/TestClock"
import * as fs from "node:fs/promises"
import {
  clearNeedsAuth,
  isFresh,
  isNeedsAuthCached,
  markNeedsAuth,
  NEEDS_AUTH_TTL_MS,
  needsAuthCacheFile,
  parseEntries,
  pruneExpired
} from "../src/internal/pool/NeedsAuthCache.js"
import { leftovers, mode, readJson, tmpHome } from "./support/files.js"

const MIN = 60 * 1000

describe("NeedsAuthCache (pure)", () => {
  it("parses leniently and judges freshness", () => {
    expect(parseEntries("nope")).toEqual({})
    expect(parseEntries([1])).toEqual({})
    expect(parseEntries({ a: { timestamp: 5 }, b: { timestamp: "x" }, c: null })).toEqual({ a: { timestamp: 5 } })
    const entries = { a: { timestamp: 0 }, b: { timestamp: 10 * MIN } }
    expect(isFresh(entries, "a", 14 * MIN)).toBe(true)
    expect(isFresh(entries, "a", 15 * MIN)).toBe(false)
    expect(isFresh(entries, "zzz", 0)).toBe(false)
    expect(pruneExpired(entries, 16 * MIN)).toEqual({ b: { timestamp: 10 * MIN } })
  })
})

describe("NeedsAuthCache (file)", () => {
  it.effect("stays fresh for 14 minutes and expires at 15", () =>
    Effect.gen(function*() {
      const home = yield* tmpHome()
      expect(yield* isNeedsAuthCached(home, "api")).toBe(false)
      yield* markNeedsAuth(home, "api")
      expect(yield* isNeedsAuthCached(home, "api")).toBe(true)
      yield* TestClock.adjust("14 minutes")
      expect(yield* isNeedsAuthCached(home, "api")).toBe(true)
      expect(yield* isNeedsAuthCached(home, "other")).toBe(false)
      yield* TestClock.adjust("1 minute")
      expect(yield* isNeedsAuthCached(home, "api")).toBe(false)
      expect(NEEDS_AUTH_TTL_MS).toBe(15 * MIN)
    }))

  it.effect("concurrent marks from many fibers all land; atomic writes leave no temp files; mode 0600", () =>
    Effect.gen(function*() {
      const home = yield* tmpHome()
      const names = Array.from({ length: 12 }, (_, i) => `s${i}`)
      yield* Effect.all(names.map((n) => markNeedsAuth(home, n)), { concurrency: "unbounded" })
      const file = needsAuthCacheFile(home)
      expect(Object.keys(yield* readJson(file)).sort()).toEqual([...names].sort())
      expect(yield* leftovers(home)).toEqual([])
      expect(yield* mode(file)).toBe(0o600)
      yield* Effect.all([clearNeedsAuth(home, "s0"), markNeedsAuth(home, "late")], { concurrency: 2 })
      const after = yield* readJson(file)
      expect(after.s0).toBeUndefined()
      expect(after.late).toBeDefined()
      expect(after.s1).toBeDefined()
    }))

  it.effect("a corrupt or oddly shaped file reads as empty and is repaired by the next write", () =>
    Effect.gen(function*() {
      const home = yield* tmpHome()
      const file = needsAuthCacheFile(home)
      yield* Effect.promise(() => fs.writeFile(file, "{ not json"))
      expect(yield* isNeedsAuthCached(home, "api")).toBe(false)
      yield* markNeedsAuth(home, "api")
      expect(yield* readJson(file)).toEqual({ api: { timestamp: 0 } })
      yield* Effect.promise(() => fs.writeFile(file, JSON.stringify({ api: "yes", ok: { timestamp: 0 } })))
      expect(yield* isNeedsAuthCached(home, "api")).toBe(false)
      expect(yield* isNeedsAuthCached(home, "ok")).toBe(true)
    }))

  it.effect("expired entries are pruned on write", () =>
    Effect.gen(function*() {
      const home = yield* tmpHome()
      yield* markNeedsAuth(home, "old")
      yield* TestClock.adjust("20 minutes")
      yield* markNeedsAuth(home, "new")
      expect(Object.keys(yield* readJson(needsAuthCacheFile(home)))).toEqual(["new"])
    }))
})
