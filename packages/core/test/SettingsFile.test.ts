// Edits of one settings file: comments kept, broken files refused, and concurrent edits that all
// survive (the file lock): a lock another process holds is waited for, never overwritten.
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fs from "node:fs/promises"
import { readFile } from "node:fs/promises"
import * as os from "node:os"
import * as Path from "node:path"
import { addPermissionRule, removeServerEntry, writeServerEntries, writeServerEntry } from "../src/internal/config/SettingsFile.js"
import * as SettingsLoad from "../src/internal/config/SettingsLoad.js"
import { LockTimeout, withFileLock } from "../src/internal/files.js"
import { right } from "./support/either.js"
import { put, withDirs } from "./support/files.js"

describe("settings file edits", () => {
  it.effect("writeServerEntry keeps comments, creates missing files and directories", () =>
    withDirs(({ project, root }) =>
      Effect.gen(function*() {
        const file = Path.join(project, ".mcp.json")
        yield* put(file, `{\n  // my servers\n  "mcpServers": {\n    "a": { "command": "a" }, // trailing\n  },\n}\n`)
        yield* writeServerEntry(file, "b", { url: "https://b/mcp", headers: { A: "${T}" } })
        const text = yield* Effect.promise(() => readFile(file, "utf8"))
        expect(text).toContain("// my servers")
        expect(text).toContain("// trailing")
        const parsed = right(SettingsLoad.parseSettingsText(text, file))
        expect(parsed.servers.map((s) => s.name)).toEqual(["a", "b"])

        expect(yield* removeServerEntry(file, "a")).toBe(true)
        expect(yield* removeServerEntry(file, "zzz")).toBe(false)
        const after = yield* Effect.promise(() => readFile(file, "utf8"))
        expect(after).toContain("// my servers")
        expect(right(SettingsLoad.parseSettingsText(after, file)).servers.map((s) => s.name)).toEqual(["b"])

        const fresh = Path.join(root, "new", "dir", "settings.local.json")
        yield* writeServerEntry(fresh, "x", { command: "x" })
        expect(right(SettingsLoad.parseSettingsText(yield* Effect.promise(() => readFile(fresh, "utf8")), fresh)).servers)
          .toEqual([{ name: "x", config: { command: "x" } }])
      })
    ))

  it.effect("addPermissionRule appends once and keeps comments", () =>
    withDirs(({ project }) =>
      Effect.gen(function*() {
        const file = SettingsLoad.scopeFile("local", project, "/unused")
        yield* addPermissionRule(file, "allow", "mcp__fs__read")
        yield* put(file, `{\n  // mine\n  "permissions": { "allow": ["mcp__fs__read"] }\n}\n`)
        yield* addPermissionRule(file, "allow", "mcp__fs__write")
        yield* addPermissionRule(file, "allow", "mcp__fs__write")
        yield* addPermissionRule(file, "deny", "mcp__x")
        const text = yield* Effect.promise(() => readFile(file, "utf8"))
        expect(text).toContain("// mine")
        expect(right(SettingsLoad.parseSettingsText(text, file)).permissions).toEqual({
          allow: ["mcp__fs__read", "mcp__fs__write"],
          ask: [],
          deny: ["mcp__x"]
        })
      })
    ))

  it.effect("refuses to edit a broken file", () =>
    withDirs(({ project }) =>
      Effect.gen(function*() {
        const file = Path.join(project, ".mcp.json")
        yield* put(file, `{ "mcpServers": `)
        const err = yield* Effect.flip(writeServerEntry(file, "a", { command: "a" }))
        expect(err.message).toContain(file)
        expect(yield* Effect.promise(() => readFile(file, "utf8"))).toBe(`{ "mcpServers": `)
      })
    ))
})

const tempDir = Effect.acquireRelease(
  Effect.promise(() => fs.mkdtemp(Path.join(os.tmpdir(), "mcpctl-settingsfile-"))),
  (dir) => Effect.promise(() => fs.rm(dir, { recursive: true, force: true }))
)
const readJson = (file: string) => Effect.promise(async () => JSON.parse(await fs.readFile(file, "utf8")))

describe("settings edits at the same time", () => {
  it.scoped("25 concurrent adds keep 25 entries", () =>
    Effect.gen(function*() {
      const file = Path.join(yield* tempDir, ".mcpctl", "settings.local.json")
      const names = Array.from({ length: 25 }, (_, i) => `s${i}`)
      yield* Effect.forEach(names, (name) => writeServerEntry(file, name, { command: "node", args: [`${name}.js`] }), {
        concurrency: "unbounded"
      })
      expect(Object.keys((yield* readJson(file)).mcpServers).sort()).toEqual([...names].sort())
      // The lock is gone once the edits are done, and the directory is an ordinary one.
      expect(yield* Effect.promise(() => fs.readdir(Path.dirname(file)))).toEqual(["settings.local.json"])
      expect((yield* Effect.promise(() => fs.stat(Path.dirname(file)))).mode & 0o777).toBe(0o755)
    }))

  it.scoped("5 concurrent \"always\" answers keep 5 rules, and removes race adds safely", () =>
    Effect.gen(function*() {
      const file = Path.join(yield* tempDir, "settings.json")
      yield* writeServerEntry(file, "gone", { command: "x" })
      const rules = ["mcp__a__x", "mcp__b__x", "mcp__c__x", "mcp__d__x", "mcp__e__x"]
      yield* Effect.all(
        [...rules.map((rule) => addPermissionRule(file, "allow", rule)), removeServerEntry(file, "gone")],
        { concurrency: "unbounded" }
      )
      const settings = yield* readJson(file)
      expect([...settings.permissions.allow].sort()).toEqual(rules)
      expect(settings.mcpServers).toEqual({})
    }))
})

describe("withFileLock", () => {
  it.scoped("waits for a lock another process holds; `fail` refuses to write without it, the default goes ahead", () =>
    Effect.gen(function*() {
      const file = Path.join(yield* tempDir, "settings.json")
      yield* Effect.promise(() => fs.writeFile(`${file}.lock`, "12345"))
      const refused = yield* Effect.promise(() =>
        withFileLock(file, async () => "wrote", { waitMs: 100, onTimeout: "fail" }).catch((e: unknown) => e)
      )
      expect(refused).toBeInstanceOf(LockTimeout)
      expect((refused as LockTimeout)._tag).toBe("LockTimeout")
      expect((refused as Error).message).toContain(`${file}.lock`)
      expect(yield* Effect.promise(() => withFileLock(file, async () => "wrote", { waitMs: 100 }))).toBe("wrote")
      // Released by its holder, it is taken.
      yield* Effect.promise(() => fs.rm(`${file}.lock`))
      expect(yield* Effect.promise(() => withFileLock(file, async () => "wrote", { waitMs: 100, onTimeout: "fail" }))).toBe("wrote")
    }))
})

describe("import's many-entry write", () => {
  it.scoped("takes the lock too: concurrent imports and adds keep every entry", () =>
    Effect.gen(function*() {
      const file = Path.join(yield* tempDir, "settings.json")
      yield* Effect.all([
        writeServerEntries(file, [{ name: "i1", config: { command: "a" } }, { name: "i2", config: { command: "b" } }]),
        writeServerEntries(file, [{ name: "i3", config: { command: "c" } }], { allow: ["mcp__i3__*"] }),
        writeServerEntry(file, "added", { command: "d" })
      ], { concurrency: "unbounded" })
      const settings = yield* readJson(file)
      expect(Object.keys(settings.mcpServers).sort()).toEqual(["added", "i1", "i2", "i3"])
      expect(settings.permissions.allow).toEqual(["mcp__i3__*"])
    }))
})
