// @ts-nocheck
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { mkdir } from "node:fs/promises"
import { homedir } from "node:os"
import * as Path from "node:path"
import type { ParsedSettings, ServerConfig } from "../src/config/ServerConfig.js"
import { defaultLimits, transportOf } from "../src/config/ServerConfig.js"
import * as SettingsLoad from "../src/internal/config/SettingsLoad.js"
import { left, right } from "./support/either.js"
import { put, withDirs } from "./support/files.js"

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
    expect(transportOf({ command: "x" })).toBe("stdio")
    expect(transportOf({ type: "http", url: "https://a/sse" })).toBe("http")
    expect(transportOf({ url: "https://a/sse" })).toBe("sse")
    expect(transportOf({ url: "https://a/sse/?x=1" })).toBe("sse")
    expect(transportOf({ url: "ws://127.0.0.1:7777/mcp" })).toBe("ws")
    expect(transportOf({ url: "wss://a/mcp" })).toBe("ws")
    expect(transportOf({ url: "https://a/mcp" })).toBe("auto")
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
        const cfg = yield* SettingsLoad.load({ cwd: project, home, trustProject: true, env: {}, configFiles: [c1, c2] })
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
        const e1 = yield* Effect.flip(SettingsLoad.load({ cwd: project, home, trustProject: true, env: {}, configFiles: [missing] }))
        expect(e1.message).toContain(missing)
        yield* put(Path.join(project, ".mcp.json"), { mcpServers: { fs: { command: "x", env: { T: "${TOKEN}" } } } })
        const loaded = yield* SettingsLoad.load({ cwd: project, home, trustProject: true, env: {} })
        const e2 = loaded.servers[0]!.unresolved!
        expect(e2.message).toContain("mcpServers.fs.env.T")
        expect(e2.message).toContain("${TOKEN}")
        expect(e2.message).toContain(Path.join(project, ".mcp.json"))
        expect(e2.path).toBe("mcpServers.fs.env.T")
        const e3 = yield* Effect.flip(SettingsLoad.load({ cwd: project, home, trustProject: true, env: { TOKEN: "t", MCP_TIMEOUT: "0" } }))
        expect(e3.message).toContain("MCP_TIMEOUT")
      })
    ))

  it.effect("a disabled server with an unset variable warns nowhere, and is marked for get", () =>
    withDirs(({ home, project }) =>
      Effect.gen(function*() {
        yield* put(Path.join(project, ".mcp.json"), { mcpServers: { off: { command: "${NOPE}", disabled: true } } })
        const cfg = yield* SettingsLoad.load({ cwd: project, home, trustProject: true, env: {} })
        expect(cfg.servers[0]!.config.disabled).toBe(true)
        expect(cfg.warnings.join("\n")).not.toContain("${NOPE}")
        expect(cfg.servers[0]!.unresolved?.message).toContain("${NOPE}")
      })
    ))

  it.effect("fails on a name collision across files", () =>
    withDirs(({ home, project }) =>
      Effect.gen(function*() {
        yield* put(Path.join(home, "settings.json"), { mcpServers: { "a.b": { command: "x" } } })
        yield* put(Path.join(project, ".mcp.json"), { mcpServers: { "a b": { command: "y" } } })
        const err = yield* Effect.flip(SettingsLoad.load({ cwd: project, home, trustProject: true, env: {} }))
        expect(err.message).toContain(Path.join(home, "settings.json"))
        expect(err.message).toContain(Path.join(project, ".mcp.json"))
      })
    ))
})

// ---------------------------------------------------------------------------------------------
// Edges of every step, with the exact messages a user reads
// ---------------------------------------------------------------------------------------------

describe("expandVars, edges", () => {
  it("takes names of letters, digits and _ not starting with a digit, and only the :- default form", () => {
    expect(right(SettingsLoad.expandVars("${_X1}-${a_b}", { _X1: "1", a_b: "2" }))).toBe("1-2")
    expect(right(SettingsLoad.expandVars("${1X} ${A-x} ${A:x} $A {A}", { A: "a" }))).toBe("${1X} ${A-x} ${A:x} $A {A}")
    expect(right(SettingsLoad.expandVars("${A:-d}", { A: "set" }))).toBe("set")
    expect(right(SettingsLoad.expandVars("${A:-a b/c}", {}))).toBe("a b/c")
    expect(right(SettingsLoad.expandVars("${A}${A}", { A: "x" }))).toBe("xx")
    expect(right(SettingsLoad.expandVars("${A}", { A: "" }))).toBe("")
    expect(left(SettingsLoad.expandVars("${X}", {}))).toEqual(["X"])
  })
})

describe("expandServer, exactly", () => {
  it("adds no field the entry does not have", () => {
    expect(right(SettingsLoad.expandServer("s", { command: "c" }, {}, "f"))).toStrictEqual({ command: "c" })
    expect(right(SettingsLoad.expandServer("s", { command: "c", args: [], env: {}, cwd: "" }, {}, "f"))).toStrictEqual({
      command: "c",
      args: [],
      env: {},
      cwd: ""
    })
    expect(right(SettingsLoad.expandServer("s", { url: "u", timeout: 5 }, {}, "f"))).toStrictEqual({ url: "u", timeout: 5 })
  })

  it("lists every unset variable of every field in one message", () => {
    const err = left(SettingsLoad.expandServer("fs", { command: "${C}", args: ["${A}", "${B} ${D}"], cwd: "${W}" }, {}, "/p/s.json"))
    expect(err.message).toBe(
      `/p/s.json: server "fs": mcpServers.fs.command uses \${C}; mcpServers.fs.args[0] uses \${A}; ` +
        `mcpServers.fs.args[1] uses \${B}, \${D}; mcpServers.fs.cwd uses \${W}, not set in the environment. ` +
        "Set the variable, or give a default with ${VAR:-default}."
    )
    expect(err.path).toBe("mcpServers.fs.command")
    expect(left(SettingsLoad.expandServer("fs", { command: "c", env: { K: "${K}" } }, {}, "f")).path).toBe("mcpServers.fs.env.K")
    expect(left(SettingsLoad.expandServer("api", { url: "https://${H}/mcp" }, {}, "f")).path).toBe("mcpServers.api.url")
  })
})

describe("transportOf, edges", () => {
  it("reads ws:// and wss:// in any case, and only as the scheme", () => {
    expect(transportOf({ url: "WS://h/mcp" })).toBe("ws")
    expect(transportOf({ url: "WSS://h/mcp" })).toBe("ws")
    expect(transportOf({ url: "https://h/ws://x" })).toBe("auto")
    expect(transportOf({ type: "sse", url: "ws://h/mcp" })).toBe("sse")
    expect(transportOf({ command: "x", type: "stdio" })).toBe("stdio")
  })

  it("decides /sse on the path alone, trailing slashes aside", () => {
    expect(transportOf({ url: "https://a/sse//" })).toBe("sse")
    expect(transportOf({ url: "https://a/x/sse#f" })).toBe("sse")
    expect(transportOf({ url: "https://a/ssex" })).toBe("auto")
    expect(transportOf({ url: "https://a/mcp?next=/sse" })).toBe("auto")
    expect(transportOf({ url: "https://a/mysse" })).toBe("auto")
  })

  it("decides the same for a URL that does not parse", () => {
    expect(transportOf({ url: "relative/sse/?q=1" })).toBe("sse")
    expect(transportOf({ url: "relative/sse#x" })).toBe("sse")
    expect(transportOf({ url: "relative/mcp?x=/sse" })).toBe("auto")
    expect(transportOf({ url: "relative/ssex" })).toBe("auto")
    expect(transportOf({ url: "relative/sse//" })).toBe("sse")
  })
})

describe("parseSettingsText, exactly", () => {
  it("a syntax error gives file:line:column, the parser's code and the fix", () => {
    const err = left(SettingsLoad.parseSettingsText(`{\n  "a": 1 "b"\n}`, "/p/s.json"))
    expect(err.message).toBe("/p/s.json:2:10: invalid JSON (CommaExpected). Fix the syntax at that position.")
    expect(err.path).toBeUndefined()
    // \r\n and \r count as one line break each.
    expect(left(SettingsLoad.parseSettingsText(`{\r\n"a": 1\r\n"b": 2}`, "f")).message).toMatch(/^f:3:1: /)
    expect(left(SettingsLoad.parseSettingsText(`{\r"a": 1\r"b": 2}`, "f")).message).toMatch(/^f:3:1: /)
    expect(left(SettingsLoad.parseSettingsText(`{ "a": 1 "b": 2 }`, "f")).message).toMatch(/^f:1:10: /)
  })

  it("settings that are not a JSON object are refused with the shape they need", () => {
    for (const text of ["[1]", `"x"`, "null", "5"]) {
      const err = left(SettingsLoad.parseSettingsText(text, "/p/s.json"))
      expect(err.message).toBe(`/p/s.json: the settings must be a JSON object like {"mcpServers": {...}}.`)
      expect(err.file).toBe("/p/s.json")
    }
  })

  it("lists every problem, one line per JSON path, then the fix", () => {
    const err = left(SettingsLoad.parseSettingsText(
      JSON.stringify({
        mcpServers: { a: 5, b: null, c: [], d: { type: "grpc", url: "u" }, e: { url: "u", headers: { X: 5 } } },
        permissions: { deny: [1] }
      }),
      "/p/s.json"
    ))
    expect(err.message).toBe(
      [
        "/p/s.json: invalid settings:",
        "  permissions.deny[0]: Expected string, actual 1",
        `  mcpServers.a: expected an object like {"command": "..."} or {"url": "..."}`,
        `  mcpServers.b: expected an object like {"command": "..."} or {"url": "..."}`,
        `  mcpServers.c: expected an object like {"command": "..."} or {"url": "..."}`,
        `  mcpServers.d.type: Expected "http" | "sse" | "ws", actual "grpc"`,
        "  mcpServers.e.headers.X: Expected string, actual 5",
        "Fix these fields (see docs/CLI.md, section Settings)."
      ].join("\n")
    )
    expect(err.path).toBe("permissions.deny[0]")
    expect(err.file).toBe("/p/s.json")
  })

  it("mcpServers and permissions that are not objects are problems of their own", () => {
    const err = left(SettingsLoad.parseSettingsText(JSON.stringify({ mcpServers: [1], permissions: "all" }), "f"))
    expect(err.message).toContain("\n  permissions: Expected ")
    expect(err.message).toContain("\n  mcpServers: Expected ")
  })

  it("allow, ask and deny are the known permission fields", () => {
    const s = right(SettingsLoad.parseSettingsText(JSON.stringify({ permissions: { allow: ["a"], ask: ["b"], deny: ["c"] } }), "f"))
    expect(s.permissions).toStrictEqual({ allow: ["a"], ask: ["b"], deny: ["c"] })
    expect(s.warnings).toEqual([])
  })

  it("missing lists and sections are empty, not errors", () => {
    expect(right(SettingsLoad.parseSettingsText(`{"permissions": {"ask": ["x"]}}`, "f"))).toStrictEqual({
      servers: [],
      permissions: { allow: [], ask: ["x"], deny: [] },
      warnings: []
    })
    expect(right(SettingsLoad.parseSettingsText(`{}`, "f")).permissions).toStrictEqual({ allow: [], ask: [], deny: [] })
  })

  it("warns about unknown fields of remote entries against the remote fields", () => {
    const s = right(SettingsLoad.parseSettingsText(
      JSON.stringify({ mcpServers: { r: { url: "u", oauth: { clientId: "c" }, command2: 1, cwd: "/x" } } }),
      "f"
    ))
    expect(s.servers).toStrictEqual([{ name: "r", config: { url: "u", oauth: { clientId: "c" } } }])
    expect(s.warnings).toEqual(["f: unknown field mcpServers.r.command2 is ignored", "f: unknown field mcpServers.r.cwd is ignored"])
  })
})

describe("mergeSettings, exactly", () => {
  it("a collision names the file and the entry of the later definition", () => {
    const err = left(SettingsLoad.mergeSettings([
      { scope: "user", source: "/u.json", settings: settings({ "a.b": { command: "a" } }) },
      { scope: "project", source: "/p.json", settings: settings({ "a b": { command: "b" } }) }
    ]))
    expect(err.message).toBe(`servers "a.b" (/u.json) and "a b" (/p.json) both normalize to "a_b"; rename one of them.`)
    expect(err.file).toBe("/p.json")
    expect(err.path).toBe("mcpServers.a b")
  })

  it("a name defined again in a higher scope is an override, not a collision; rules of every scope add up once", () => {
    const merged = right(SettingsLoad.mergeSettings([
      { scope: "user", source: "u", settings: { ...settings({ "a.b": { command: "u" } }, ["x"]), warnings: ["w1"] } },
      {
        scope: "project",
        source: "p",
        settings: {
          servers: [{ name: "a.b", config: { command: "p" } }],
          permissions: { allow: ["x", "y"], ask: ["q", "q"], deny: ["d"] },
          warnings: ["w2"]
        }
      }
    ]))
    expect(merged.servers).toStrictEqual([{ name: "a_b", originalName: "a.b", scope: "project", source: "p", config: { command: "p" } }])
    expect(merged.permissions).toStrictEqual({
      allow: ["x", "y"],
      // "y" is only the project's: it approves the project's servers' tools only.
      projectAllow: ["y"],
      projectServers: ["a_b"],
      ask: ["q"],
      deny: ["d"],
      // Where each rule was written, once per file, for messages that name it.
      sources: { allow: { x: ["u", "p"], y: ["p"] }, ask: { q: ["p"] }, deny: { d: ["p"] } }
    })
    // The files' own warnings, then one for the name rewritten for tool names.
    expect(merged.warnings).toEqual([
      "w1",
      "w2",
      'p: server "a.b" is "a_b" in tool names and rules (mcp__a_b__<tool>); rename it to letters, digits, _ and - to use one name everywhere'
    ])
  })
})

describe("resolveServers", () => {
  it("keeps the entry as written in rawConfig, resolves a relative cwd, decides the transport after expansion", () => {
    const { servers, warnings } = right(SettingsLoad.resolveServers(
      [
        { name: "fs", originalName: "fs", scope: "user", source: "/u.json", config: { command: "${C}", cwd: "sub" } },
        { name: "abs", originalName: "abs", scope: "user", source: "/u.json", config: { command: "c", cwd: "/abs" } },
        { name: "api", originalName: "api", scope: "user", source: "/u.json", config: { url: "${U}" } }
      ],
      { C: "node", U: "wss://h/mcp" },
      "/project"
    ))
    expect(servers[0]).toStrictEqual({
      name: "fs",
      originalName: "fs",
      scope: "user",
      source: "/u.json",
      config: { command: "node", cwd: "/project/sub" },
      rawConfig: { command: "${C}", cwd: "sub" },
      transport: "stdio"
    })
    expect(servers[1]!.config).toStrictEqual({ command: "c", cwd: "/abs" })
    expect(servers[2]!.transport).toBe("ws")
    expect(warnings).toEqual([])
  })

  it("a disabled entry with an unset variable is kept as written, marked, with no warning", () => {
    const { servers, warnings } = right(SettingsLoad.resolveServers(
      [{ name: "off", originalName: "off", scope: "user", source: "/u.json", config: { command: "${NOPE}", disabled: true } }],
      {},
      "/project"
    ))
    expect(servers[0]!.config).toStrictEqual({ command: "${NOPE}", disabled: true })
    expect(warnings).toEqual([])
    expect(servers[0]!.unresolved?.message).toBe(
      `/u.json: server "off": mcpServers.off.command uses \${NOPE}, not set in the environment. ` +
      "Set the variable, or give a default with ${VAR:-default}. (ignored: the server is disabled)"
    )
  })
})

describe("limitsFromEnv, edges", () => {
  it("reads every variable, trimmed; empty means the default", () => {
    expect(right(SettingsLoad.limitsFromEnv({
      MAX_MCP_OUTPUT_TOKENS: " 7 ",
      MCP_REMOTE_SERVER_CONNECTION_BATCH_SIZE: "2",
      MCP_TIMEOUT: "",
      MCP_TOOL_TIMEOUT: "  "
    }))).toStrictEqual({ ...defaultLimits, maxOutputTokens: 7, remoteConcurrency: 2 })
  })

  it("names the variable, its value and the fix; past the safe integers is an error too", () => {
    const err = left(SettingsLoad.limitsFromEnv({ MCP_REMOTE_SERVER_CONNECTION_BATCH_SIZE: "30s" }))
    expect(err.message).toBe("MCP_REMOTE_SERVER_CONNECTION_BATCH_SIZE=30s must be a positive whole number; fix or unset it.")
    expect(err.path).toBe("MCP_REMOTE_SERVER_CONNECTION_BATCH_SIZE")
    expect(left(SettingsLoad.limitsFromEnv({ MCP_TIMEOUT: "99999999999999999999" })).path).toBe("MCP_TIMEOUT")
    expect(left(SettingsLoad.limitsFromEnv({ MCP_TIMEOUT: "1e3" })).path).toBe("MCP_TIMEOUT")
    expect(left(SettingsLoad.limitsFromEnv({ MCP_TIMEOUT: "5x" })).path).toBe("MCP_TIMEOUT")
    expect(left(SettingsLoad.limitsFromEnv({ MCP_TIMEOUT: "x5" })).path).toBe("MCP_TIMEOUT")
    expect(right(SettingsLoad.limitsFromEnv({ MCP_TIMEOUT: "007" })).connectTimeoutMs).toBe(7)
  })
})

describe("settingsFiles, scopeFile, resolveHome", () => {
  it("lists every scope's files lowest precedence first, --config files absolute, each file once", () => {
    expect(SettingsLoad.settingsFiles("/p", "/h", ["/c.json", "/p/.mcp.json"])).toStrictEqual([
      { scope: "user", path: "/h/settings.json", required: false },
      { scope: "project", path: "/p/.mcp.json", required: false },
      { scope: "project", path: "/p/.mcpctl/settings.json", required: false },
      { scope: "local", path: "/p/.mcpctl/settings.local.json", required: false },
      { scope: "flag", path: "/c.json", required: true }
    ])
    expect(SettingsLoad.settingsFiles("/p", "/h").map((f) => f.scope)).toEqual(["user", "project", "project", "local"])
    expect(SettingsLoad.settingsFiles("/p", "/h", ["rel.json"]).at(-1)!.path).toBe(Path.resolve("rel.json"))
  })

  it("edits user, project and local scopes in their files", () => {
    expect(SettingsLoad.scopeFile("user", "/p", "/h")).toBe("/h/settings.json")
    expect(SettingsLoad.scopeFile("project", "/p", "/h")).toBe("/p/.mcp.json")
    expect(SettingsLoad.scopeFile("local", "/p", "/h")).toBe("/p/.mcpctl/settings.local.json")
  })

  it("home is the option, else MCPCTL_HOME, else ~/.mcpctl; always absolute", () => {
    expect(SettingsLoad.resolveHome({ MCPCTL_HOME: "/env" }, "/opt")).toBe("/opt")
    expect(SettingsLoad.resolveHome({ MCPCTL_HOME: "/env" })).toBe("/env")
    expect(SettingsLoad.resolveHome({ MCPCTL_HOME: "" })).toBe(Path.join(homedir(), ".mcpctl"))
    expect(SettingsLoad.resolveHome({})).toBe(Path.join(homedir(), ".mcpctl"))
    expect(SettingsLoad.resolveHome({}, "rel")).toBe(Path.resolve("rel"))
  })
})

describe("load, edges", () => {
  it.effect("a --config file that is also a scope's file is read once, in its scope; ad-hoc stdio servers say --stdio", () =>
    withDirs(({ home, project }) =>
      Effect.gen(function*() {
        const file = Path.join(project, ".mcp.json")
        yield* put(file, { mcpServers: { fs: { command: "x" } }, theme: 1 })
        const cfg = yield* SettingsLoad.load({
          cwd: project,
          home,
          env: {},
          trustProject: true,
          configFiles: [file],
          adhoc: [{ name: "tmp", config: { command: "y" } }]
        })
        expect(cfg.servers.map((s) => [s.name, s.scope, s.source])).toEqual([
          ["fs", "project", file],
          ["tmp", "adhoc", "--stdio"]
        ])
        expect(cfg.warnings).toEqual([`${file}: unknown field theme is ignored`])
        expect(cfg.permissions).toStrictEqual({ allow: [], ask: [], deny: [], sources: { allow: {}, ask: {}, deny: {} } })
        expect(cfg.limits).toStrictEqual(defaultLimits)
      })
    ))

  it.effect("a settings file that cannot be read is named with the reason; only --config files suggest the path", () =>
    withDirs(({ home, project, root }) =>
      Effect.gen(function*() {
        const file = Path.join(project, ".mcp.json")
        yield* Effect.promise(() => mkdir(file))
        const e1 = yield* Effect.flip(SettingsLoad.load({ cwd: project, home, trustProject: true, env: {} }))
        expect(e1.message).toBe(
          `${file}: cannot read settings: ${file} is a directory, not a regular file. Settings must be a regular JSON file; remove or replace it.`
        )
        expect(e1.file).toBe(file)
        const missing = Path.join(root, "nope.json")
        const e2 = yield* Effect.flip(SettingsLoad.load({ cwd: root, home, env: {}, configFiles: [missing] }))
        expect(e2.message).toBe(`${missing}: cannot read settings file (ENOENT). Check the --config path.`)
        const e3 = yield* Effect.flip(SettingsLoad.load({ cwd: root, home, env: {}, configFiles: [project] }))
        expect(e3.message).toBe(
          `${project}: cannot read settings: ${project} is a directory, not a regular file. Settings must be a regular JSON file; check the --config path.`
        )
      })
    ))

  it.effect("a file with an error fails the load with that file's message", () =>
    withDirs(({ home, project }) =>
      Effect.gen(function*() {
        yield* put(Path.join(home, "settings.json"), "[]")
        const err = yield* Effect.flip(SettingsLoad.load({ cwd: project, home, trustProject: true, env: {} }))
        expect(err.message).toBe(`${Path.join(home, "settings.json")}: the settings must be a JSON object like {"mcpServers": {...}}.`)
      })
    ))
})
