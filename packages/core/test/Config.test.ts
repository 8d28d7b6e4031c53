import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import * as Path from "node:path"
import { McpConfig } from "../src/config/McpConfig.js"
import type { ParsedSettings, ServerConfig } from "../src/config/ServerConfig.js"
import { defaultLimits } from "../src/config/ServerConfig.js"
import * as SettingsLoad from "../src/config/SettingsLoad.js"
import { addPermissionRule, removeServerEntry, writeServerEntry } from "../src/config/SettingsFile.js"

const left = <A, E>(e: Either.Either<A, E>): E => {
  if (Either.isRight(e)) throw new Error(`expected Left, got ${JSON.stringify(e.right)}`)
  return e.left
}
const right = <A, E>(e: Either.Either<A, E>): A => {
  if (Either.isLeft(e)) throw new Error(`expected Right, got ${String((e.left as { message?: string }).message ?? e.left)}`)
  return e.right
}

/** A temp project dir and home dir, removed after the effect. */
const withDirs = <A, E>(f: (d: { root: string; project: string; home: string }) => Effect.Effect<A, E>) =>
  Effect.acquireUseRelease(
    Effect.promise(async () => {
      const root = await mkdtemp(Path.join(tmpdir(), "mcpctl-config-"))
      const project = Path.join(root, "project"), home = Path.join(root, "home")
      await mkdir(Path.join(project, ".mcpctl"), { recursive: true })
      await mkdir(home, { recursive: true })
      return { root, project, home }
    }),
    f,
    ({ root }) => Effect.promise(() => rm(root, { recursive: true, force: true }))
  )
const put = (file: string, value: unknown) =>
  Effect.promise(() => writeFile(file, typeof value === "string" ? value : JSON.stringify(value)))

describe("normalizeServerName", () => {
  it("replaces disallowed characters and collapses underscores", () => {
    expect(SettingsLoad.normalizeServerName("my.server")).toBe("my_server")
    expect(SettingsLoad.normalizeServerName("a  b__c")).toBe("a_b_c")
    expect(SettingsLoad.normalizeServerName("ok-Name_1")).toBe("ok-Name_1")
    expect(SettingsLoad.normalizeServerName("üñí")).toBe("_")
  })
})

describe("expandVars", () => {
  it("expands set variables and defaults", () => {
    expect(right(SettingsLoad.expandVars("${A}/x/${B:-dflt}", { A: "a" }))).toBe("a/x/dflt")
    expect(right(SettingsLoad.expandVars("${B:-dflt}", { B: "" }))).toBe("dflt")
    expect(right(SettingsLoad.expandVars("${B:-}", {}))).toBe("")
    expect(right(SettingsLoad.expandVars("no vars $HOME", {}))).toBe("no vars $HOME")
  })
  it("reports every missing variable", () => {
    expect(left(SettingsLoad.expandVars("${X} ${Y} ${Z:-z}", {}))).toEqual(["X", "Y"])
  })
  it("names the server, the field, the variable and the file", () => {
    const err = left(SettingsLoad.expandServer("fs", { command: "npx", args: ["-y", "pkg", "${ROOT}"] }, {}, "/p/.mcp.json"))
    expect(err._tag).toBe("ConfigError")
    expect(err.message).toContain("fs")
    expect(err.message).toContain("mcpServers.fs.args[2]")
    expect(err.message).toContain("${ROOT}")
    expect(err.message).toContain("/p/.mcp.json")
    expect(err.file).toBe("/p/.mcp.json")
    expect(err.path).toBe("mcpServers.fs.args[2]")
  })
  it("expands env, url and headers", () => {
    const env = { T: "tok", H: "h" }
    expect(right(SettingsLoad.expandServer("s", { command: "c", env: { K: "${T}" }, cwd: "${H}" }, env, "f"))).toEqual({
      command: "c",
      env: { K: "tok" },
      cwd: "h"
    })
    expect(right(SettingsLoad.expandServer("api", { url: "https://${H}/mcp", headers: { A: "Bearer ${T}" } }, env, "f")))
      .toEqual({ url: "https://h/mcp", headers: { A: "Bearer tok" } })
    expect(left(SettingsLoad.expandServer("api", { url: "u", headers: { A: "${NOPE}" } }, env, "f")).path).toBe(
      "mcpServers.api.headers.A"
    )
  })
})

describe("transportOf", () => {
  it("decides the transport from command, type and url", () => {
    expect(SettingsLoad.transportOf({ command: "x" })).toBe("stdio")
    expect(SettingsLoad.transportOf({ type: "http", url: "https://a/sse" })).toBe("http")
    expect(SettingsLoad.transportOf({ url: "https://a/sse" })).toBe("sse")
    expect(SettingsLoad.transportOf({ url: "https://a/sse/?x=1" })).toBe("sse")
    expect(SettingsLoad.transportOf({ url: "ws://127.0.0.1:7777/mcp" })).toBe("ws")
    expect(SettingsLoad.transportOf({ url: "wss://a/mcp" })).toBe("ws")
    expect(SettingsLoad.transportOf({ url: "https://a/mcp" })).toBe("auto")
  })
})

describe("parseSettingsText", () => {
  it("accepts comments and trailing commas", () => {
    const s = right(SettingsLoad.parseSettingsText(
      `{
        // servers
        "mcpServers": { "fs": { "command": "npx", "args": ["a",], }, /* c */ },
        "permissions": { "allow": ["mcp__fs__read",] },
      }`,
      "/p/.mcp.json"
    ))
    expect(s.servers).toEqual([{ name: "fs", config: { command: "npx", args: ["a"] } }])
    expect(s.permissions.allow).toEqual(["mcp__fs__read"])
    expect(s.warnings).toEqual([])
  })
  it("treats an empty file as empty settings", () => {
    expect(right(SettingsLoad.parseSettingsText("  \n", "f")).servers).toEqual([])
  })
  it("reports a syntax error with file and line:column", () => {
    const err = left(SettingsLoad.parseSettingsText(`{\n  "mcpServers": {\n    "fs": { "command" "x" }\n  }\n}`, "/p/s.json"))
    expect(err.message).toContain("/p/s.json:3:")
    expect(err.file).toBe("/p/s.json")
  })
  it("reports schema errors with the JSON path and the file", () => {
    const err = left(SettingsLoad.parseSettingsText(
      JSON.stringify({ mcpServers: { fs: { command: 5, args: ["ok", 7] }, ok: { url: "u" } } }),
      "/p/.mcp.json"
    ))
    expect(err.message).toContain("/p/.mcp.json")
    expect(err.message).toContain("mcpServers.fs.command: Expected string")
    expect(err.message).toContain("mcpServers.fs.args[1]: Expected string")
    expect(err.path).toBe("mcpServers.fs.command")
  })
  it("rejects both command and url, and neither, with a fix", () => {
    const both = left(SettingsLoad.parseSettingsText(JSON.stringify({ mcpServers: { x: { command: "c", url: "u" } } }), "f"))
    expect(both.message).toContain(`mcpServers.x: has both "command" and "url"`)
    const none = left(SettingsLoad.parseSettingsText(JSON.stringify({ mcpServers: { x: { args: [] } } }), "f"))
    expect(none.message).toContain(`needs "command"`)
  })
  it("rejects a bad type and permissions that are not string arrays", () => {
    const err = left(SettingsLoad.parseSettingsText(
      JSON.stringify({ mcpServers: { a: { type: "grpc", url: "u" } }, permissions: { allow: "x" } }),
      "f"
    ))
    expect(err.message).toContain("mcpServers.a.type")
    expect(err.message).toContain("permissions.allow")
  })
  it("keeps unknown fields out of the config and warns about them", () => {
    const s = right(SettingsLoad.parseSettingsText(
      JSON.stringify({
        mcpServers: { fs: { command: "c", alwaysAllow: ["x"] } },
        permissions: { defaultMode: "x" },
        theme: "dark"
      }),
      "/p/s.json"
    ))
    expect(s.servers[0]!.config).toEqual({ command: "c" })
    expect(s.warnings).toEqual([
      "/p/s.json: unknown field theme is ignored",
      "/p/s.json: unknown field permissions.defaultMode is ignored",
      "/p/s.json: unknown field mcpServers.fs.alwaysAllow is ignored"
    ])
  })
})

const settings = (servers: Record<string, ServerConfig>, allow: Array<string> = []): ParsedSettings => ({
  servers: Object.entries(servers).map(([name, config]) => ({ name, config })),
  permissions: { allow, ask: [], deny: [] },
  warnings: []
})

describe("mergeSettings", () => {
  it("takes the whole entry from the highest scope and concatenates rules", () => {
    const merged = right(SettingsLoad.mergeSettings([
      { scope: "user", source: "u", settings: settings({ fs: { command: "a", args: ["1"] }, x: { url: "u" } }, ["r1", "r2"]) },
      { scope: "local", source: "l", settings: settings({ fs: { command: "b" } }, ["r2", "r3"]) }
    ]))
    expect(merged.servers.find((s) => s.name === "fs")).toEqual({
      name: "fs",
      originalName: "fs",
      scope: "local",
      source: "l",
      config: { command: "b" }
    })
    expect(merged.permissions.allow).toEqual(["r1", "r2", "r3"])
  })
  it("fails when two names normalize to one, naming both and their files", () => {
    const err = left(SettingsLoad.mergeSettings([
      { scope: "user", source: "/home/settings.json", settings: settings({ "my.server": { command: "a" } }) },
      { scope: "project", source: "/p/.mcp.json", settings: settings({ "my server": { command: "b" } }) }
    ]))
    expect(err.message).toContain(`"my.server" (/home/settings.json)`)
    expect(err.message).toContain(`"my server" (/p/.mcp.json)`)
    expect(err.message).toContain(`"my_server"`)
  })
})

describe("limitsFromEnv", () => {
  it("uses defaults and reads overrides", () => {
    expect(right(SettingsLoad.limitsFromEnv({}))).toEqual(defaultLimits)
    expect(right(SettingsLoad.limitsFromEnv({ MCP_TIMEOUT: "5000", MCP_TOOL_TIMEOUT: "100", MCP_SERVER_CONNECTION_BATCH_SIZE: "1" })))
      .toEqual({ ...defaultLimits, connectTimeoutMs: 5000, toolTimeoutMs: 100, localConcurrency: 1 })
  })
  it("rejects non-positive or non-integer values naming the variable", () => {
    for (const bad of ["0", "-1", "1.5", "30s", "abc"]) {
      const err = left(SettingsLoad.limitsFromEnv({ MAX_MCP_OUTPUT_TOKENS: bad }))
      expect(err.message).toContain("MAX_MCP_OUTPUT_TOKENS")
    }
  })
})

describe("load", () => {
  it.effect("applies scope precedence over real files", () =>
    withDirs(({ home, project, root }) =>
      Effect.gen(function*() {
        yield* put(Path.join(home, "settings.json"), {
          mcpServers: { fs: { command: "user" }, u: { url: "https://u/sse" } },
          permissions: { allow: ["a"] }
        })
        yield* put(Path.join(project, ".mcp.json"), `{ "mcpServers": { "fs": { "command": "mcp-json" }, }, }`)
        yield* put(Path.join(project, ".mcpctl", "settings.json"), { mcpServers: { p: { command: "p" } } })
        yield* put(Path.join(project, ".mcpctl", "settings.local.json"), {
          mcpServers: { fs: { command: "local", cwd: "./work" } },
          permissions: { allow: ["b"], deny: ["d"] }
        })
        const c1 = Path.join(root, "c1.json"), c2 = Path.join(root, "c2.json")
        yield* put(c1, { mcpServers: { p: { command: "c1" }, q: { command: "c1" } } })
        yield* put(c2, { mcpServers: { q: { command: "c2" } } })
        const cfg = yield* SettingsLoad.load({ cwd: project, home, env: {}, configFiles: [c1, c2] })
        const byName = Object.fromEntries(cfg.servers.map((s) => [s.name, s]))
        expect(byName.fs!.config).toEqual({ command: "local", cwd: Path.join(project, "work") })
        expect(byName.fs!.scope).toBe("local")
        expect(byName.u!.transport).toBe("sse")
        expect(byName.u!.scope).toBe("user")
        expect(byName.p!).toMatchObject({ scope: "flag", source: c1, config: { command: "c1" } })
        expect(byName.q!).toMatchObject({ scope: "flag", source: c2, config: { command: "c2" } })
        expect(cfg.permissions).toMatchObject({ allow: ["a", "b"], ask: [], deny: ["d"] })
        // Each rule remembers its file, so a denial names where to edit it.
        expect(cfg.permissions.sources?.deny).toEqual({ d: [Path.join(project, ".mcpctl", "settings.local.json")] })
        expect(cfg.projectDir).toBe(project)
        expect(cfg.home).toBe(home)
      })
    ))

  it.effect("reads MCPCTL_HOME from env, adds ad-hoc servers on top, expands variables", () =>
    withDirs(({ home, project }) =>
      Effect.gen(function*() {
        yield* put(Path.join(home, "settings.json"), { mcpServers: { api: { url: "https://${HOST}/mcp" } } })
        const cfg = yield* SettingsLoad.load({
          cwd: project,
          env: { MCPCTL_HOME: home, HOST: "h.example", MCP_TIMEOUT: "10" },
          adhoc: [{ name: "x", config: { url: "ws://localhost/x" } }]
        })
        expect(cfg.servers.map((s) => [s.name, s.scope, s.source, s.transport])).toEqual([
          ["api", "user", Path.join(home, "settings.json"), "auto"],
          ["x", "adhoc", "--url", "ws"]
        ])
        expect(cfg.servers[0]!.config).toEqual({ url: "https://h.example/mcp" })
        expect(cfg.limits.connectTimeoutMs).toBe(10)
      })
    ))

  it.effect("fails on a missing --config file and a bad limit; a missing variable fails only its server", () =>
    withDirs(({ home, project, root }) =>
      Effect.gen(function*() {
        const missing = Path.join(root, "nope.json")
        const e1 = yield* Effect.flip(SettingsLoad.load({ cwd: project, home, env: {}, configFiles: [missing] }))
        expect(e1.message).toContain(missing)
        yield* put(Path.join(project, ".mcp.json"), { mcpServers: { fs: { command: "x", env: { T: "${TOKEN}" } } } })
        const loaded = yield* SettingsLoad.load({ cwd: project, home, env: {} })
        const e2 = loaded.servers[0]!.unresolved!
        expect(e2.message).toContain("mcpServers.fs.env.T")
        expect(e2.message).toContain("${TOKEN}")
        expect(e2.message).toContain(Path.join(project, ".mcp.json"))
        expect(e2.path).toBe("mcpServers.fs.env.T")
        const e3 = yield* Effect.flip(SettingsLoad.load({ cwd: project, home, env: { TOKEN: "t", MCP_TIMEOUT: "0" } }))
        expect(e3.message).toContain("MCP_TIMEOUT")
      })
    ))

  it.effect("a disabled server with an unset variable only warns", () =>
    withDirs(({ home, project }) =>
      Effect.gen(function*() {
        yield* put(Path.join(project, ".mcp.json"), { mcpServers: { off: { command: "${NOPE}", disabled: true } } })
        const cfg = yield* SettingsLoad.load({ cwd: project, home, env: {} })
        expect(cfg.servers[0]!.config.disabled).toBe(true)
        expect(cfg.warnings.join("\n")).toContain("${NOPE}")
      })
    ))

  it.effect("fails on a name collision across files", () =>
    withDirs(({ home, project }) =>
      Effect.gen(function*() {
        yield* put(Path.join(home, "settings.json"), { mcpServers: { "a.b": { command: "x" } } })
        yield* put(Path.join(project, ".mcp.json"), { mcpServers: { "a b": { command: "y" } } })
        const err = yield* Effect.flip(SettingsLoad.load({ cwd: project, home, env: {} }))
        expect(err.message).toContain(Path.join(home, "settings.json"))
        expect(err.message).toContain(Path.join(project, ".mcp.json"))
      })
    ))
})

describe("layerStatic", () => {
  it.effect("builds the service from in-code servers", () =>
    Effect.gen(function*() {
      const cfg = yield* McpConfig
      expect(cfg.servers.map((s) => [s.name, s.originalName, s.transport])).toEqual([["my_fs", "my.fs", "stdio"]])
      expect(cfg.servers[0]!.config).toEqual({ command: "node", args: ["/tmp/x"] })
      expect(cfg.limits).toEqual({ ...defaultLimits, connectTimeoutMs: 5 })
      expect(cfg.permissions).toEqual({ allow: ["mcp__my_fs"], ask: [], deny: [] })
    }).pipe(Effect.provide(McpConfig.layerStatic({
      servers: { "my.fs": { command: "node", args: ["${D}/x"] } },
      env: { D: "/tmp" },
      permissions: { allow: ["mcp__my_fs"] },
      limits: { connectTimeoutMs: 5 }
    }))))
})

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
