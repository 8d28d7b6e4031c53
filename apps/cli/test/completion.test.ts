/**
 * Shell completion: the completer (pure) against the real command tree, the world it reads
 * (settings files and the catalogue cache in a temp home, never a server), and one spawned run
 * of the bash script through the built CLI with COMP_WORDS/COMP_CWORD as bash sets them.
 */
import { afterAll, describe, expect, it } from "@effect/vitest"
import * as CatalogCache from "@mcpctl/core/internal/catalog/CatalogCache"
import { parseSettingsText } from "@mcpctl/core/internal/config/SettingsLoad"
import * as Either from "effect/Either"
import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { mcpctl } from "../src/Commands.js"
import { type CachedTool, complete, type Completion, positionals, splitLine, type World } from "../src/completion/Complete.js"
import { completionOutput } from "../src/completion/Entry.js"
import { scriptFor } from "../src/completion/Scripts.js"
import { treeOf } from "../src/completion/Tree.js"
import { cachedTools, catalogDirectory, serverNames } from "../src/completion/World.js"
import { serverNamesIn } from "@mcpctl/core/internal/config/SettingsNames"
import { cliBin, runCommand } from "./support.js"

const tree = treeOf(mcpctl)
const dirs: Array<string> = []
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "mcpctl-completion-"))
  dirs.push(dir)
  return dir
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

const tools: ReadonlyArray<CachedTool> = [
  { name: "mcp__code__run", server: "code", tool: "run", inputSchema: { properties: { languageId: { enum: ["python", "javascript"] }, code: { type: "string" }, dry: { type: "boolean" } } } },
  { name: "mcp__code__list", server: "code", tool: "list" },
  { name: "mcp__gone__x", server: "gone", tool: "x" }
]
const world: World = { servers: () => ["code", "docs"], tools: () => tools }
const at = (line: string) => complete(tree, line, () => world)
const wordsAt = (line: string) => {
  const r = at(line)
  return r._tag === "Words" ? r.words : [":files"]
}
/** A world that must not be read: command and option completion never touch a file. */
const untouchable = () => {
  throw new Error("the world was read")
}

describe("the tree", () => {
  it("has every command, with completion and without hidden ones, and each command's arguments are known", () => {
    const names = tree.subcommands.map((c) => c.name)
    expect(names).toContain("completion")
    expect(names.some((n) => n.startsWith("__"))).toBe(false)
    for (const c of tree.subcommands) {
      const paths = c.subcommands.length > 0 ? c.subcommands.map((s) => `${c.name} ${s.name}`) : [c.name]
      for (const p of paths) expect(Object.keys(positionals), p).toContain(p)
    }
  })

  it("knows which options take a value and their choices", () => {
    const tools = tree.subcommands.find((c) => c.name === "tools")!
    expect(tools.flags.find((f) => f.names.includes("--config"))).toEqual({ names: ["--config"], takes: "FILE" })
    expect(tools.flags.find((f) => f.names.includes("--json"))).toEqual({ names: ["--json"] })
    expect(tools.flags.find((f) => f.names.includes("--protocol"))?.choices).toEqual(["auto", "modern", "legacy"])
  })
})

describe("complete", () => {
  it("commands, subcommands and options, without reading settings or the cache", () => {
    const pure = (line: string) => (complete(tree, line, untouchable) as Extract<Completion, { _tag: "Words" }>).words
    expect(pure("mcpctl ser")).toEqual(["serve", "servers"])
    expect(pure("mcpctl ")).toContain("completion")
    expect(pure("mcpctl daemon st")).toEqual(["start", "status", "stop"])
    expect(pure("mcpctl config ")).toEqual(["explain"])
    expect(pure("mcpctl tools --c")).toEqual(["--cached", "--config", "--cwd"])
    expect(pure("mcpctl tools --protocol ")).toEqual(["auto", "legacy", "modern"])
    expect(pure("mcpctl tools --protocol=m")).toEqual(["--protocol=modern"])
    expect(pure("mcpctl completion ")).toEqual(["bash", "fish", "zsh"])
    expect(pure("mcpctl --v")).toEqual(["--version"])
  })

  it("file names where a value is a file, and after --", () => {
    expect(at("mcpctl tools --config ")).toEqual({ _tag: "Files" })
    expect(at("mcpctl read docs demo://x --out ")).toEqual({ _tag: "Files" })
    expect(at("mcpctl add fs -- np")).toEqual({ _tag: "Files" })
    expect(at("mcpctl import --from cursor ")).toEqual({ _tag: "Files" })
  })

  it("server names, each once for commands that take several", () => {
    expect(wordsAt("mcpctl tools ")).toEqual(["code", "docs"])
    expect(wordsAt("mcpctl tools code ")).toEqual(["docs"])
    expect(wordsAt("mcpctl get d")).toEqual(["docs"])
    expect(wordsAt("mcpctl get docs ")).toEqual([])
    expect(wordsAt("mcpctl --json servers --config a.json c")).toEqual(["code"])
    expect(wordsAt("mcpctl config explain ")).toEqual(["code", "docs"])
  })

  it("tool names of the servers in the settings, then the tool's key= parameters and enum values", () => {
    expect(wordsAt("mcpctl call ")).toEqual(["mcp__code__list", "mcp__code__run"])
    expect(wordsAt("mcpctl call mcp__code__r")).toEqual(["mcp__code__run"])
    expect(wordsAt("mcpctl call mcp__code__run ")).toEqual(["code=", "dry=", "languageId="])
    expect(wordsAt("mcpctl call mcp__code__run code=1 ")).toEqual(["dry=", "languageId="])
    expect(wordsAt("mcpctl call mcp__code__run languageId=p")).toEqual(["languageId=python"])
    expect(wordsAt("mcpctl call mcp__code__run dry=")).toEqual(["dry=false", "dry=true"])
    expect(wordsAt("mcpctl call --json mcp__code__run ")).toEqual(["code=", "dry=", "languageId="])
    expect(wordsAt("mcpctl trust code ")).toEqual(["list", "run"])
  })

  it("splits a line as a shell does", () => {
    expect(splitLine("mcpctl call 'a b' \"c\\\"d\" e\\ f ")).toEqual({ words: ["mcpctl", "call", "a b", 'c"d', "e f"], current: "" })
    expect(splitLine("mcpctl to")).toEqual({ words: ["mcpctl"], current: "to" })
  })
})

describe("the world: settings files and the catalogue cache", () => {
  const home = tempDir()
  const project = tempDir()
  writeFileSync(join(home, "settings.json"), `{ // comments too
    "mcpServers": { "my server": { "command": "x" }, "docs": { "url": "https://d" } }, }`)
  writeFileSync(join(project, ".mcp.json"), JSON.stringify({ mcpServers: { proj: { command: "y" } } }))
  const vscode = join(project, "mcp.json")
  writeFileSync(vscode, JSON.stringify({ servers: { vs: { command: "z" } }, inputs: [] }))
  const codex = join(project, "config.toml")
  writeFileSync(codex, `[mcp_servers.cx]\ncommand = "c"\n`)
  const claude = join(project, ".claude.json")
  writeFileSync(claude, JSON.stringify({ mcpServers: { top: { command: "t" } }, projects: { [project]: { mcpServers: { here: { command: "h" } } } } }))

  it("names the servers of every scope and of --config files in other hosts' formats, normalized", () => {
    expect(serverNames(project, home, [vscode, codex, claude]).sort()).toEqual(["cx", "docs", "here", "my_server", "proj", "top", "vs"])
    expect(serverNames(project, join(home, "missing"), [])).toEqual(["proj"])
  })

  it("reads the names the settings loader reads, for each format", () => {
    for (const file of [join(home, "settings.json"), vscode, codex, claude]) {
      const text = readFileSync(file, "utf8")
      const host = file.endsWith("settings.json") ? undefined : { projectDir: project, mode: "read" as const }
      const loaded = parseSettingsText(text, file, host)
      expect(Either.isRight(loaded), file).toBe(true)
      if (Either.isRight(loaded)) expect(serverNamesIn(text, file, project).sort(), file).toEqual(loaded.right.servers.map((s) => s.name).sort())
    }
  })

  it("takes each server's newest cached list; unreadable files add nothing", () => {
    expect(catalogDirectory(home)).toBe(CatalogCache.directoryOf(home))
    const dir = catalogDirectory(home)
    mkdirSync(dir, { recursive: true })
    const entry = (server: string, savedAt: number, names: ReadonlyArray<string>) =>
      JSON.stringify({ key: "k", server, savedAt, tools: names.map((t) => ({ name: `mcp__${server}__${t}`, server, tool: t, inputSchema: {} })) })
    writeFileSync(join(dir, "a.json"), entry("docs", 1, ["old"]))
    writeFileSync(join(dir, "b.json"), entry("docs", 2, ["search", "fetch"]))
    writeFileSync(join(dir, "c.json"), "{not json")
    writeFileSync(join(dir, "d.json"), JSON.stringify({ tools: "no" }))
    expect(cachedTools(home).map((t) => t.name).sort()).toEqual(["mcp__docs__fetch", "mcp__docs__search"])
    expect(cachedTools(join(home, "missing"))).toEqual([])
    const out = completionOutput(tree, "mcpctl call mcp__d", { MCPCTL_HOME: home }, project)
    expect(out).toBe("mcp__docs__fetch\nmcp__docs__search\n")
    expect(completionOutput(tree, "mcpctl tools --config ", {}, project)).toBe(":files\n")
  })
})

describe("scripts", () => {
  it("each shell's script asks __complete for the line and uses its file names for :files", () => {
    for (const shell of ["bash", "zsh", "fish"] as const) {
      const script = scriptFor(shell)
      expect(script).toContain("mcpctl __complete")
      expect(script).toContain(":files")
    }
  })
})

const hasBash = spawnSync("bash", ["-c", "true"]).status === 0

describe.runIf(hasBash)("bash, through the built CLI", () => {
  it("completes server names, tool names and enum values from the cache, and starts no server", async () => {
    const home = tempDir()
    const project = tempDir()
    const bin = tempDir()
    symlinkSync(cliBin, join(bin, "mcpctl"))
    const started = join(project, "started")
    // Would leave a file if anything started it.
    writeFileSync(join(project, ".mcp.json"), JSON.stringify({
      mcpServers: { code: { command: process.execPath, args: ["-e", `require("fs").writeFileSync(${JSON.stringify(started)}, "x")`] } }
    }))
    const dir = join(home, "cache", "catalog")
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, "k.json"), JSON.stringify({
      key: "k", server: "code", savedAt: 1,
      tools: [{ name: "mcp__code__run", server: "code", tool: "run", inputSchema: { properties: { languageId: { enum: ["python", "perl"] } } } }]
    }))
    // COMP_WORDS as bash splits them (COMP_WORDBREAKS has `=`); COMP_LINE/COMP_POINT the line.
    const tab = async (words: ReadonlyArray<string>, line: string) => {
      const script = `source <(mcpctl completion bash)
COMP_WORDS=(${words.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${words.length - 1}
COMP_LINE='${line}'; COMP_POINT=${line.length}
_mcpctl; printf '%s\\n' "\${COMPREPLY[@]}"`
      const startedAt = performance.now()
      const r = await runCommand("bash", ["-c", script], {
        cwd: project,
        env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, MCPCTL_HOME: home }
      })
      return { reply: r.stdout.split("\n").filter(Boolean), ms: performance.now() - startedAt, stderr: r.stderr }
    }
    const servers = await tab(["mcpctl", "tools", "c"], "mcpctl tools c")
    expect(servers.reply, servers.stderr).toEqual(["code"])
    expect((await tab(["mcpctl", "call", "mcp__"], "mcpctl call mcp__")).reply).toEqual(["mcp__code__run"])
    expect((await tab(["mcpctl", "call", "mcp__code__run", "languageId", "=", "p"], "mcpctl call mcp__code__run languageId=p")).reply).toEqual(["perl", "python"])
    expect((await tab(["mcpctl", "call", "mcp__code__run", ""], "mcpctl call mcp__code__run ")).reply).toEqual(["languageId="])
    // Without COMP_LINE (a caller that sets only the words), the words stand in for it.
    expect((await tab(["mcpctl", "ser"], "")).reply).toEqual(["serve", "servers"])
    const timed = await tab(["mcpctl", "tools", ""], "mcpctl tools ")
    console.log(`bash completion of "mcpctl tools ": ${timed.ms.toFixed(0)} ms (bash + mcpctl __complete)`)
    expect(existsSync(started)).toBe(false)
  })
})
