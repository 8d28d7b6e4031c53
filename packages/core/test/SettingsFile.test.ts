import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { readFile } from "node:fs/promises"
import * as Path from "node:path"
import { addPermissionRule, removeServerEntry, writeServerEntry } from "../src/config/SettingsFile.js"
import * as SettingsLoad from "../src/config/SettingsLoad.js"
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
