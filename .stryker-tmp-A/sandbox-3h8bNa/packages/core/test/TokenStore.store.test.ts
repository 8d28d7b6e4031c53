// @ts-nocheck
// The token files on the one JsonStore: concurrent writers in this process each keep their
// fields (the store's lock orders them), no lock or temp file is left, a link is never read
// through, and logout removes the file and its DPoP key.
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import {
  deleteStoredEffect,
  dpopKeyFile,
  readStoredEffect,
  storeFile,
  updateStoredEffect,
  withIssuerEntry
} from "../src/internal/auth/TokenStore.js"
import { leftovers, tmpHome } from "./support/files.js"

const url = "https://x.dev/mcp"
const tokens = (n: number) => ({ tokens: { access_token: `AT${n}`, token_type: "Bearer" } })

describe("TokenStore on JsonStore", () => {
  it.live("keeps every one of 12 concurrent issuers' entries, with nothing left beside the file", () =>
    Effect.gen(function*() {
      const home = yield* tmpHome()
      yield* Effect.forEach(
        Array.from({ length: 12 }, (_, n) => n),
        (n) => updateStoredEffect(home, url, (s) => withIssuerEntry(s, `https://as${n}.dev`, tokens(n))),
        { concurrency: "unbounded" }
      )
      const stored = yield* readStoredEffect(home, url)
      expect(Object.keys(stored.issuers ?? {}).sort()).toEqual(Array.from({ length: 12 }, (_, n) => `https://as${n}.dev`).sort())
      expect(yield* leftovers(path.dirname(storeFile(home, url)))).toEqual([])
    }))

  it.live("reads a linked token file as nothing stored, and an entry left empty removes the file", () =>
    Effect.gen(function*() {
      const home = yield* tmpHome()
      const file = storeFile(home, url)
      const elsewhere = path.join(home, "elsewhere.json")
      yield* updateStoredEffect(home, url, (s) => ({ ...s, ...tokens(1) }))
      yield* Effect.promise(() => fs.rename(file, elsewhere))
      yield* Effect.promise(() => fs.symlink(elsewhere, file))
      expect((yield* readStoredEffect(home, url)).tokens).toBeUndefined()
      yield* Effect.promise(() => fs.rm(file))
      yield* updateStoredEffect(home, url, (s) => ({ ...s, ...tokens(2) }))
      yield* updateStoredEffect(home, url, (s) => ({ serverUrl: s.serverUrl }))
      expect(yield* Effect.promise(() => fs.access(file).then(() => true, () => false))).toBe(false)
    }))

  it.live("logout removes the token file and the DPoP key beside it", () =>
    Effect.gen(function*() {
      const home = yield* tmpHome()
      yield* updateStoredEffect(home, url, (s) => ({ ...s, ...tokens(1) }))
      yield* Effect.promise(() => fs.writeFile(dpopKeyFile(home, url), "{}", { mode: 0o600 }))
      yield* deleteStoredEffect(home, url)
      expect(yield* Effect.promise(() => fs.readdir(path.dirname(storeFile(home, url))))).toEqual([])
    }))
})
