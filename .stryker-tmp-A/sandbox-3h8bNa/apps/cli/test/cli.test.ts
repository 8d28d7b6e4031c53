// @ts-nocheck
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Everything } from "@mcpctl/testing"
import * as fixtures from "@mcpctl/testing/Fixtures"
import { type ChildProcess, spawn } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { waitForFile } from "@mcpctl/testing/Processes"
import { cliBin, isAlive, repoRoot, run, workspace } from "./support.js"

const ws = workspace()
afterAll(() => ws.cleanup())
const home = ws.home
const example = join(repoRoot, "examples/settings.json")

const echoSettings = (extra: Record<string, unknown> = {}, permissions: Record<string, unknown> = {}) =>
  ws.settings(`echo-${Math.random().toString(36).slice(2)}.json`, {
    mcpServers: { echo: { command: "node", args: [fixtures.echoServer] }, ...extra },
    permissions: { allow: ["mcp__echo__echo", "mcp__echo__slow", "mcp__echo__fail"], ...permissions }
  })

describe("mcpctl against the reference servers (examples/settings.json)", () => {
  it("tools --json lists every server's catalogue with permissions and annotations", async () => {
    const r = await run(["tools", "--config", example, "--json"], { home })
    expect(r.code).toBe(0)
    const doc = JSON.parse(r.stdout)
    expect(doc.errors).toEqual([])
    const names = doc.tools.map((t: { name: string }) => t.name)
    expect(names).toContain("mcp__everything__echo")
    expect(names).toContain("mcp__filesystem__read_text_file")
    expect(names).toContain("mcp__memory__read_graph")
    const write = doc.tools.find((t: { name: string }) => t.name === "mcp__filesystem__write_file")
    expect(write).toMatchObject({ server: "filesystem", tool: "write_file", permission: "deny", readOnly: false })
    const echo = doc.tools.find((t: { name: string }) => t.name === "mcp__everything__echo")
    expect(echo).toMatchObject({ permission: "allow", readOnly: true, concurrencySafe: true })
    expect(echo.inputSchema.type).toBe("object")
  })

  it("servers --json reports each server connected with counts and server info", async () => {
    const r = await run(["servers", "--config", example, "--json"], { home })
    expect(r.code).toBe(0)
    const { servers } = JSON.parse(r.stdout)
    expect(servers.map((s: { name: string }) => s.name).sort()).toEqual(["everything", "filesystem", "memory"])
    for (const s of servers) {
      expect(s).toMatchObject({ status: "connected", transport: "stdio", scope: "flag", error: null })
      expect(s.tools).toBeGreaterThan(0)
      expect(typeof s.connectMs).toBe("number")
      expect(s.source).toBe(example)
    }
    expect(servers.find((s: { name: string }) => s.name === "everything").resources).toBeGreaterThan(0)
  })

  it("call runs an allowed tool with key=value arguments coerced by the schema", async () => {
    const r = await run(["call", "mcp__everything__get-sum", "a=2", "b=40", "--config", example, "--json"], { home })
    expect(r.code).toBe(0)
    const doc = JSON.parse(r.stdout)
    expect(doc).toMatchObject({ name: "mcp__everything__get-sum", server: "everything", tool: "get-sum", isError: false, truncated: false })
    expect(JSON.stringify(doc.content)).toContain("42")
  })

  it("call reads a real file through server-filesystem (human output)", async () => {
    const file = join(repoRoot, "examples/files/hello.txt")
    const r = await run(["call", "mcp__filesystem__read_text_file", `path=${file}`, "--config", example], { home })
    expect(r.code).toBe(0)
    expect(r.stdout).toContain(readFileSync(file, "utf8").trim())
  })

  it("a deny rule stops the call with exit 3 and names the rule, even with --yes", async () => {
    const r = await run(
      ["call", "mcp__filesystem__write_file", "path=x", "content=y", "--yes", "--config", example],
      { home }
    )
    expect(r.code).toBe(3)
    expect(r.stderr).toContain('"mcp__filesystem__write_file"')
    expect(r.stderr).toContain("permissions.deny")
  })
})

describe("mcpctl against fixture servers", () => {
  it("ask without a terminal fails with exit 3 naming the rule to add; --yes approves", async () => {
    const settings = echoSettings()
    const asked = await run(["call", "mcp__echo__add", "a=1", "b=2", "--config", settings], { home })
    expect(asked.code).toBe(3)
    expect(asked.stderr).toContain('add "mcp__echo__add" to permissions.allow')
    const approved = await run(["call", "mcp__echo__add", "a=1", "b=2", "--yes", "--config", settings], { home })
    expect(approved.code).toBe(0)
    expect(approved.stdout.trim()).toBe("3")
  })

  it("a large --json document reaches a slow reader whole (stdout is flushed before exit)", async () => {
    // The reader starts only after 1.5 s, so the 64 KB pipe is full when mcpctl wants to exit.
    const settings = echoSettings()
    const child = spawn("sh", ["-c", `"$0" "$1" call mcp__echo__echo "text=$2" --json --config "$3" | (sleep 1.5; cat)`,
      process.execPath, cliBin, "x".repeat(90_000), settings], {
      cwd: repoRoot,
      env: { ...process.env, MCPCTL_HOME: home },
      stdio: ["ignore", "pipe", "ignore"]
    })
    let out = ""
    child.stdout!.on("data", (d) => (out += d))
    await new Promise((resolve) => child.once("close", resolve))
    expect(JSON.parse(out).content[0].text.length).toBe(90_000)
  })

  it("a server's own maxOutputTokens setting overrides MAX_MCP_OUTPUT_TOKENS", async () => {
    const settings = ws.settings("budget.json", {
      mcpServers: { echo: { command: "node", args: [fixtures.echoServer], maxOutputTokens: 100 } },
      permissions: { allow: ["mcp__echo__big"] }
    })
    const r = await run(["call", "mcp__echo__big", "chars=5000", "--json", "--config", settings], {
      home,
      env: { MAX_MCP_OUTPUT_TOKENS: "50000" }
    })
    const doc = JSON.parse(r.stdout)
    expect(doc.truncated).toBe(true)
    expect(doc.content[0].text.length).toBeLessThanOrEqual(400)
  })

  it("a tool that returns isError exits 1", async () => {
    const r = await run(["call", "mcp__echo__fail", "--config", echoSettings(), "--json"], { home })
    expect(r.code).toBe(1)
    expect(JSON.parse(r.stdout).isError).toBe(true)
  })

  it("a call past --timeout exits 5 and says how to raise it", async () => {
    const r = await run(["call", "mcp__echo__slow", "ms=20000", "--timeout", "300", "--config", echoSettings()], { home })
    expect(r.code).toBe(5)
    expect(r.stderr).toContain("300 ms")
    expect(r.stderr).toContain("--timeout")
  })

  it("the per-server timeout applies when --timeout is not given", async () => {
    const settings = ws.settings("timeout.json", {
      mcpServers: { echo: { command: "node", args: [fixtures.echoServer], timeout: 250 } },
      permissions: { allow: ["mcp__echo__*"] }
    })
    const r = await run(["call", "mcp__echo__slow", "ms=20000", "--config", settings], { home })
    expect(r.code).toBe(5)
  })

  it("unknown tools and bad arguments are usage errors (exit 2)", async () => {
    const settings = echoSettings()
    const noTool = await run(["call", "mcp__echo__nope", "--config", settings], { home })
    expect(noTool.code).toBe(2)
    expect(noTool.stderr).toContain("mcp__echo__echo")
    const badNumber = await run(["call", "mcp__echo__add", "a=one", "b=2", "--yes", "--config", settings], { home })
    expect(badNumber.code).toBe(2)
    expect(badNumber.stderr).toContain("a=one")
    const zeroTimeout = await run(["call", "mcp__echo__echo", "text=x", "--timeout", "0", "--config", settings], { home })
    expect(zeroTimeout.code).toBe(2)
    for (const args of [["tools", "nosuch"], ["read", "nosuch", "file:///x"], ["prompt", "nosuch", "p"]]) {
      const typo = await run([...args, "--config", settings], { home })
      expect(typo.code).toBe(2)
      expect(typo.stderr).toContain('No server named "nosuch"')
    }
  })

  it("a server that fails to start is reported failed with its stderr; calls on it exit 4", async () => {
    const settings = ws.settings("broken.json", {
      mcpServers: {
        ok: { command: "node", args: [fixtures.echoServer] },
        broken: { command: "node", args: [fixtures.echoServer, "--fail-start"] }
      },
      permissions: { allow: ["mcp__broken__echo"] }
    })
    const servers = await run(["servers", "--config", settings, "--json"], { home })
    expect(servers.code).toBe(0)
    const byName = Object.fromEntries(JSON.parse(servers.stdout).servers.map((s: { name: string }) => [s.name, s]))
    expect(byName.ok.status).toBe("connected")
    expect(byName.broken.status).toBe("failed")
    expect(byName.broken.error).toContain("cannot start (--fail-start given)")
    const call = await run(["call", "mcp__broken__echo", "text=x", "--config", settings], { home })
    expect(call.code).toBe(4)
    expect(call.stderr).toContain("broken")
  })

  it("a disabled server is reported and never started", async () => {
    const settings = echoSettings({ off: { command: "definitely-not-a-command", disabled: true } })
    const r = await run(["servers", "--config", settings, "--json"], { home })
    const offs = JSON.parse(r.stdout).servers.filter((s: { name: string }) => s.name === "off")
    expect(offs.map((s: { status: string }) => s.status)).toEqual(["disabled"])
  })
})

describe("configuration errors exit 2 and name the file and the fix", () => {
  it("malformed JSON names the file and position", async () => {
    const file = ws.settings("malformed.json", '{ "mcpServers": { "x": { "command": "node", } ')
    const r = await run(["servers", "--config", file], { home })
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(file)
  })

  it("a wrong type names the JSON path", async () => {
    const file = ws.settings("wrongtype.json", { mcpServers: { fs: { command: 5 } } })
    const r = await run(["tools", "--config", file, "--json"], { home })
    expect(r.code).toBe(2)
    expect(r.stderr).toContain("mcpServers.fs.command")
    expect(JSON.parse(r.stdout).error.type).toBe("ConfigError")
  })

  it("an unset variable names server, field and variable and is never sent", async () => {
    const file = ws.settings("unset.json", {
      mcpServers: { api: { type: "http", url: "http://127.0.0.1:9/${MCPCTL_TEST_UNSET_VAR}" } }
    })
    const r = await run(["servers", "--config", file], { home })
    // The server fails alone (settings-edits.test.ts); it was the only one, so the run exits 4.
    expect(r.code).toBe(4)
    expect(r.stderr).toContain("api")
    expect(r.stderr).toContain("url")
    expect(r.stderr).toContain("MCPCTL_TEST_UNSET_VAR")
  })

  it("a missing --config file is named", async () => {
    const r = await run(["servers", "--config", "/nonexistent/settings.json"], { home })
    expect(r.code).toBe(2)
    expect(r.stderr).toContain("/nonexistent/settings.json")
  })
})

describe("Streamable HTTP against server-everything on 127.0.0.1", () => {
  let server: ChildProcess
  let port = 0

  beforeAll(async () => {
    ;({ child: server, port } = await Everything.startEverything("streamableHttp"))
  })
  afterAll(() => Everything.stopServer(server))

  it("lists and calls tools over http, and auto-detects a url without type", async () => {
    for (const entry of [{ type: "http", url: `http://127.0.0.1:${port}/mcp` }, { url: `http://127.0.0.1:${port}/mcp` }]) {
      const file = ws.settings(`http-${Math.random()}.json`, {
        mcpServers: { remote: entry },
        permissions: { allow: ["mcp__remote__echo"] }
      })
      const servers = JSON.parse((await run(["servers", "--config", file, "--json"], { home })).stdout).servers
      expect(servers[0]).toMatchObject({ name: "remote", status: "connected", transport: "http" })
      const call = await run(["call", "mcp__remote__echo", "message=over-http", "--config", file, "--json"], { home })
      expect(call.code).toBe(0)
      expect(JSON.stringify(JSON.parse(call.stdout).content)).toContain("over-http")
    }
  })
})

describe("shutdown leaves nothing behind", () => {
  it("a stubborn server behind a shell wrapper, and its grandchild, are gone when mcpctl exits", async () => {
    const pidFile = join(ws.dir, "stubborn.pids")
    const wrapperPidFile = join(ws.dir, "wrapper.pid")
    const file = ws.settings("stubborn.json", {
      mcpServers: {
        stubborn: {
          command: "sh",
          args: [fixtures.stubbornWrapper],
          env: { STUBBORN_PID_FILE: pidFile, STUBBORN_WRAPPER_PID_FILE: wrapperPidFile }
        }
      }
    })
    const r = await run(["servers", "--config", file, "--json"], { home })
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout).servers[0].status).toBe("connected")
    expect(existsSync(pidFile)).toBe(true)
    const pids = JSON.parse(readFileSync(pidFile, "utf8"))
    const wrapper = Number(readFileSync(wrapperPidFile, "utf8").trim())
    // mcpctl has exited: its shutdown already ended the whole process group.
    expect([pids.server, pids.grandchild, wrapper].filter(isAlive)).toEqual([])
  })

  it("Ctrl-C during a call ends mcpctl and the server", async () => {
    const pidFile = join(ws.dir, "ctrlc.pids")
    const callFile = join(ws.dir, "ctrlc.call")
    const file = ws.settings("ctrlc.json", {
      mcpServers: {
        stubborn: {
          command: "node",
          args: [fixtures.stubbornServer],
          env: { STUBBORN_PID_FILE: pidFile, STUBBORN_CALL_FILE: callFile }
        }
      },
      permissions: { allow: ["mcp__stubborn__*"] }
    })
    let cli = 0
    const running = run(["call", "mcp__stubborn__hang", "--config", file], { home, onSpawn: (pid) => (cli = pid) })
    // Interrupt once the server has the call (it writes a file: the event), like a user pressing Ctrl-C.
    await Promise.all([waitForFile(callFile, 20_000), waitForFile(pidFile, 20_000)])
    process.kill(cli, "SIGINT")
    const r = await running
    expect(r.code).toBe(130)
    const pids = JSON.parse(readFileSync(pidFile, "utf8"))
    expect([pids.server, pids.grandchild].filter(isAlive)).toEqual([])
  })
})
