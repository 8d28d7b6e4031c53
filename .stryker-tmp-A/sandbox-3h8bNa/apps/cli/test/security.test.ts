/**
 * The trust boundary end to end (issue 12): what a server sends never acts on the terminal, the
 * browser or the rules. Each test is one attack against the built CLI and a real stdio server
 * (test/fixtures/attacker-server.mjs).
 */
// @ts-nocheck

import { afterAll, describe, expect, it } from "@effect/vitest"
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { workspace } from "./support.js"
// In process: what is checked is output and exit codes, which a spawn adds nothing to (inProcess.ts).
import { runInProcess as run } from "./inProcess.js"

const attacker = fileURLToPath(new URL("./fixtures/attacker-server.mjs", import.meta.url))
const ws = workspace()
afterAll(() => ws.cleanup())
const opts = { home: ws.home, cwd: ws.project }

/** A settings file with one hostile server `h` started with `args`. */
const settingsWith = (file: string, args: ReadonlyArray<string>, permissions: Record<string, Array<string>> = {}) =>
  ws.settings(file, { mcpServers: { h: { command: process.execPath, args: [attacker, ...args] } }, permissions })

const PAYLOAD = `\r\x1b[2K\x1b]52;c;cHduZWQ=\x07\x1b[2J\u202Eevil\u200B`

/** Nothing a terminal would act on: no ESC, no BEL, no bare CR, no C1, no bidi or zero-width characters. */
const expectInert = (text: string) => {
  expect(text).not.toMatch(/[\x1b\x07\x9b\x9d]/)
  expect(text).not.toMatch(/\r(?!\n)/)
  expect(text).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200B-\u200D\uFEFF]/)
}

describe("terminal injection: server text is made visible, never obeyed", () => {
  const settings = settingsWith("inject.json", ["--inject"], { allow: ["mcp__h__*"] })

  it("tools: descriptions and titles with OSC 52, clears, a bare \\r, bidi and zero-width", async () => {
    const r = await run(["tools", "--config", settings], opts)
    expect(r.code).toBe(0)
    expectInert(r.stdout)
    expectInert(r.stderr)
    expect(r.stdout).toContain("Reads files\\x0d\\x1b[2K\\x1b]52;c;cHduZWQ=\\x07")
    expect(r.stdout).toContain("<U+202E>evil")
  })

  it("tools --json stays exact", async () => {
    const r = await run(["tools", "--json", "--config", settings], opts)
    const tools = JSON.parse(r.stdout).tools as Array<{ tool: string; description: string; title: string }>
    const inject = tools.find((t) => t.tool === "inject")!
    expect(inject.description).toBe(`Reads files${PAYLOAD}`)
    expect(inject.title).toBe(`Inject${PAYLOAD}`)
  })

  it("call: outputs, server log lines and error messages", async () => {
    const called = await run(["call", "mcp__h__inject", "--config", settings], opts)
    expect(called.code).toBe(0)
    expectInert(called.stdout)
    expectInert(called.stderr)
    expect(called.stdout).toContain("output\\x0d\\x1b[2K")
    expect(called.stderr).toContain("logged\\x0d\\x1b[2K")
    const failed = await run(["call", "mcp__h__fail", "--config", settings], opts)
    // A JSON-RPC error (-32603) is the server's answer: exit 1, not 4 "unavailable" (issue 13).
    expect(failed.code).toBe(1)
    expectInert(failed.stderr)
    expect(failed.stderr).toContain("failed\\x0d\\x1b[2K")
  })

  it("resources: names", async () => {
    const r = await run(["resources", "--config", settings], opts)
    expect(r.code).toBe(0)
    expectInert(r.stdout)
    expect(r.stdout).toContain("shared\\x0d")
  })

  it("servers: the stderr tail of a server that fails to start", async () => {
    const failing = settingsWith("fail-start.json", ["--fail-start"])
    const r = await run(["servers", "--config", failing], opts)
    expectInert(r.stderr)
    expectInert(r.stdout)
    expect(r.stderr).toContain("fatal\\x0d\\x1b[2K")
  })
})

describe("a cloned repository cannot run its own commands", () => {
  /** A repository whose .mcp.json server leaves a marker file when it starts. */
  const repo = () => {
    const dir = join(ws.dir, `repo-${Math.random().toString(36).slice(2)}`)
    const marker = join(dir, "ran")
    mkdirSync(join(dir, ".mcpctl"), { recursive: true })
    const server = { command: process.execPath, args: ["-e", `require("fs").writeFileSync(${JSON.stringify(marker)}, "x")`] }
    writeFileSync(join(dir, ".mcp.json"), JSON.stringify({ mcpServers: { theirs: server } }))
    writeFileSync(join(dir, ".mcpctl/settings.json"), JSON.stringify({ permissions: { allow: ["mcp__*"] } }))
    return { dir, marker }
  }

  it("tools in an untrusted directory starts nothing and says how to trust it", async () => {
    const { dir, marker } = repo()
    const r = await run(["tools"], { home: ws.home, cwd: dir })
    expect(r.code).toBe(0)
    expect(existsSync(marker)).toBe(false)
    expect(r.stderr).toContain(`mcpctl trust --project ${dir}`)
  })

  it("its allow rule does not turn the user's own tools from ask into allow", async () => {
    const { dir } = repo()
    const mine = settingsWith("mine.json", ["--inject"])
    const r = await run(["tools", "--json", "--config", mine], { home: ws.home, cwd: dir })
    const tools = JSON.parse(r.stdout).tools as Array<{ name: string; permission: string }>
    expect(tools.find((t) => t.name === "mcp__h__inject")!.permission).toBe("ask")
  })

  it("trust --project runs it until a file changes; MCPCTL_TRUST_PROJECT=1 for one run", async () => {
    const { dir, marker } = repo()
    const trusted = await run(["trust", "--project", dir], { home: ws.home })
    expect(trusted.code).toBe(0)
    expect(trusted.stderr).toContain(`server "theirs"`)
    await run(["servers"], { home: ws.home, cwd: dir })
    expect(existsSync(marker)).toBe(true)
    rmSync(marker)
    writeFileSync(join(dir, ".mcp.json"), readFileSync(join(dir, ".mcp.json"), "utf8") + "\n")
    const changed = await run(["servers"], { home: ws.home, cwd: dir })
    expect(existsSync(marker)).toBe(false)
    expect(changed.stderr).toContain("not a trusted project")
    await run(["servers"], { home: ws.home, cwd: dir, env: { MCPCTL_TRUST_PROJECT: "1" } })
    expect(existsSync(marker)).toBe(true)
  })

  it("add in a directory without project files trusts what it wrote; add beside someone else's files trusts nothing", async () => {
    // The README's way: `add` in a new directory, then `get` there, with no trust step between.
    const fresh = join(ws.dir, `fresh-${Math.random().toString(36).slice(2)}`)
    mkdirSync(fresh)
    expect((await run(["add", "mine", "--", "node", "mine.js"], { home: ws.home, cwd: fresh })).code).toBe(0)
    const got = await run(["get", "mine"], { home: ws.home, cwd: fresh })
    expect(got.code).toBe(0)
    expect(got.stdout).toContain("mine.js")
    // A checkout with its own .mcp.json: the user's add does not vouch for the rest.
    const { dir, marker } = repo()
    expect((await run(["add", "mine", "--", "node", "mine.js"], { home: ws.home, cwd: dir })).code).toBe(0)
    const r = await run(["servers"], { home: ws.home, cwd: dir })
    expect(existsSync(marker)).toBe(false)
    expect(r.stderr).toContain(`mcpctl trust --project ${dir}`)
  })
})

describe("secrets and files", () => {
  it("a URL that does not parse never shows its expanded ${TOKEN}: servers, tools --json, call --json, stderr", async () => {
    const file = ws.settings("bad-url.json", { mcpServers: { api: { url: "https://exa mple.com/mcp?key=${API_TOKEN}" } } })
    const env = { API_TOKEN: "supersecret123" }
    for (const args of [["servers"], ["servers", "--json"], ["tools", "--json"], ["call", "mcp__api__x", "--json"]]) {
      const r = await run([...args, "--config", file], { ...opts, env })
      expect(r.stdout + r.stderr).not.toContain("supersecret123")
      expect(r.stdout + r.stderr).toMatch(/https:\/\/REDACTED/i)
    }
  })

  it("a network failure names the host as written, not one spliced in from a variable: servers and auth", async () => {
    // Issue 13 says why a connection failed (DNS, refused); issue 12 never prints an expanded value.
    const file = ws.settings("var-host.json", { mcpServers: { api: { url: "http://${API_HOST}.invalid/mcp" } } })
    const env = { API_HOST: "supersecret123" }
    for (const args of [["servers"], ["auth", "api"]]) {
      const r = await run([...args, "--config", file], { ...opts, env })
      expect(r.code).toBe(4)
      expect(r.stdout + r.stderr).not.toContain("supersecret123")
    }
  })

  it("get masks secret-looking arguments", async () => {
    const file = ws.settings("args.json", {
      mcpServers: { s: { command: "node", args: ["srv.js", "--api-key=sk-live-abcdef123456", "--token", "t0k3nvalue"] } }
    })
    const r = await run(["get", "s", "--config", file], opts)
    expect(r.code).toBe(0)
    expect(r.stdout).not.toContain("sk-live-abcdef123456")
    expect(r.stdout).not.toContain("t0k3nvalue")
    expect(r.stdout).toContain("--api-key=REDACTED")
  })

  it("a settings file writable by others is refused, naming the fix", async () => {
    const file = ws.settings("open.json", { mcpServers: { s: { command: "node", args: ["x.js"] } } })
    chmodSync(file, 0o666)
    const r = await run(["servers", "--config", file], opts)
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`chmod o-w ${file}`)
  })
})

describe("rules that match nothing say so", () => {
  it("a misspelled deny is printed as a warning instead of silently letting the tool run", async () => {
    const file = settingsWith("misspelled.json", ["--inject"])
    const text = JSON.parse(readFileSync(file, "utf8"))
    writeFileSync(file, JSON.stringify({ ...text, permissions: { denied: ["mcp__h__inject"] }, permission: {} }))
    const r = await run(["tools", "--config", file], opts)
    expect(r.stderr).toContain(`unknown field permissions.denied is ignored (did you mean "deny"?)`)
    expect(r.stderr).toContain(`unknown field permission is ignored (did you mean "permissions"?)`)
  })

  it("a deny for an unknown server, and for a tool the server does not list, are warned about", async () => {
    const file = settingsWith("unknown-deny.json", ["--inject"], { deny: ["mcp__github__delete_repo", "mcp__h__injct"] })
    const r = await run(["tools", "--config", file], opts)
    expect(r.stderr).toContain(`permissions.deny rule "mcp__github__delete_repo" names no configured server`)
    expect(r.stderr).toContain(`permissions.deny rule "mcp__h__injct" matches no tool of h`)
  })

  it("a look-alike of a denied tool is denied, even under a wildcard allow", async () => {
    const file = settingsWith("lookalike.json", ["--lookalike"], { allow: ["mcp__h__*"], deny: ["mcp__h__write_file"] })
    const listed = await run(["tools", "--json", "--config", file], opts)
    const tools = JSON.parse(listed.stdout).tools as Array<{ name: string; tool: string; permission: string }>
    expect(tools.filter((t) => t.tool !== "whoami").map((t) => t.permission)).toEqual(["deny", "deny", "deny", "deny"])
    for (const t of tools.filter((t) => t.tool !== "whoami")) {
      const called = await run(["call", t.name, "--config", file], opts)
      expect(called.code).toBe(3)
    }
  })

  it("two tools that map to one name are both refused", async () => {
    const file = settingsWith("collide.json", ["--collide"], { allow: ["mcp__h__*"] })
    const listed = await run(["tools", "--config", file], opts)
    // The server connected and listed its tools: a collision is reported, not exit 4.
    expect(listed.code, listed.stderr).toBe(0)
    expect(listed.stdout).not.toContain("mcp__h__write_file")
    expect(listed.stderr).toContain(`"write_file" and "write.file" that all map to mcp__h__write_file`)
    const called = await run(["call", "mcp__h__write_file", "--config", file], opts)
    expect(called.code).toBe(2)
    expect(called.stdout).not.toContain("impostor")
  })
})
