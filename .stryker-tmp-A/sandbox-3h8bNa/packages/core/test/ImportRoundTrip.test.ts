/**
 * `import` writes only what mcpctl's own loader accepts: every host format of examples/hosts
 * imported into a fresh settings file, then loaded; hostile and mistyped entries skipped with the
 * loader's reason; keys such as `__proto__` never become settings, in any file mcpctl reads.
 */
// @ts-nocheck

import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { type ImportHost, importHosts, readHost } from "../src/internal/config/HostImport.js"
import { writeServerEntries } from "../src/internal/config/SettingsFile.js"
import { parseSettingsText } from "../src/internal/config/SettingsLoad.js"
import { parseJsoncSafe } from "../src/internal/SafeJson.js"

const repo = fileURLToPath(new URL("../../../", import.meta.url))
const example: Record<ImportHost, string> = {
  "claude-desktop": "examples/hosts/claude-desktop/claude_desktop_config.json",
  "claude-code": "examples/hosts/claude-code/.claude.json",
  cursor: "examples/hosts/cursor/.cursor/mcp.json",
  vscode: "examples/hosts/vscode/.vscode/mcp.json",
  windsurf: "examples/hosts/windsurf/mcp_config.json",
  codex: "examples/hosts/codex/config.toml",
  gemini: "examples/hosts/gemini/.gemini/settings.json"
}

const withDir = <A, E>(f: (dir: string) => Effect.Effect<A, E>) =>
  Effect.acquireUseRelease(
    Effect.promise(() => mkdtemp(Path.join(tmpdir(), "mcpctl-roundtrip-"))),
    f,
    (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }))
  )

/** Imports a host's file into `target` and loads `target` back as mcpctl would. */
const importAndLoad = (host: ImportHost, file: string, target: string, project: string) =>
  Effect.gen(function*() {
    const plan = yield* readHost(host, file, { userHome: project, projectDir: project, platform: "linux", env: {} })
    yield* writeServerEntries(target, plan.servers.map((s) => ({ name: s.name, config: s.entry })), { allow: plan.allow })
    const loaded = parseSettingsText(yield* Effect.promise(() => readFile(target, "utf8")), target)
    return { plan, loaded }
  })

describe("import → load round trip", () => {
  it.effect.each(importHosts.map((h) => [h]))("%s: every imported entry loads", ([host]) =>
    withDir((dir) =>
      Effect.gen(function*() {
        const { plan, loaded } = yield* importAndLoad(host, Path.join(repo, example[host]), Path.join(dir, "settings.json"), dir)
        expect(plan.servers.length).toBeGreaterThan(0)
        expect(Either.isRight(loaded), Either.isLeft(loaded) ? loaded.left.message : "").toBe(true)
        if (Either.isRight(loaded)) expect(loaded.right.servers.map((s) => s.name).sort()).toEqual(plan.servers.map((s) => s.name).sort())
      })))

  it.effect("codex entries the loader would refuse are skipped with its reason; the rest import and load", () =>
    withDir((dir) =>
      Effect.gen(function*() {
        const file = Path.join(dir, "config.toml")
        yield* Effect.promise(() => writeFile(file, [
          `[mcp_servers.ok]\ncommand = "node"\nargs = ["x.js"]`,
          `[mcp_servers.badtimeout]\ncommand = "node"\ntool_timeout_sec = "30"`,
          `[mcp_servers.badargs]\ncommand = "node"\nargs = [1, 2]`,
          `[mcp_servers.badproto]\ncommand = "node"\nprotocol = "newest"`,
          `[mcp_servers.__proto__]\ncommand = "evil"`,
          `[mcp_servers.constructor]\ncommand = "evil"`
        ].join("\n\n") + "\n"))
        const { plan, loaded } = yield* importAndLoad("codex", file, Path.join(dir, "settings.json"), dir)
        expect(plan.servers.map((s) => s.name)).toEqual(["ok"])
        expect(plan.invalid.map((i) => i.name)).toEqual(["badtimeout", "badargs", "badproto"])
        expect(plan.invalid[0]!.reason).toContain("timeout")
        expect(plan.invalid[2]!.reason).toContain("protocol")
        expect(plan.unhonoured).toEqual(expect.arrayContaining([expect.stringContaining("mcp_servers.__proto__"), expect.stringContaining("mcp_servers.constructor")]))
        expect(Either.isRight(loaded)).toBe(true)
      })))
})

describe("keys that would reach an object's prototype", () => {
  it("a __proto__ key does not make permissions appear, and is named in a warning", () => {
    const text = `{ "mcpServers": {}, "__proto__": { "permissions": { "allow": ["mcp__*"] } } }`
    const parsed = parseSettingsText(text, "/p/settings.json")
    expect(Either.isRight(parsed)).toBe(true)
    if (Either.isRight(parsed)) {
      expect(parsed.right.permissions.allow).toEqual([])
      expect(parsed.right.warnings.join("\n")).toContain("/p/settings.json: key __proto__ cannot be a setting")
    }
  })

  it("parseJsoncSafe drops __proto__, constructor and prototype at any depth, keeps the rest", () => {
    const { unsafeKeys, value } = parseJsoncSafe(
      `{ "a": { "__proto__": { "x": 1 }, "b": [ { "constructor": 2, "c": 3 } ] }, // comment\n "prototype": 4, }`,
      []
    )
    expect(value).toEqual({ a: { b: [{ c: 3 }] } })
    expect(Object.getPrototypeOf((value as { a: object }).a)).toBe(Object.prototype)
    expect(unsafeKeys).toEqual(["a.__proto__", "a.b.0.constructor", "prototype"])
  })
})
