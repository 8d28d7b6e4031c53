// @ts-nocheck
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import * as Path from "node:path"
import { explain, variablesOf } from "../src/internal/config/Explain.js"

const withDirs = <A, E>(f: (d: { project: string; home: string; root: string }) => Effect.Effect<A, E>) =>
  Effect.acquireUseRelease(
    Effect.promise(async () => {
      const root = await mkdtemp(Path.join(tmpdir(), "mcpctl-explain-"))
      const project = Path.join(root, "project"), home = Path.join(root, "home")
      await mkdir(Path.join(project, ".mcpctl"), { recursive: true })
      await mkdir(home, { recursive: true })
      return { root, project, home }
    }),
    f,
    ({ root }) => Effect.promise(() => rm(root, { recursive: true, force: true }))
  )

describe("variablesOf", () => {
  it("lists each ${VAR} once, whether set and whether it has a default", () => {
    expect(variablesOf(["${A}", "x${B:-d}", "${A}"], { A: "secret" })).toEqual([
      { name: "A", set: true, hasDefault: false },
      { name: "B", set: false, hasDefault: true }
    ])
  })
})

describe("explain", () => {
  it.effect("names file, scope and line of every field, what it overrode, and the variables it reads", () =>
    withDirs(({ home, project, root }) =>
      Effect.gen(function*() {
        yield* Effect.promise(() => writeFile(Path.join(home, "settings.json"), JSON.stringify({ mcpServers: { api: { url: "https://old/mcp" } } }, null, 2)))
        const local = Path.join(project, ".mcpctl", "settings.local.json")
        yield* Effect.promise(() => writeFile(local, `{
  // mine
  "mcpServers": {
    "api": {
      "url": "https://h/mcp?key=k",
      "headers": { "Authorization": "Bearer \${API_TOKEN}", "X-Literal": "s3cr3t" }
    }
  },
  "permissions": { "deny": ["mcp__api__drop"] }
}`))
        const codex = Path.join(root, "config.toml")
        yield* Effect.promise(() => writeFile(codex, `[mcp_servers.tool]\ncommand = "node"\nargs = ["\${ROOT:-.}/s.js"]\ntool_timeout_sec = 5\n`))
        const e = yield* explain({ cwd: project, home, env: { API_TOKEN: "t0k3n" }, configFiles: [codex] })
        const api = e.servers.find((s) => s.name === "api")!
        expect(api).toMatchObject({ scope: "local", source: local, line: 4, format: "mcpctl", transport: "auto" })
        expect(api.overrides).toEqual([{ scope: "user", source: Path.join(home, "settings.json"), line: 3 }])
        expect(api.fields).toEqual([
          { field: "url", value: "https://h/mcp?key=REDACTED", line: 5, variables: [] },
          { field: "headers.Authorization", value: "Bearer ${API_TOKEN}", line: 6, variables: [{ name: "API_TOKEN", set: true, hasDefault: false }] },
          { field: "headers.X-Literal", value: "REDACTED", line: 6, variables: [] }
        ])
        expect(JSON.stringify(e)).not.toContain("t0k3n")
        expect(JSON.stringify(e)).not.toContain("s3cr3t")
        const tool = e.servers.find((s) => s.name === "tool")!
        expect(tool).toMatchObject({ scope: "flag", format: "codex", line: 1 })
        expect(tool.fields).toContainEqual({ field: "timeout", value: 5000, line: 4, writtenAs: "tool_timeout_sec", variables: [] })
        expect(tool.fields).toContainEqual({ field: "args", value: ["${ROOT:-.}/s.js"], line: 3, variables: [{ name: "ROOT", set: false, hasDefault: true }] })
        expect(e.permissions).toEqual([{ behavior: "deny", rule: "mcp__api__drop", scope: "local", source: local, line: 9 }])
        expect(e.limits.find((l) => l.variable === "MCP_TIMEOUT")).toEqual({ variable: "MCP_TIMEOUT", value: 30000, from: "default" })
        expect(e.files.filter((f) => f.exists).map((f) => f.scope)).toEqual(["user", "local", "flag"])
      })))

  it.effect("hides every secret that `get` hides: secret-looking args, defaults of references, OAuth secrets", () =>
    withDirs(({ home, project }) =>
      Effect.gen(function*() {
        yield* Effect.promise(() => writeFile(Path.join(home, "settings.json"), JSON.stringify({
          mcpServers: {
            s: { command: "node", args: ["s.js", "--api-key=sk-literal0123456789abcdef", "--token", "plainsecret1", "ghp_0123456789abcdefghij", "--verbose"] },
            r: {
              url: "https://h/mcp",
              headers: { Authorization: "Bearer ${T:-defaultsecret2}", "X-Mixed": "lit3ral${X}" },
              env: { K: "${K:-envsecret4}" },
              oauth: { clientId: "id", clientSecret: "clientsecret5", idpClientSecret: "idpsecret6" }
            }
          }
        })))
        const e = yield* explain({ cwd: project, home, env: {} })
        const text = JSON.stringify(e)
        for (const secret of ["sk-literal", "plainsecret1", "ghp_0123", "defaultsecret2", "lit3ral", "clientsecret5", "idpsecret6"]) {
          expect(text, secret).not.toContain(secret)
        }
        const s = e.servers.find((x) => x.name === "s")!
        expect(s.fields).toContainEqual(expect.objectContaining({ field: "args", value: ["s.js", "--api-key=REDACTED", "--token", "REDACTED", "REDACTED", "--verbose"] }))
        const r = e.servers.find((x) => x.name === "r")!
        expect(r.fields).toContainEqual(expect.objectContaining({ field: "headers.Authorization", value: "Bearer ${T:-REDACTED}" }))
      })))

  it.effect("works while a variable is unset (loading would fail)", () =>
    withDirs(({ home, project }) =>
      Effect.gen(function*() {
        yield* Effect.promise(() => writeFile(Path.join(project, ".mcp.json"), JSON.stringify({ mcpServers: { s: { command: "${NOPE}" } } })))
        const e = yield* explain({ cwd: project, home, env: {} })
        expect(e.servers[0]!.fields[0]).toMatchObject({ field: "command", value: "${NOPE}", variables: [{ name: "NOPE", set: false }] })
      })))
})
