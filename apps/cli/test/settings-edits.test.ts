/**
 * Settings as a new user edits them: several `mcpctl add` and several terminals answering
 * "always" at once keep every entry (the file lock); `add` refuses what it would save wrong; an
 * unset `${VAR}` fails its own server only, and `get` shows the reference as written.
 */
import { afterAll, describe, expect, it } from "@effect/vitest"
import * as fixtures from "@mcpctl/testing/Fixtures"
import { spawn } from "node:child_process"
import { mkdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { redactValue } from "@mcpctl/core/internal/config/Redact"
import { cliBin, repoRoot, run as spawned, workspace } from "./support.js"
// In process where what is checked is output and exit codes (inProcess.ts); `spawned` where the process
// is the point: parallel writers (in-process runs queue one at a time).
import { runInProcess as run } from "./inProcess.js"

const ws = workspace()
afterAll(() => ws.cleanup())
const home = ws.home

const project = (name: string) => {
  const dir = join(ws.dir, name)
  mkdirSync(dir, { recursive: true })
  return dir
}
const localSettings = (dir: string) => JSON.parse(readFileSync(join(dir, ".mcpctl", "settings.local.json"), "utf8"))

describe("concurrent settings writers", () => {
  it("8 parallel `mcpctl add` → 8 entries", async () => {
    const dir = project("parallel-add")
    const names = Array.from({ length: 8 }, (_, i) => `server${i}`)
    const results = await Promise.all(names.map((name) => spawned(["add", name, "--", "node", `${name}.js`], { home, cwd: dir })))
    expect(results.map((r) => r.code)).toEqual(names.map(() => 0))
    expect(Object.keys(localSettings(dir).mcpServers).sort()).toEqual(names)
  })

  it("5 terminals answering \"always\" at once → 5 allow rules", async () => {
    const dir = project("five-terminals")
    const settings = ws.settings("always.json", { mcpServers: { echo: { command: "node", args: [fixtures.echoServer] } } })
    const calls = [["echo", "text=x"], ["add", "a=1", "b=2"], ["slow", "ms=1"], ["big", "chars=3"], ["fail"]]
    const prompt = "[y] once  [a] always  [n] no >"
    // Each call on a terminal of its own (`script` gives it a pty), all asked before any answers.
    const terminals = calls.map(([tool, ...args]) => {
      const line = [process.execPath, cliBin, "call", `mcp__echo__${tool}`, ...args, "--config", settings, "--cwd", dir]
        .map((w) => `'${w}'`).join(" ")
      const child = spawn("script", ["-qfec", line, "/dev/null"], {
        cwd: repoRoot,
        env: { ...process.env, MCPCTL_HOME: home, TERM: "dumb" },
        stdio: ["pipe", "pipe", "pipe"]
      })
      let output = ""
      const asked = new Promise<void>((resolve, reject) => {
        child.stdout!.on("data", (d) => {
          output += d
          if (output.includes(prompt)) resolve()
        })
        child.once("exit", (code) => reject(new Error(`exited ${code} before asking: ${output}`)))
      })
      const exited = new Promise<number | null>((resolve) => child.once("exit", resolve))
      return { child, asked, exited, output: () => output }
    })
    await Promise.all(terminals.map((t) => t.asked))
    for (const t of terminals) t.child.stdin!.write("a\n")
    const codes = await Promise.all(terminals.map((t) => t.exited))
    // `fail` returns isError (1); every other call ran (0).
    expect(codes).toEqual([0, 0, 0, 0, 1])
    expect([...localSettings(dir).permissions.allow].sort()).toEqual(
      ["mcp__echo__add", "mcp__echo__big", "mcp__echo__echo", "mcp__echo__fail", "mcp__echo__slow"]
    )
  })
})

describe("add refuses what it would save wrong", () => {
  it("a URL of a scheme mcpctl cannot reach is not saved as a command", async () => {
    const dir = project("ftp")
    const r = await run(["add", "x", "ftp://foo"], { home, cwd: dir })
    expect(r.code).toBe(2)
    expect(r.stderr).toContain("ftp://foo is not a URL mcpctl can connect to")
    expect(r.stderr).toContain("mcpctl add NAME -- COMMAND ARGS")
  })

  it("a server name that would be rewritten says so and proposes one", async () => {
    const dir = project("bad-name")
    const r = await run(["add", "bad name!", "--", "node", "x.js"], { home, cwd: dir })
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('Server name "bad name!": use only letters, digits, _ and -')
    expect(r.stderr).toContain("mcpctl add bad_name")
  })
})

describe("an unset ${VAR} is one failed server, not a failed run", () => {
  const settings = ws.settings("unset.json", {
    mcpServers: {
      fs: { command: "node", args: [fixtures.echoServer] },
      api: { type: "http", url: "http://127.0.0.1:9/mcp", headers: { Authorization: "Bearer ${MCPCTL_TEST_API_TOKEN}" } }
    },
    permissions: { allow: ["mcp__fs__echo"] }
  })

  it("get, tools and call of the other servers work; only what needs it exits 4", async () => {
    const get = await run(["get", "fs", "--config", settings], { home })
    expect(get.code).toBe(0)
    const tools = await run(["tools", "fs", "--config", settings], { home })
    expect(tools.code).toBe(0)
    expect(tools.stdout).toContain("mcp__fs__echo")
    const call = await run(["call", "mcp__fs__echo", "text=hi", "--config", settings], { home })
    expect(call).toMatchObject({ code: 0, stdout: "hi\n" })
    const all = await run(["servers", "--config", settings, "--json"], { home })
    expect(all.code).toBe(0)
    const api = JSON.parse(all.stdout).servers.find((s: { name: string }) => s.name === "api")
    expect(api).toMatchObject({ status: "failed", error: expect.stringContaining("mcpServers.api.headers.Authorization") })
    expect(api.error).toContain("${MCPCTL_TEST_API_TOKEN}")
    expect(api.error).toContain(settings)
    for (const args of [["tools", "api"], ["call", "mcp__api__anything"]]) {
      const needed = await run([...args, "--config", settings], { home })
      expect({ args, code: needed.code }).toEqual({ args, code: 4 })
      expect(needed.stderr).toContain("MCPCTL_TEST_API_TOKEN")
    }
  })

  it("get shows the ${VAR} reference as written, set or not, never the value", async () => {
    const envs: ReadonlyArray<Record<string, string>> = [{}, { MCPCTL_TEST_API_TOKEN: "s3cr3t-value" }]
    for (const env of envs) {
      const r = await run(["get", "api", "--config", settings, "--json"], { home, env })
      expect(r.code).toBe(0)
      expect(JSON.parse(r.stdout).config.headers).toEqual({ Authorization: "Bearer ${MCPCTL_TEST_API_TOKEN}" })
      expect(r.stdout).not.toContain("s3cr3t")
    }
  })

  it("hides literal values and defaults; keeps references and the auth scheme (pure)", () => {
    expect(redactValue("Bearer ${TOKEN}")).toBe("Bearer ${TOKEN}")
    expect(redactValue("${A}:${B}")).toBe("REDACTED")
    expect(redactValue("${A}${B}")).toBe("${A}${B}")
    expect(redactValue("Bearer s3cr3t")).toBe("REDACTED")
    expect(redactValue("s3cr3t${TOKEN}")).toBe("REDACTED")
    expect(redactValue("${LEVEL:-info}")).toBe("${LEVEL:-REDACTED}")
  })
})
