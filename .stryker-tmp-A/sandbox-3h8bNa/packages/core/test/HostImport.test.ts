// @ts-nocheck
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import * as Path from "node:path"
import { hostFiles, importHosts, readHost } from "../src/internal/config/HostImport.js"
import { writeServerEntries } from "../src/internal/config/SettingsFile.js"

const places = (platform: NodeJS.Platform, env: Record<string, string> = {}) => ({ userHome: "/h", projectDir: "/p", platform, env })

describe("hostFiles", () => {
  it("knows every host's files on Linux", () => {
    expect(Object.fromEntries(importHosts.map((h) => [h, hostFiles(h, places("linux"))]))).toEqual({
      "claude-desktop": ["/h/.config/Claude/claude_desktop_config.json"],
      "claude-code": ["/h/.claude.json"],
      cursor: ["/h/.cursor/mcp.json", "/p/.cursor/mcp.json"],
      vscode: ["/h/.config/Code/User/mcp.json", "/p/.vscode/mcp.json"],
      windsurf: ["/h/.codeium/windsurf/mcp_config.json"],
      codex: ["/h/.codex/config.toml"],
      gemini: ["/h/.gemini/settings.json", "/p/.gemini/settings.json"]
    })
  })
  it("on macOS, and with XDG_CONFIG_HOME, CODEX_HOME, CLAUDE_CONFIG_DIR", () => {
    expect(hostFiles("claude-desktop", places("darwin"))).toEqual(["/h/Library/Application Support/Claude/claude_desktop_config.json"])
    expect(hostFiles("vscode", places("darwin"))[0]).toBe("/h/Library/Application Support/Code/User/mcp.json")
    const env = { XDG_CONFIG_HOME: "/x", CODEX_HOME: "/c", CLAUDE_CONFIG_DIR: "/cc" }
    expect(hostFiles("vscode", places("linux", env))[0]).toBe("/x/Code/User/mcp.json")
    expect(hostFiles("codex", places("linux", env))).toEqual(["/c/config.toml"])
    expect(hostFiles("claude-code", places("linux", env))[0]).toBe("/cc/.claude.json")
  })
})

const withDir = <A, E>(f: (dir: string) => Effect.Effect<A, E>) =>
  Effect.acquireUseRelease(
    Effect.promise(() => mkdtemp(Path.join(tmpdir(), "mcpctl-import-"))),
    f,
    (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }))
  )

describe("readHost", () => {
  it.effect("reads the host's default files that exist, the project's winning; none is a usage error", () =>
    withDir((dir) =>
      Effect.gen(function*() {
        const home = Path.join(dir, "home"), project = Path.join(dir, "project")
        yield* Effect.promise(async () => {
          await mkdir(Path.join(home, ".gemini"), { recursive: true })
          await mkdir(Path.join(project, ".gemini"), { recursive: true })
          await writeFile(Path.join(home, ".gemini/settings.json"), JSON.stringify({ mcpServers: { a: { command: "user" }, t: { httpUrl: "https://t/mcp", trust: true } } }))
          await writeFile(Path.join(project, ".gemini/settings.json"), JSON.stringify({ mcpServers: { a: { command: "project", includeTools: ["x"] } } }))
        })
        const plan = yield* readHost("gemini", undefined, { userHome: home, projectDir: project, platform: "linux", env: {} })
        expect(plan.sources).toHaveLength(2)
        expect(plan.servers.map((s) => [s.name, s.entry])).toEqual([
          ["t", { url: "https://t/mcp", type: "http" }],
          ["a", { command: "project", includeTools: ["x"] }]
        ])
        expect(plan.allow).toEqual(["mcp__t"])
        // Tool filters are mcpctl settings too (catalog/ToolFilter.ts): nothing left unhonoured.
        expect(plan.unhonoured).toEqual([])
        const none = yield* Effect.flip(readHost("windsurf", undefined, { userHome: home, projectDir: project, platform: "linux", env: {} }))
        expect(none._tag).toBe("UsageError")
        expect(none.message).toContain(Path.join(home, ".codeium/windsurf/mcp_config.json"))
      })))
})

describe("writeServerEntries", () => {
  it.effect("writes new servers and allow rules in one edit, keeps comments, skips clashes unless force", () =>
    withDir((dir) =>
      Effect.gen(function*() {
        const file = Path.join(dir, "settings.json")
        yield* Effect.promise(() => writeFile(file, `{\n  // keep me\n  "mcpServers": { "a": { "command": "old" } }\n}\n`))
        const first = yield* writeServerEntries(file, [{ name: "a", config: { command: "new" } }, { name: "b", config: { url: "https://b" } }], { allow: ["mcp__b"] })
        expect(first).toEqual({ added: ["b"], replaced: [], skipped: ["a"], allowed: ["mcp__b"] })
        let text = yield* Effect.promise(() => readFile(file, "utf8"))
        expect(text).toContain("// keep me")
        expect(JSON.parse(text.replace("// keep me", ""))).toEqual({
          mcpServers: { a: { command: "old" }, b: { url: "https://b" } },
          permissions: { allow: ["mcp__b"] }
        })
        const dry = yield* writeServerEntries(file, [{ name: "a", config: { command: "new" } }], { force: true, dryRun: true, allow: ["mcp__b", "mcp__c"] })
        expect(dry).toEqual({ added: [], replaced: ["a"], skipped: [], allowed: ["mcp__c"] })
        expect(yield* Effect.promise(() => readFile(file, "utf8"))).toBe(text)
        yield* writeServerEntries(file, [{ name: "a", config: { command: "new" } }], { force: true, allow: ["mcp__c"] })
        text = yield* Effect.promise(() => readFile(file, "utf8"))
        expect(JSON.parse(text.replace("// keep me", ""))).toMatchObject({ mcpServers: { a: { command: "new" } }, permissions: { allow: ["mcp__b", "mcp__c"] } })
      })))
})
