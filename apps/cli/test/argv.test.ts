/**
 * The command line a new user types: typo'd flags, flags without their value, values of the
 * wrong type, `-v`, `--wizard` without a terminal, `--help` into a pipe. Each is a usage error
 * (exit 2) naming the flag, or does what it says; checked on the pure check and on the built CLI.
 */
import { afterAll, describe, expect, it } from "@effect/vitest"
import * as fixtures from "@mcpctl/testing/Fixtures"
import * as Either from "effect/Either"
import { spawn } from "node:child_process"
import { checkArgs, commandsOf } from "../src/Argv.js"
import { mcpctl } from "../src/Commands.js"
import { stripAnsi } from "../src/Console.js"
import { cliBin, repoRoot, workspace } from "./support.js"
// In process: what is checked is output and exit codes, which a spawn adds nothing to (inProcess.ts).
import { runInProcess as run } from "./inProcess.js"

const ws = workspace()
afterAll(() => ws.cleanup())
const home = ws.home
const commands = commandsOf(mcpctl)
const check = (line: string, interactive = false) => checkArgs(line.split(" ").filter(Boolean), commands, interactive)
const message = (line: string) => Either.match(check(line), { onLeft: (e) => e.message, onRight: () => "accepted" })

describe("the command line, before @effect/cli reads it (pure)", () => {
  it("knows every command's options from the commands themselves", () => {
    expect([...commands.keys()]).toEqual(
      ["add", "auth", "call", "complete", "completion", "config", "daemon", "get", "import", "logout", "prompt", "prompts", "read", "remove", "resources", "serve", "servers", "skill", "skills", "task", "tools", "trust"]
    )
    expect(commands.get("call")!.flags.get("--timeout")!.value).toBe("integer")
    expect(commands.get("call")!.flags.get("-y")!.names).toContain("--yes")
    expect(commands.get("tools")!.flags.get("--json")!.value).toBeUndefined()
  })

  it("checks a subcommand's own options (`config explain --config FILE`)", () => {
    expect(check("config explain api --config a.json --json")).toEqual(
      Either.right({ args: ["config", "explain", "api", "--config", "a.json", "--json"] })
    )
    expect(message("config explain --jsn")).toContain('Unknown option --jsn for `mcpctl config explain`. Did you mean "--json"?')
    expect(message("config explian")).toContain('No command "config explian". Did you mean "explain"?')
  })

  it("refuses a typo'd flag instead of taking it for a server name, and proposes the flag", () => {
    expect(message("tools --jsn")).toBe('Unknown option --jsn for `mcpctl tools`. Did you mean "--json"? `mcpctl tools --help` lists its options.')
    expect(message("add fs npx -y pkg")).toContain("A server's own flags go after --")
    expect(check("add fs -- npx -y pkg --port 3")).toEqual(Either.right({ args: ["add", "fs", "--", "npx", "-y", "pkg", "--port", "3"] }))
  })

  it("refuses a flag without its value, and a flag taken as another's value", () => {
    expect(message("tools --config")).toBe("--config needs a value (a settings file).")
    expect(message("tools --config --json")).toBe("--config needs a value (a settings file), not --json.")
    expect(check("tools --config=a.json --json")).toEqual(Either.right({ args: ["tools", "--config", "a.json", "--json"] }))
  })

  it("names the option whose value has the wrong type", () => {
    expect(message("call mcp__a__b --timeout abc")).toBe("--timeout abc: expected a whole number (milliseconds).")
    expect(message("serve --drain-timeout x")).toBe("--drain-timeout x: expected a whole number (seconds).")
    expect(message("tools --transport htp")).toContain('--transport htp: expected one of http, sse, ws. Did you mean "http"?')
    expect(message("tools --log-level loud")).toContain("--log-level loud: expected one of debug, info, notice")
  })

  it("takes --log-level out for Flags to read (every MCP and Effect level), -v as --version", () => {
    expect(check("tools --log-level notice everything")).toEqual(Either.right({ args: ["tools", "everything"] }))
    expect(check("add x --log-level trace -- node x.js")).toEqual(Either.right({ args: ["add", "x", "--", "node", "x.js"] }))
    expect(check("-v")).toEqual(Either.right({ args: ["--version"] }))
  })

  it("proposes a command for a typo, and refuses --wizard without a terminal", () => {
    expect(message("tool")).toContain('No command "tool". Did you mean "tools"?')
    expect(message("tools --wizard")).toContain("--wizard asks for each option on a terminal")
    expect(Either.isRight(check("tools --wizard", true))).toBe(true)
  })
})

describe("the built CLI", () => {
  const echo = ws.settings("echo.json", { mcpServers: { echo: { command: "node", args: [fixtures.echoServer] } } })

  it("exits 2 naming the flag for --config without a value, --config --json, --jsn and --timeout abc", async () => {
    const cases: ReadonlyArray<readonly [ReadonlyArray<string>, string]> = [
      [["tools", "--config"], "--config needs a value"],
      [["tools", "--config", "--json"], "--config needs a value (a settings file), not --json"],
      [["tools", "--jsn", "--config", echo], 'Did you mean "--json"?'],
      [["call", "mcp__echo__echo", "text=x", "--timeout", "abc", "--config", echo], "--timeout abc"]
    ]
    for (const [args, said] of cases) {
      const r = await run(args, { home })
      expect({ args, code: r.code }).toEqual({ args, code: 2 })
      expect(r.stderr).toContain(said)
    }
    // With --json the refusal is the JSON document, as for every failure.
    const doc = await run(["tools", "--jsn", "--json"], { home })
    expect(JSON.parse(doc.stdout).error).toMatchObject({ type: "UsageError", exitCode: 2 })
  })

  it("-v prints the version; --wizard without a terminal ends at once with exit 2", async () => {
    const version = await run(["-v"], { home })
    expect({ code: version.code, stdout: version.stdout.trim() }).toEqual({ code: 0, stdout: "0.1.0" })
    const wizard = await run(["tools", "--wizard"], { home })
    expect(wizard.code).toBe(2)
    expect(wizard.stderr).toContain("--wizard asks for each option on a terminal")
  })

  it("serve --http 99999 is a usage error naming the range, not an internal error", async () => {
    const r = await run(["serve", "--http", "99999", "--config", echo], { home })
    expect(r.code).toBe(2)
    expect(r.stderr).toContain("0 to 65535")
    expect(r.stderr).not.toContain("internal error")
    expect(r.stderr).not.toMatch(/\n\s+at /)
  })

  it("serve --peer without HOST:PORT is a usage error naming the flag, the value and the form, not ignored", async () => {
    for (const value of ["replica-b", "replica-b:0", "10.0.0.2:99999", ":8080", "http://replica-b:8080"]) {
      const r = await run(["serve", "--http", "0", "--peer", "10.0.0.3:8080", "--peer", value, "--config", echo], { home })
      expect(r.code, value).toBe(2)
      expect(r.stderr).toContain(`--peer ${value}: expected HOST:PORT`)
      expect(r.stderr).not.toContain("internal error")
      expect(r.stderr).not.toContain("serving MCP")
    }
  })

  it("--cwd of a directory that does not exist is a usage error", async () => {
    for (const args of [["tools", "--cwd", "/nonexistent/project"], ["add", "x", "--cwd", "/nonexistent/project", "--", "node", "x.js"]]) {
      const r = await run(args, { home })
      expect(r.code).toBe(2)
      expect(r.stderr).toContain("--cwd /nonexistent/project: no such directory")
    }
  })

  it("--help into a pipe is plain text, and lists --log-level once", async () => {
    const r = await run(["tools", "--help"], { home })
    expect(r.code).toBe(0)
    expect(r.stdout).not.toContain("\x1b[")
    expect(r.stdout).toBe(stripAnsi(r.stdout))
    expect(r.stdout.match(/--log-level/g)).toHaveLength(1)
    expect(r.stdout).toContain("--json")
    const top = await run(["--help"], { home })
    expect(top.stdout).toContain("`mcpctl COMMAND --help`")
  })

  it("a reader that stops early (`| head -1`) is no crash", async () => {
    const child = spawn("sh", ["-c", `"$0" "$1" tools --config "$2" | head -1`, process.execPath, cliBin, echo], {
      cwd: repoRoot,
      env: { ...process.env, MCPCTL_HOME: home },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    child.stdout!.on("data", (d) => (stdout += d))
    child.stderr!.on("data", (d) => (stderr += d))
    await new Promise((resolve) => child.once("close", resolve))
    expect(stdout).toMatch(/^NAME/)
    expect(stderr).not.toContain("EPIPE")
  })
})
