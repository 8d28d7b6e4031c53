/**
 * The one JSON store under the file stores: decoded with a schema (anything odd reads as None),
 * no link followed, atomic private writes, the lock as a scoped resource (released on failure
 * too), parallel updates that lose nothing, and `Clock` time for expiry (TestClock).
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as TestClock from "effect/TestClock"
import { existsSync, lstatSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import * as JsonStore from "../src/internal/JsonStore.js"
import { leftovers, tmpHome } from "./support/files.js"
import { slow } from "./support/slow.js"

const Counter = Schema.Struct({ n: Schema.Number, at: Schema.optional(Schema.Number) })

describe("JsonStore", () => {
  it.effect("reads a missing, corrupt or ill-shaped file as None; writes 0600 in a 0700 directory, atomically", () =>
    Effect.gen(function*() {
      const home = yield* tmpHome("mcpctl-jsonstore-")
      const file = path.join(home, "sub", "c.json")
      const store = JsonStore.make(file, Counter)
      expect(yield* store.get).toEqual(Option.none())
      yield* store.update(() => ({ n: 1 }))
      expect(yield* store.get).toEqual(Option.some({ n: 1 }))
      expect(statSync(file).mode & 0o777).toBe(0o600)
      expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700)
      expect(yield* leftovers(path.dirname(file))).toEqual([])
      writeFileSync(file, "{ not json")
      expect(yield* store.get).toEqual(Option.none())
      writeFileSync(file, JSON.stringify({ n: "one" }))
      expect(yield* store.get).toEqual(Option.none())
    }))

  it.effect("keeps the good entries of a lenient record", () =>
    Effect.gen(function*() {
      const home = yield* tmpHome("mcpctl-jsonstore-")
      const file = path.join(home, "r.json")
      writeFileSync(file, JSON.stringify({ a: { n: 1 }, b: { n: "x" }, c: null }))
      expect(yield* JsonStore.make(file, JsonStore.lenientRecord(Counter)).get).toEqual(Option.some({ a: { n: 1 } }))
    }))

  it.effect("follows no symbolic link: a link reads as None and is replaced on write, its target untouched", () =>
    Effect.gen(function*() {
      const home = yield* tmpHome("mcpctl-jsonstore-")
      const target = path.join(home, "target.json")
      const file = path.join(home, "c.json")
      writeFileSync(target, JSON.stringify({ n: 7 }))
      symlinkSync(target, file)
      const store = JsonStore.make(file, Counter)
      expect(yield* store.get).toEqual(Option.none())
      expect(yield* store.stamp).toEqual(Option.none())
      yield* store.update(() => ({ n: 1 }))
      expect(lstatSync(file).isSymbolicLink()).toBe(false)
      expect(JSON.parse(readFileSync(target, "utf8"))).toEqual({ n: 7 })
    }))

  it.effect("twenty fibers updating at once lose nothing, and leave no lock or temp file", () =>
    Effect.gen(function*() {
      const home = yield* tmpHome("mcpctl-jsonstore-")
      // The lock's default wait (2 s, then a cache proceeds without it) is shorter than twenty
      // holders in a row on a starved machine; the property under test is the lock's.
      const store = JsonStore.make(path.join(home, "c.json"), Counter, { lockWaitMs: slow(30_000), onLockTimeout: "fail" })
      yield* Effect.all(Array.from({ length: 20 }, () =>
        store.update((c) => ({ n: Option.match(c, { onNone: () => 0, onSome: (v) => v.n }) + 1 }))), { concurrency: "unbounded" })
      expect(yield* store.get).toEqual(Option.some({ n: 20 }))
      expect(yield* leftovers(home)).toEqual([])
    }))

  it.effect("releases the lock when the update fails; with onLockTimeout fail, a held lock is an error, not a write", () =>
    Effect.gen(function*() {
      const home = yield* tmpHome("mcpctl-jsonstore-")
      const file = path.join(home, "c.json")
      const store = JsonStore.make(file, Counter, { lockWaitMs: 50, onLockTimeout: "fail" })
      const failed = yield* Effect.exit(store.modify(() => {
        throw new Error("boom")
      }))
      expect(Exit.isFailure(failed)).toBe(true)
      expect(existsSync(`${file}.lock`)).toBe(false)
      writeFileSync(`${file}.lock`, "12345")
      const refused = yield* Effect.flip(store.update(() => ({ n: 1 })))
      expect(refused).toBeInstanceOf(JsonStore.JsonStoreError)
      expect(refused.reason).toBe("lock")
      expect(existsSync(file)).toBe(false)
      // The lock stays the other holder's.
      expect(readFileSync(`${file}.lock`, "utf8")).toBe("12345")
    }))

  it.effect("an update gets the time from Clock, so expiry rules run on TestClock", () =>
    Effect.gen(function*() {
      const home = yield* tmpHome("mcpctl-jsonstore-")
      const store = JsonStore.make(path.join(home, "c.json"), Counter)
      const TTL = 60_000
      const touch = store.update((_, now) => ({ n: 1, at: now }))
      const fresh = Effect.zipWith(store.get, Effect.clockWith((c) => c.currentTimeMillis), (v, now) =>
        Option.exists(v, (c) => c.at !== undefined && now - c.at < TTL))
      yield* TestClock.setTime(1_000_000)
      yield* touch
      expect(yield* fresh).toBe(true)
      yield* TestClock.adjust("59 seconds")
      expect(yield* fresh).toBe(true)
      yield* TestClock.adjust("1 second")
      expect(yield* fresh).toBe(false)
      expect(yield* store.get).toEqual(Option.some({ n: 1, at: 1_000_000 }))
    }))

  it.effect("modify that returns the value unchanged writes nothing", () =>
    Effect.gen(function*() {
      const home = yield* tmpHome("mcpctl-jsonstore-")
      const file = path.join(home, "c.json")
      const store = JsonStore.make(file, Counter)
      yield* store.update(() => ({ n: 1 }))
      const before = yield* store.stamp
      expect(yield* store.modify((c) => ["same", c] as const)).toBe("same")
      expect(JsonStore.sameStamp(yield* store.stamp, before)).toBe(true)
    }))
})
