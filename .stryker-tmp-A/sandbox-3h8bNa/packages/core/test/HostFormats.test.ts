// @ts-nocheck
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { readFileSync } from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import {
  detectFormat,
  type HostContext,
  type HostSettings,
  inputVariable,
  jsonLine,
  parseEnvFile,
  readHostSettings,
  tomlLine
} from "../src/internal/config/HostFormats.js"
import { McpConfig } from "../src/config/McpConfig.js"
import { parseSettingsText } from "../src/internal/config/SettingsLoad.js"

const repo = Path.resolve(Path.dirname(fileURLToPath(import.meta.url)), "../../..")
const fixture = (rel: string) => Path.join(repo, "examples/hosts", rel)
const ctx: HostContext = { projectDir: repo, mode: "read", readText: (f) => readFileSync(f, "utf8") }

const right = <A, E>(e: Either.Either<A, E>): A => {
  if (Either.isLeft(e)) throw new Error(String((e.left as { message?: string }).message ?? e.left))
  return e.right
}
const left = <A, E>(e: Either.Either<A, E>): E => {
  if (Either.isRight(e)) throw new Error(`expected Left, got ${JSON.stringify(e.right)}`)
  return e.left
}
const read = (text: string, file: string, c: Partial<HostContext> = {}): HostSettings =>
  right(readHostSettings(text, file, { ...ctx, ...c }))
const entries = (s: HostSettings) => Object.fromEntries(s.servers.map((x) => [x.name, x.entry]))

const fixtures = {
  "claude-desktop": "claude-desktop/claude_desktop_config.json",
  "claude-code": "claude-code/.claude.json",
  cursor: "cursor/.cursor/mcp.json",
  vscode: "vscode/.vscode/mcp.json",
  windsurf: "windsurf/mcp_config.json",
  codex: "codex/config.toml",
  gemini: "gemini/.gemini/settings.json"
} as const

describe("every host's fixture", () => {
  for (const [format, rel] of Object.entries(fixtures)) {
    it(`${format}: detected, and holds the three reference servers as mcpctl entries`, () => {
      const file = fixture(rel)
      const s = read(readFileSync(file, "utf8"), file)
      expect(s.format).toBe(format)
      const byName = entries(s)
      for (const name of ["everything", "filesystem", "memory"]) {
        expect(byName[name]).toMatchObject({ command: "node" })
        expect(String((byName[name]!.args as Array<string>)[0])).toMatch(/node_modules\/@modelcontextprotocol\/server-/)
      }
    })
  }
})

describe("detectFormat", () => {
  it("goes by the file name first, then by the shape", () => {
    expect(detectFormat("/x/config.toml", undefined)).toBe("codex")
    expect(detectFormat("/h/.claude.json", {})).toBe("claude-code")
    expect(detectFormat("/a/Claude/claude_desktop_config.json", { mcpServers: {} })).toBe("claude-desktop")
    expect(detectFormat("/p/x.json", { servers: {} })).toBe("vscode")
    expect(detectFormat("/u/settings.json", { mcp: { servers: {} } })).toBe("vscode")
    expect(detectFormat("/p/.cursor/mcp.json", { mcpServers: {} })).toBe("cursor")
    expect(detectFormat("/h/.codeium/windsurf/mcp_config.json", { mcpServers: {} })).toBe("windsurf")
    expect(detectFormat("/h/.gemini/settings.json", { mcpServers: {} })).toBe("gemini")
    expect(detectFormat("/p/a.json", { mcpServers: { a: { serverUrl: "https://x" } } })).toBe("windsurf")
    expect(detectFormat("/p/a.json", { mcpServers: { a: { httpUrl: "https://x" } } })).toBe("gemini")
    expect(detectFormat("/p/a.json", { mcpServers: { a: { command: "x", args: ["${env:A}"] } } })).toBe("cursor")
    expect(detectFormat("/p/.mcp.json", { mcpServers: { a: { command: "x" } } })).toBe("mcpctl")
    expect(detectFormat("/p/a.json", { mcpServers: {}, permissions: {} })).toBe("mcpctl")
  })
})

describe("VS Code", () => {
  const file = "/w/.vscode/mcp.json"
  it("maps servers, type, ${env:X}, ${userHome}, ${workspaceFolder} (the folder holding .vscode)", () => {
    const s = read(JSON.stringify({
      servers: {
        api: { type: "http", url: "https://h/mcp", headers: { Authorization: "Bearer ${env:TOKEN}" } },
        loc: { type: "stdio", command: "node", args: ["${workspaceFolder}/s.js", "${userHome}/x"], cwd: "${workspaceFolder}", dev: { watch: "*.js" } }
      }
    }), file)
    expect(entries(s)).toEqual({
      api: { type: "http", url: "https://h/mcp", headers: { Authorization: "Bearer ${TOKEN}" } },
      loc: { type: "stdio", command: "node", args: ["/w/s.js", "${HOME}/x"], cwd: "/w" }
    })
    expect(s.unhonoured).toEqual(["servers.loc.dev"])
    expect(s.notes).toEqual(["${workspaceFolder} is written as /w"])
  })

  it("turns ${input:id} into $MCPCTL_INPUT_ID and reports the input with its description", () => {
    const s = read(JSON.stringify({
      inputs: [{ type: "promptString", id: "api-key", description: "API key", password: true }],
      servers: { api: { type: "http", url: "https://h/mcp", headers: { "X-Key": "${input:api-key}" } } }
    }), file)
    expect(entries(s).api).toMatchObject({ headers: { "X-Key": "${MCPCTL_INPUT_API_KEY}" } })
    expect(s.inputs).toEqual([{ id: "api-key", variable: "MCPCTL_INPUT_API_KEY", servers: ["api"], description: "API key", password: true, declared: true }])
    expect(inputVariable("a.b-c")).toBe("MCPCTL_INPUT_A_B_C")
  })

  it("refuses a variable mcpctl cannot resolve, naming the server and field", () => {
    const e = left(readHostSettings(JSON.stringify({ servers: { x: { command: "n", args: ["${command:pick}"] } } }), file, ctx))
    expect(e.message).toContain("x.args uses ${command:pick}")
    expect(e.message).toContain("VS Code format")
  })

  it("reads mcp.servers of a VS Code settings.json", () => {
    const s = read(JSON.stringify({ "editor.fontSize": 12, mcp: { servers: { a: { command: "n" } } } }), "/u/Code/User/settings.json")
    expect(s.servers[0]).toMatchObject({ name: "a", at: ["mcp", "servers", "a"] })
  })

  it("envFile: values when reading, ${NAME} references (and a warning) when importing; env wins", () => {
    const texts: Record<string, string> = { "/w/.env": "# c\nexport A=1\nB=\"two words\"\nC=3 # note\n" }
    const text = JSON.stringify({ servers: { s: { command: "n", env: { C: "own" }, envFile: "${workspaceFolder}/.env" } } })
    const readIt = read(text, file, { readText: (f) => texts[f] })
    expect(entries(readIt).s!.env).toEqual({ C: "own", A: "1", B: "two words" })
    const imported = read(text, file, { mode: "write", readText: (f) => texts[f] })
    expect(entries(imported).s!.env).toEqual({ C: "own", A: "${A}", B: "${B}" })
    expect(imported.unhonoured[0]).toContain("servers.s.envFile")
    const missing = left(readHostSettings(text, file, { ...ctx, readText: () => undefined }))
    expect(missing.message).toContain("cannot read /w/.env")
  })
})

describe("parseEnvFile", () => {
  it("reads KEY=VALUE lines with quotes, export and comments", () => {
    expect(parseEnvFile("A=1\n# x\nexport B='x y'\nC=\"a\\nb\"\nD=v # c\nnot a line\n")).toEqual({ A: "1", B: "x y", C: "a\nb", D: "v" })
  })
})

describe("Claude Code ~/.claude.json", () => {
  it("takes the top-level servers and the current project's, the project's winning", () => {
    const text = JSON.stringify({
      numStartups: 3,
      mcpServers: { a: { type: "stdio", command: "user-a" }, b: { command: "user-b" } },
      projects: {
        "/p/mine": { mcpServers: { a: { type: "http", url: "https://x/mcp" } } },
        "/p/other": { mcpServers: { z: { command: "z" } } }
      }
    })
    const s = read(text, "/h/.claude.json", { projectDir: "/p/mine" })
    expect(entries(s)).toEqual({ b: { command: "user-b" }, a: { type: "http", url: "https://x/mcp" } })
    expect(s.servers.find((x) => x.name === "a")!.at).toEqual(["projects", "/p/mine", "mcpServers", "a"])
    expect(s.unhonoured).toEqual([])
  })
  it("names headersHelper as a field it cannot honour", () => {
    const s = read(JSON.stringify({ mcpServers: { a: { type: "http", url: "https://x", headersHelper: "./h.sh" } } }), "/h/.claude.json")
    expect(s.unhonoured).toEqual(["mcpServers.a.headersHelper"])
  })
})

describe("Codex config.toml", () => {
  const toml = `model = "o3"
[mcp_servers.api]
url = "https://h/mcp"
bearer_token_env_var = "API_TOKEN"
http_headers = { "X-Client" = "mcpctl" }
env_http_headers = { "X-Org" = "ORG_ID" }
enabled_tools = ["search"]
disabled_tools = ["delete"]
tool_timeout_sec = 12.5
startup_timeout_sec = 20
enabled = false

[mcp_servers.local]
command = "node"
args = ["s.js"]
cwd = "sub"
env_vars = ["LANG"]

[mcp_servers.local.env]
A = "1"
`
  it("maps url/bearer/headers/tool lists/timeouts/enabled and lists what it cannot honour", () => {
    const s = read(toml, "/h/.codex/config.toml")
    expect(s.format).toBe("codex")
    expect(entries(s)).toEqual({
      api: {
        url: "https://h/mcp",
        type: "http",
        headers: { Authorization: "Bearer ${API_TOKEN}", "X-Client": "mcpctl", "X-Org": "${ORG_ID}" },
        includeTools: ["search"],
        excludeTools: ["delete"],
        timeout: 12500,
        disabled: true
      },
      local: { command: "node", args: ["s.js"], cwd: "sub", env: { LANG: "${LANG:-}", A: "1" } }
    })
    expect(s.unhonoured).toEqual(["mcp_servers.api.startup_timeout_sec"])
  })
  it("decodes through SettingsLoad: one warning names every field not honoured; tool filters are honoured", () => {
    const parsed = right(parseSettingsText(toml, "/h/.codex/config.toml", ctx))
    expect(parsed.servers.map((x) => x.name)).toEqual(["api", "local"])
    expect(parsed.warnings).toHaveLength(1)
    expect(parsed.warnings[0]).toContain("(Codex format): mcpctl cannot honour mcp_servers.api.startup_timeout_sec")
    expect(parsed.warnings[0]).not.toContain("enabled_tools")
    expect(parsed.warnings[0]).not.toContain("disabled_tools")
    const api = parsed.servers.find((x) => x.name === "api")!.config
    expect(api.includeTools).toBeDefined()
    expect(api.excludeTools).toBeDefined()
  })
  it("reports a TOML syntax error with its line", () => {
    const e = left(readHostSettings("[mcp_servers.x\ncommand = 1", "/c/config.toml", ctx))
    expect(e.message).toMatch(/^\/c\/config\.toml:1:\d+: invalid TOML/)
  })
  it("finds lines of tables and keys", () => {
    expect(tomlLine(toml, ["mcp_servers", "api"])).toBe(2)
    expect(tomlLine(toml, ["mcp_servers", "api", "bearer_token_env_var"])).toBe(4)
    expect(tomlLine(toml, ["mcp_servers", "local", "env", "A"])).toBe(20)
    expect(tomlLine(toml, ["mcp_servers", "local", "env"])).toBe(19)
  })
})

describe("gemini-cli settings.json", () => {
  it("httpUrl is Streamable HTTP, url is SSE, $VAR becomes ${VAR}, trust is an allow rule", () => {
    const s = read(JSON.stringify({
      theme: "x",
      mcpServers: {
        h: { httpUrl: "https://h/mcp", headers: { A: "$TOKEN" }, timeout: 5000, includeTools: ["a"], trust: true },
        s: { url: "https://h/sse", excludeTools: ["b"], authProviderType: "google_credentials" },
        l: { command: "node", args: ["$HOME/s.js"], cwd: "./w", description: "d" }
      }
    }), "/h/.gemini/settings.json")
    expect(entries(s)).toEqual({
      h: { url: "https://h/mcp", type: "http", headers: { A: "${TOKEN}" }, timeout: 5000, includeTools: ["a"] },
      s: { url: "https://h/sse", type: "sse", excludeTools: ["b"] },
      l: { command: "node", args: ["${HOME}/s.js"], cwd: "./w" }
    })
    expect(s.permissions).toEqual({ allow: ["mcp__h"] })
    expect(s.unhonoured).toEqual(["mcpServers.s.authProviderType"])
  })
})

describe("permissions in another host's file", () => {
  it("keeps mcpctl-shaped rules written into it, and adds the host's own (gemini trust)", () => {
    const s = read(JSON.stringify({
      mcpServers: { t: { command: "x", trust: true } },
      permissions: { allow: ["mcp__a"], deny: ["mcp__b__x"] }
    }), "/h/.gemini/settings.json")
    expect(s.permissions).toEqual({ allow: ["mcp__a", "mcp__t"], deny: ["mcp__b__x"] })
    const other = read(JSON.stringify({ mcpServers: {}, permissions: { defaultMode: "plan" } }), "/p/.cursor/mcp.json")
    expect(other.permissions).toEqual({ allow: [] })
  })
})

describe("Windsurf and Cursor", () => {
  it("Windsurf: serverUrl is the URL, disabledTools excludes, ${env:X} is a reference", () => {
    const s = read(JSON.stringify({
      mcpServers: { r: { serverUrl: "https://h/mcp", headers: { K: "${env:K}" }, disabledTools: ["x"], disabled: true } }
    }), "/h/.codeium/windsurf/mcp_config.json")
    expect(entries(s)).toEqual({ r: { url: "https://h/mcp", headers: { K: "${K}" }, excludeTools: ["x"], disabled: true } })
  })
  it("Cursor: auth becomes oauth", () => {
    const s = read(JSON.stringify({
      mcpServers: { r: { url: "https://h/mcp", auth: { CLIENT_ID: "id", CLIENT_SECRET: "${env:SECRET}", scopes: ["a"] } } }
    }), "/p/.cursor/mcp.json")
    expect(entries(s).r).toEqual({ url: "https://h/mcp", oauth: { clientId: "id", clientSecret: "${SECRET}", scopes: ["a"] } })
  })
})

describe("jsonLine", () => {
  it("gives the line of a property, or of its nearest parent", () => {
    const text = `{\n  // c\n  "servers": {\n    "a": {\n      "command": "x",\n      "env": { "K": "v" }\n    }\n  }\n}`
    expect(jsonLine(text, ["servers", "a"])).toBe(4)
    expect(jsonLine(text, ["servers", "a", "command"])).toBe(5)
    expect(jsonLine(text, ["servers", "a", "env", "K"])).toBe(6)
    expect(jsonLine(text, ["servers", "a", "nope"])).toBe(4)
  })
})

describe("loading a --config file of another host", () => {
  it.effect("VS Code inputs come from MCPCTL_INPUT_*, else from askInput, else a ConfigError naming the input", () =>
    Effect.gen(function*() {
      const file = fixture(fixtures.vscode)
      const env = { HOME: "/home/u", EXAMPLE_API_TOKEN: "t" }
      const fromEnv = yield* McpConfig.pipe(
        Effect.provide(McpConfig.layer({ cwd: repo, configFiles: [file], env: { ...env, MCPCTL_INPUT_MEMORY_FILE: "/tmp/m.jsonl" }, home: "/nonexistent" }))
      )
      const memory = fromEnv.servers.find((s) => s.name === "memory")!
      expect(memory.config).toMatchObject({ env: { MEMORY_FILE_PATH: "/tmp/m.jsonl", HOME: "/home/u" } })
      expect(memory.rawConfig).toMatchObject({ env: { MEMORY_FILE_PATH: "${MCPCTL_INPUT_MEMORY_FILE}" } })
      const asked: Array<string> = []
      const fromPrompt = yield* McpConfig.pipe(Effect.provide(McpConfig.layer({
        cwd: repo,
        configFiles: [file],
        env,
        home: "/nonexistent",
        askInput: async (input) => {
          asked.push(`${input.id}: ${input.description}`)
          return "/tmp/asked.jsonl"
        }
      })))
      expect(asked).toEqual(["memory-file: Where the memory server keeps its graph"])
      expect(fromPrompt.servers.find((s) => s.name === "memory")!.config).toMatchObject({ env: { MEMORY_FILE_PATH: "/tmp/asked.jsonl" } })
      const failed = yield* Effect.flip(McpConfig.pipe(Effect.provide(McpConfig.layer({ cwd: repo, configFiles: [file], env, home: "/nonexistent" }))))
      expect(failed.message).toContain(`server "memory" uses the VS Code input "memory-file" (Where the memory server keeps its graph)`)
      expect(failed.message).toContain("Set MCPCTL_INPUT_MEMORY_FILE")
    }))

  it.effect("scope files stay mcpctl's own format: a `servers` key there is only an unknown field", () =>
    Effect.sync(() => {
      const parsed = right(parseSettingsText(JSON.stringify({ servers: { a: { command: "x" } } }), "/p/.mcp.json"))
      expect(parsed.servers).toEqual([])
      expect(parsed.warnings).toEqual(["/p/.mcp.json: unknown field servers is ignored"])
    }))
})
