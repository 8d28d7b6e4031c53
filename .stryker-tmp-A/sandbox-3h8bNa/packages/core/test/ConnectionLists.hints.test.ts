/** The lists a connection remembers follow the server's cache hints (CacheHints.ts), on a fixed clock. */
// @ts-nocheck

import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { ConnectionLists, ListKey, type SharedLists } from "../src/internal/pool/ConnectionLists.js"
import * as CacheHints from "../src/internal/pool/CacheHints.js"

interface Listed {
  readonly n: number
  readonly hint: CacheHints.CacheHint | undefined
}
const key = new ListKey<Listed>("tools", "tools", (v) => v.hint)

/** A server whose every answer is numbered, with the hints given. */
const server = (ttlMs?: number, scope?: string) => {
  let n = 0
  return {
    fetches: () => n,
    fetch: Effect.sync(() => ({ n: ++n, hint: CacheHints.hintOf(ttlMs === undefined ? {} : { ttlMs, cacheScope: scope }) }))
  }
}

describe("ConnectionLists with cache hints", () => {
  it("serves a hinted list while fresh and asks again once stale", async () => {
    let now = 1_000
    const lists = new ConnectionLists({ now: () => now })
    const s = server(500)
    expect((await Effect.runPromise(lists.get(key, s.fetch))).n).toBe(1)
    now = 1_499
    expect((await Effect.runPromise(lists.get(key, s.fetch))).n).toBe(1)
    expect(CacheHints.freshness(lists.stamp(key)!, now)).toBe("fresh")
    now = 1_500
    expect((await Effect.runPromise(lists.get(key, s.fetch))).n).toBe(2)
    expect(lists.stamp(key)).toEqual({ fetchedAt: 1_500, hint: { ttlMs: 500, scope: "private" } })
  })

  it("asks again on every use when ttlMs is 0, and keeps an unhinted list for the connection", async () => {
    const now = 0
    const zero = server(0)
    const lists = new ConnectionLists({ now: () => now })
    await Effect.runPromise(lists.get(key, zero.fetch))
    await Effect.runPromise(lists.get(key, zero.fetch))
    expect(zero.fetches()).toBe(2)
    const none = server()
    const other = new ConnectionLists({ now: () => 1e12 })
    await Effect.runPromise(other.get(key, none.fetch))
    await Effect.runPromise(other.get(key, none.fetch))
    expect(none.fetches()).toBe(1)
  })

  it("shares a fresh public list with the server's next connection, never a private one", async () => {
    let now = 0
    const shared: SharedLists = new Map()
    const pub = server(1_000, "public")
    await Effect.runPromise(new ConnectionLists({ now: () => now, shared }).get(key, pub.fetch))
    now = 900
    expect((await Effect.runPromise(new ConnectionLists({ now: () => now, shared }).get(key, pub.fetch))).n).toBe(1)
    now = 1_000
    expect((await Effect.runPromise(new ConnectionLists({ now: () => now, shared }).get(key, pub.fetch))).n).toBe(2)

    const privateShared: SharedLists = new Map()
    const priv = server(1_000, "private")
    await Effect.runPromise(new ConnectionLists({ now: () => 0, shared: privateShared }).get(key, priv.fetch))
    await Effect.runPromise(new ConnectionLists({ now: () => 1, shared: privateShared }).get(key, priv.fetch))
    expect(priv.fetches()).toBe(2)
  })

  it("a list_changed drops the shared list too", async () => {
    const shared: SharedLists = new Map()
    const pub = server(60_000, "public")
    const first = new ConnectionLists({ now: () => 0, shared })
    await Effect.runPromise(first.get(key, pub.fetch))
    expect(first.invalidate("tools")).toBe(true)
    await Effect.runPromise(new ConnectionLists({ now: () => 1, shared }).get(key, pub.fetch))
    expect(pub.fetches()).toBe(2)
  })

  it("between a warm host's commands only the lists kept fresh by their hints stay", async () => {
    let now = 0
    const fresh = new ConnectionLists({ now: () => now })
    const s = server(1_000)
    await Effect.runPromise(fresh.get(key, s.fetch))
    now = 500
    fresh.dropUnlessFresh()
    expect(fresh.has(key)).toBe(true)
    now = 1_000
    fresh.dropUnlessFresh()
    expect(fresh.has(key)).toBe(false)
    const unhinted = new ConnectionLists({ now: () => 0 })
    await Effect.runPromise(unhinted.get(key, server().fetch))
    unhinted.dropUnlessFresh()
    expect(unhinted.size).toBe(0)
  })
})
