/**
 * Help written for people: `mcpctl --help` groups the commands and describes the common flags
 * once; each command's help describes its own options (defaults, default files) with an example
 * and never @effect/cli's filler. In process, from the command tree itself; one spawned check
 * that help reads in a pipe.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import { UNUSED_HOME } from "@mcpctl/testing/Fixtures"
import { spawn } from "node:child_process"
import { mcpctl } from "../src/Commands.js"
import { commandAt, commandHelp, extras, groups, helpRequest, rootHelp, wrap } from "../src/Help.js"
import { showHelp } from "../src/HelpCommand.js"
import { docsOf } from "../src/HelpDocs.js"
import { toolHelp, toolOfCall } from "../src/ToolHelp.js"
import { cliBin, repoRoot } from "./support.js"

const docs = docsOf(mcpctl)
const help = (line: string) => {
  const args = line.split(" ").filter(Boolean)
  const path = helpRequest(args, docs)
  if (path === undefined) throw new Error(`no help asked for: ${line}`)
  return path.length === 0 ? rootHelp(docs, "9.9.9") : commandHelp(commandAt(docs, path)!, path)
}

/** What @effect/cli's own help prints, which ours must never. */
const filler = ["A user-defined piece of text", "A true or false value", "This setting is optional", "$ ", "USAGE", "DESCRIPTION"]

/** Every command path of the tree: `tools`, `config explain`, `daemon start`… */
const paths = docs.subcommands.flatMap((c) => [[c.name], ...c.subcommands.map((s) => [c.name, s.name])])

describe("mcpctl --help", () => {
  const top = help("--help")

  it("groups the commands, one line each, and names every command of the tree", () => {
    expect(top).toMatch(/^Use servers:\n {2}servers +Connect to every enabled server/m)
    expect(top).toMatch(/^Settings:\n {2}add /m)
    expect(top).toMatch(/^Run as a service:\n {2}serve /m)
    expect(top).toMatch(/^Sign in:\n {2}auth /m)
    for (const c of docs.subcommands) expect(top).toMatch(new RegExp(`^  ${c.name}\\b`, "m"))
    expect(top).toContain("  config explain ")
    expect(top).toContain("  daemon start|status|stop ")
  })

  it("describes the common flags once, gives examples and says where the docs are", () => {
    for (const flag of ["--json", "--config FILE", "--cwd DIR", "--log-level LEVEL", "--no-daemon", "--protocol"]) {
      expect(top.match(new RegExp(`^  ${flag.replace(/-/g, "\\-")}`, "gm"))).toHaveLength(1)
    }
    expect(top).toContain("Examples:\n  mcpctl tools --config examples/settings.json")
    expect(top).toContain("docs/CLI.md")
    expect(top.split("\n").every((l) => l.length <= 100)).toBe(true)
  })

  it("is asked for by --help or -h anywhere before --, not after", () => {
    expect(helpRequest(["-h"], docs)).toEqual([])
    expect(helpRequest(["tools", "--json", "-h"], docs)).toEqual(["tools"])
    expect(helpRequest(["config", "explain", "--help"], docs)).toEqual(["config", "explain"])
    expect(helpRequest(["add", "fs", "--", "server", "--help"], docs)).toBeUndefined()
    expect(helpRequest(["tools"], docs)).toBeUndefined()
  })
})

describe("mcpctl COMMAND --help", () => {
  it.each(paths.map((p) => [p.join(" ")]))("%s: no filler, its usage, its options in words", (line) => {
    const text = help(`${line} --help`)
    for (const f of filler) expect(text).not.toContain(f)
    expect(text).toMatch(new RegExp(`^mcpctl ${line}: \\S`))
    expect(text).toMatch(/^Usage: mcpctl /m)
    // Every option listed has words of its own beside it.
    for (const row of text.split("Options:\n")[1]?.split("\n\n")[0]?.split("\n") ?? []) {
      if (row.startsWith("  -")) expect(row.trim()).toMatch(/ {2,}\S/)
    }
  })

  it("every top-level command has a usage line and an example", () => {
    for (const c of docs.subcommands) {
      expect(extras[c.name], c.name).toBeDefined()
      expect(help(`${c.name} --help`)).toContain(`Example:\n  ${extras[c.name]!.example}`)
    }
    expect(groups.flatMap(([, names]) => names).filter((n) => !docs.subcommands.some((c) => c.name === n))).toEqual([])
  })

  it("import: the default scope and the file it writes, FILE in words", () => {
    const text = help("import --help")
    expect(text).toContain("Usage: mcpctl import --from HOST [FILE] [options]")
    expect(text).toMatch(/--from HOST +The host to import from: claude-desktop, claude-code/)
    expect(text).toMatch(/--scope user\|project\|local +Settings scope to write: user \(default: \$MCPCTL_HOME\/settings.json/)
    expect(text).toMatch(/FILE +The host's settings file/)
    expect(text).toContain("Common options: --json, --cwd DIR")
  })

  it("add: --scope local writes .mcpctl/settings.local.json; its own --header, not the ad-hoc one", () => {
    const text = help("add --help")
    expect(text).toMatch(/--scope local\|project\|user +Settings scope to write: local \(default:\s+\.mcpctl\/settings\.local\.json/)
    expect(text).toMatch(/--header K:V +An HTTP header K:V of a remote server/)
    expect(text).not.toContain("--url/--stdio")
  })

  it("call: TOOL and key=value explained, and call TOOL --help named", () => {
    const text = help("call --help")
    expect(text).toContain("Usage: mcpctl call TOOL [key=value…] [--args JSON] [options]")
    expect(text).toMatch(/^ {2}TOOL +Tool name, mcp__<server>__<tool>/m)
    expect(text).toMatch(/--timeout MS +Tool-call timeout in ms/)
    expect(text).toContain("`mcpctl call TOOL --help` lists that tool's parameters")
  })

  it("a command with subcommands lists them", () => {
    expect(help("daemon --help")).toMatch(/^Commands:\n {2}start +Start the daemon/m)
    expect(help("daemon start --help")).toMatch(/--idle MINUTES +Exit after this many minutes without a command \(default 30\)/)
  })
})

describe("printing help", () => {
  it.effect("goes through Effect's console (stdout), once", () =>
    Effect.gen(function*() {
      const lines: Array<unknown> = []
      const current = yield* Effect.console
      const console: Console.Console = { ...current, log: (...args) => Effect.sync(() => void lines.push(...args)) }
      yield* Effect.withConsole(showHelp(["serve", "--help"])!, console)
      expect(lines).toHaveLength(1)
      expect(String(lines[0])).toMatch(/^mcpctl serve: Serve every allowed tool/)
      expect(showHelp(["serve"])).toBeUndefined()
    }))

  it("wraps words to the width", () => {
    expect(wrap("aa bb cc dd", 5)).toEqual(["aa bb", "cc dd"])
    expect(wrap("", 5)).toEqual([""])
  })

  it("mcpctl --help | head: plain text into a pipe, exit 0", async () => {
    const child = spawn("sh", ["-c", `"$0" "$1" --help | head -3`, process.execPath, cliBin], {
      cwd: repoRoot,
      env: { ...process.env, MCPCTL_HOME: UNUSED_HOME },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    child.stdout!.on("data", (d) => (stdout += d))
    child.stderr!.on("data", (d) => (stderr += d))
    await new Promise((resolve) => child.on("close", resolve))
    expect(stderr).toBe("")
    expect(stdout).toMatch(/^mcpctl \d+\.\d+\.\d+: an MCP client host/)
    expect(stdout).not.toContain("\x1b[")
    expect(stdout.split("\n").slice(1, 3)).toEqual(["", "Usage: mcpctl COMMAND [options]"])
  })
})

describe("mcpctl call TOOL --help", () => {
  const tool = {
    name: "mcp__everything__get-sum",
    description: "Returns the sum of two numbers",
    inputSchema: {
      properties: {
        a: { type: "number", description: "First number" },
        b: { type: "number", description: "Second number" },
        mode: { type: "string", enum: ["fast", "slow"], default: "fast" }
      },
      required: ["a", "b"]
    }
  }

  it("shows the parameters as key=value usage: types, required, enums, descriptions", () => {
    const text = toolHelp(tool)
    expect(text).toContain("Usage: mcpctl call mcp__everything__get-sum a=NUMBER b=NUMBER [mode=fast|slow]")
    expect(text).toContain("  a (number, required)\n      First number")
    expect(text).toContain("  mode (fast|slow, optional, default \"fast\")")
    expect(toolHelp({ ...tool, inputSchema: {} })).toContain("No parameters.")
  })

  it("finds the tool past flags and their values", () => {
    const takes = (f: string) => f === "--config"
    expect(toolOfCall(["call", "--config", "x.json", "mcp__a__b", "--help"], takes)).toBe("mcp__a__b")
    expect(toolOfCall(["call", "--json", "--help"], takes)).toBeUndefined()
  })
})
