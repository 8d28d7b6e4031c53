/**
 * The README's "Using it" commands, read from the README itself and run in order as a new user
 * would run them from the repository root (here a copy of it: examples/ and node_modules/ linked,
 * so `add` writes nowhere real). Each must exit as its line says: 0, unless its comment says
 * `→ exit N`. The README can never drift from what mcpctl does again.
 */
// @ts-nocheck

import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Everything } from "@mcpctl/testing"
import type { ChildProcess } from "node:child_process"
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { splitCommandLine } from "../src/Host.js"
import { repoRoot, run, workspace } from "./support.js"

/** One command of the README: its words after `npx mcpctl`, the exit code it promises, the line. */
interface ReadmeCommand {
  readonly line: string
  readonly args: ReadonlyArray<string>
  readonly exit: number
}

/** The shell block under "## Using it", one command per line, comments (`  # …`) apart (pure). */
const usingItCommands = (readme: string, home: string): ReadonlyArray<ReadmeCommand> => {
  const section = readme.split(/^## /m).find((s) => s.startsWith("Using it"))
  const block = section && /```sh\n([\s\S]*?)```/.exec(section)?.[1]
  if (!block) throw new Error('README.md has no ```sh block under "## Using it"')
  return block.split("\n").filter((l) => l.trim() !== "").map((line) => {
    const hash = line.search(/\s#\s/)
    const command = hash < 0 ? line : line.slice(0, hash)
    const comment = hash < 0 ? "" : line.slice(hash)
    // `< /dev/null` is what `run` gives every command's stdin already (the serve line ends at EOF).
    const words = splitCommandLine(command.replace(/\s<\s*\/dev\/null\s*$/, ""))
      .map((w) => (w.startsWith("~/") ? join(home, w.slice(2)) : w))
    if (words[0] !== "npx" || words[1] !== "mcpctl") throw new Error(`not an mcpctl command: ${line}`)
    const exit = /→ exit (\d+)\b/.exec(comment)
    return { line: command.trim(), args: words.slice(2), exit: exit ? Number(exit[1]) : 0 }
  })
}

const ws = workspace()
const userHome = join(ws.dir, "user")
const commands = usingItCommands(readFileSync(join(repoRoot, "README.md"), "utf8"), userHome)

// A checkout of one's own: the README's relative paths resolve as in the repository.
const project = join(ws.dir, "checkout")
mkdirSync(project)
mkdirSync(userHome)
symlinkSync(join(repoRoot, "examples"), join(project, "examples"))
symlinkSync(join(repoRoot, "node_modules"), join(project, "node_modules"))

// The other hosts the README reads from, as their users have them (stdio servers start in the
// project directory, where node_modules is).
const memory = "node_modules/@modelcontextprotocol/server-memory/dist/index.js"
mkdirSync(join(userHome, ".codex"))
writeFileSync(join(userHome, ".codex", "config.toml"), `[mcp_servers.memory]\ncommand = "node"\nargs = ["${memory}"]\n`)
// The checkout `trust --project ~/src/repo` trusts: one server in its .mcp.json.
mkdirSync(join(userHome, "src", "repo"), { recursive: true })
writeFileSync(join(userHome, "src", "repo", ".mcp.json"), JSON.stringify({ mcpServers: { notes: { command: "node", args: [memory] } } }))
mkdirSync(join(userHome, ".config", "Claude"), { recursive: true })
writeFileSync(
  join(userHome, ".config", "Claude", "claude_desktop_config.json"),
  JSON.stringify({ mcpServers: { notes: { command: "node", args: [memory] } } })
)

/** What some lines must also print, beyond their exit code. */
const expectations: ReadonlyArray<readonly [RegExp, (r: { stdout: string; stderr: string }) => void]> = [
  [/get-sum a=2/, (r) => expect(r.stdout).toContain("42")],
  [/get-sum --help/, (r) => expect(r.stdout).toContain("Usage: mcpctl call mcp__everything__get-sum a=NUMBER b=NUMBER")],
  [/mcpctl serve /, (r) => expect(r.stderr).toContain("serving MCP on stdio")],
  [/read_text_file/, (r) => expect(r.stdout).toContain("Hello from mcpctl's example folder.")],
  [/get-tiny-image/, (r) => expect(JSON.parse(r.stdout).files).toHaveLength(1)],
  // The header as written, `${API_TOKEN}` and all: the reference, never a value.
  [/get api/, (r) => expect(r.stdout).toContain("Bearer ${API_TOKEN}")],
  [/--url/, (r) => expect(r.stdout).toContain("mcp__adhoc__echo")],
  [/codex/, (r) => expect(r.stdout).toContain("mcp__memory__read_graph")],
  [/config explain api/, (r) => expect(r.stdout).toContain("API_TOKEN")],
  [/auth api/, (r) => expect(r.stderr).toContain("API_TOKEN")],
  [/trust --project/, (r) => expect(r.stdout + r.stderr).toContain(join(userHome, "src", "repo"))]
]

// The `--url` line names 127.0.0.1:3001: a real server answers there while the commands run.
let server: ChildProcess | undefined
beforeAll(async () => {
  ;({ child: server } = await Everything.startEverything("streamableHttp", 3001))
})
afterAll(async () => {
  // The README starts a daemon and stops it; should a line have failed between, nothing stays.
  await run(["daemon", "stop"], { home: ws.home, cwd: project, env: { HOME: userHome } })
  await Everything.stopServer(server)
  ws.cleanup()
})

describe("README, Using it: every command exits as the README says", () => {
  it("has the commands a new user starts with", () => {
    expect(commands.length).toBeGreaterThanOrEqual(10)
  })

  for (const command of commands) {
    it(`${command.line} → exit ${command.exit}`, async () => {
      const r = await run(command.args, {
        home: ws.home,
        cwd: project,
        env: { HOME: userHome, MCPCTL_MEMORY_FILE: join(ws.dir, "memory.jsonl") }
      })
      expect({ code: r.code, stderr: r.stderr }).toMatchObject({ code: command.exit })
      for (const [pattern, check] of expectations) if (pattern.test(command.line)) check(r)
    })
  }
})
