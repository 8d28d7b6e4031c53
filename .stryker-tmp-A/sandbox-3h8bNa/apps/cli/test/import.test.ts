/**
 * Other hosts' settings, end to end: `tools --config` on one real file per host format (each
 * starts the three reference servers), `import` into a scope then `tools` from it, and
 * `config explain`. Kept to few runs: each `tools` run spawns three servers.
 */
// @ts-nocheck

import { afterAll, describe, expect, it } from "@effect/vitest"
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { repoRoot, workspace } from "./support.js"
// In process: what is checked is output and exit codes, which a spawn adds nothing to (inProcess.ts).
import { runInProcess as run } from "./inProcess.js"

const ws = workspace()
afterAll(() => ws.cleanup())

const fixtures = {
  "claude-desktop": "claude-desktop/claude_desktop_config.json",
  "claude-code": "claude-code/.claude.json",
  cursor: "cursor/.cursor/mcp.json",
  vscode: "vscode/.vscode/mcp.json",
  windsurf: "windsurf/mcp_config.json",
  codex: "codex/config.toml",
  gemini: "gemini/.gemini/settings.json"
} as const
const fixture = (host: keyof typeof fixtures) => join(repoRoot, "examples/hosts", fixtures[host])
/** The VS Code fixture's `${input:memory-file}`, given without a terminal. */
const inputs = { MCPCTL_INPUT_MEMORY_FILE: join(ws.dir, "memory.jsonl") }

const serversOf = (stdout: string) => {
  const doc = JSON.parse(stdout) as { tools: Array<{ server: string; name: string }>; errors: Array<unknown> }
  return { servers: [...new Set(doc.tools.map((t) => t.server))].sort(), names: doc.tools.map((t) => t.name), errors: doc.errors }
}

describe("tools --config reads every host's format as written", () => {
  for (const host of Object.keys(fixtures) as Array<keyof typeof fixtures>) {
    it(`${host}: lists the tools of the three reference servers`, async () => {
      const r = await run(["tools", "--config", fixture(host), "--json"], { home: ws.home, env: inputs })
      expect(r.stderr).not.toContain("mcpctl: mcpctl")
      expect(r.code).toBe(0)
      const { errors, names, servers } = serversOf(r.stdout)
      expect(errors).toEqual([])
      expect(servers).toEqual(["everything", "filesystem", "memory"])
      expect(names).toContain("mcp__everything__echo")
      expect(names).toContain("mcp__memory__read_graph")
      if (host === "codex") {
        // One warning names every field mcpctl cannot honour.
        const warnings = r.stderr.split("\n").filter((l) => l.includes("cannot honour"))
        expect(warnings).toHaveLength(1)
        expect(warnings[0]).toContain("mcp_servers.everything.startup_timeout_sec")
      }
    })
  }

  it("vscode without a terminal: the input is a configuration error that names it (exit 2)", async () => {
    const r = await run(["tools", "--config", fixture("vscode"), "--json"], { home: ws.home })
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`uses the VS Code input "memory-file"`)
    expect(r.stderr).toContain("MCPCTL_INPUT_MEMORY_FILE")
  })
})

describe("import --from HOST", () => {
  it("writes every host's servers into the user scope, references kept, never a value", async () => {
    for (const host of Object.keys(fixtures) as Array<keyof typeof fixtures>) {
      const home = join(ws.dir, `home-${host}`)
      const r = await run(["import", "--from", host, fixture(host), "--json"], { home, env: { ...inputs, EXAMPLE_API_TOKEN: "s3cr3t" } })
      expect(r.code, r.stderr).toBe(0)
      const doc = JSON.parse(r.stdout)
      expect(doc.target).toBe(join(home, "settings.json"))
      const written = readFileSync(join(home, "settings.json"), "utf8")
      expect(written).not.toContain("s3cr3t")
      const servers = JSON.parse(written).mcpServers
      expect(Object.keys(servers)).toEqual(expect.arrayContaining(["everything", "filesystem", "memory"]))
      if (host === "vscode") {
        expect(servers.memory.env).toEqual({ MEMORY_FILE_PATH: "${MCPCTL_INPUT_MEMORY_FILE}", HOME: "${HOME}" })
        expect(doc.notes.join("\n")).toContain("set MCPCTL_INPUT_MEMORY_FILE")
      }
      if (host === "codex") {
        expect(servers.remote).toEqual({
          url: "https://mcp.example.com/mcp",
          headers: { Authorization: "Bearer ${EXAMPLE_API_TOKEN}", "X-Client": "mcpctl" },
          disabled: true,
          type: "http"
        })
        expect(servers.filesystem.excludeTools).toEqual(["write_file", "move_file"])
      }
      if (host === "cursor") {
        // An envFile's values stay in their file: the variables are read from the environment.
        expect(servers.memory.env).toEqual({ MEMORY_FILE_PATH: "${MEMORY_FILE_PATH}" })
      }
      if (host === "gemini") expect(JSON.parse(written).permissions).toEqual({ allow: ["mcp__everything"] })
    }
  })

  it("round trip: tools lists the imported servers from the scope, with no --config (Codex, VS Code)", async () => {
    for (const host of ["codex", "vscode"]) {
      const r = await run(["tools", "--json"], { home: join(ws.dir, `home-${host}`), env: inputs })
      expect(r.code, r.stderr).toBe(0)
      expect(serversOf(r.stdout)).toMatchObject({ servers: ["everything", "filesystem", "memory"], errors: [] })
    }
  })

  it("name clashes are reported and left alone; --force overwrites; --dry-run writes nothing; comments kept", async () => {
    const home = join(ws.dir, "home-windsurf")
    const file = join(home, "settings.json")
    writeFileSync(file, readFileSync(file, "utf8").replace("{", "{\n  // my comment"))
    const before = readFileSync(file, "utf8")
    const again = await run(["import", "--from", "windsurf", fixture("windsurf")], { home })
    expect(again.code).toBe(0)
    expect(again.stderr).toContain(`skipped "everything": already in ${file} (--force overwrites)`)
    expect(readFileSync(file, "utf8")).toBe(before)
    const dry = await run(["import", "--from", "windsurf", fixture("windsurf"), "--force", "--dry-run", "--json"], { home })
    expect(JSON.parse(dry.stdout).imported.map((s: { replaced: boolean }) => s.replaced)).toEqual([true, true, true, true])
    expect(readFileSync(file, "utf8")).toBe(before)
    const forced = await run(["import", "--from", "windsurf", fixture("windsurf"), "--force"], { home })
    expect(forced.code).toBe(0)
    expect(forced.stdout).toContain("everything (replaced)")
    expect(readFileSync(file, "utf8")).toContain("// my comment")
  })

  it("without FILE, reads the host's default files; none found is exit 2 naming where it looked", async () => {
    const r = await run(["import", "--from", "codex"], { home: join(ws.dir, "home-none"), env: { HOME: join(ws.dir, "nohome"), CODEX_HOME: "" } })
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(join(ws.dir, "nohome", ".codex", "config.toml"))
  })
})

describe("config explain", () => {
  it("names file, scope and line of each field, and the variables read (values hidden)", async () => {
    const r = await run(["config", "explain", "memory", "--config", fixture("vscode"), "--json"], {
      home: ws.home,
      env: { MCPCTL_INPUT_MEMORY_FILE: "/tmp/very-secret-path" }
    })
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).not.toContain("very-secret-path")
    const doc = JSON.parse(r.stdout)
    expect(doc.servers).toHaveLength(1)
    const memory = doc.servers[0]
    expect(memory).toMatchObject({ name: "memory", scope: "flag", source: fixture("vscode"), format: "vscode", line: 17 })
    expect(memory.fields).toContainEqual({
      field: "env.MEMORY_FILE_PATH",
      value: "${MCPCTL_INPUT_MEMORY_FILE}",
      line: 21,
      variables: [{ name: "MCPCTL_INPUT_MEMORY_FILE", set: true, hasDefault: false }]
    })
    const human = await run(["config", "explain", "--config", fixture("codex")], { home: ws.home })
    expect(human.code).toBe(0)
    expect(human.stdout).toMatch(/timeout\s+30000\s+line 7 \(tool_timeout_sec\)/)
    expect(human.stdout).toMatch(/headers\.Authorization\s+Bearer \$\{EXAMPLE_API_TOKEN\}\s+line 24 \(bearer_token_env_var\)\s+\$\{EXAMPLE_API_TOKEN\} UNSET/)
  })
})
