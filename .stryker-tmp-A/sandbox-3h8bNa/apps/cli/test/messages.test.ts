/**
 * Messages a new user meets in the first hour, each of which must say what happened and what to
 * do: sign-in against servers that cannot sign in, typos of tools and servers, missing required
 * arguments, a truncated result, a denial, servers `serve` could not start, and pointers into
 * docs/CLI.md that exist.
 */
// @ts-nocheck

import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Everything } from "@mcpctl/testing"
import * as fixtures from "@mcpctl/testing/Fixtures"
import { Client } from "@modelcontextprotocol/client"
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio"
import type { ChildProcess } from "node:child_process"
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { checkRequired } from "../src/Args.js"
import * as Either from "effect/Either"
import { cliBin, repoRoot, workspace } from "./support.js"
// In process: what is checked is output and exit codes, which a spawn adds nothing to (inProcess.ts).
import { runInProcess as run } from "./inProcess.js"

const ws = workspace()
afterAll(() => ws.cleanup())
const home = ws.home
const example = join(repoRoot, "examples/settings.json")
const postgresLike = fileURLToPath(new URL("./fixtures/postgres-like.mjs", import.meta.url))

describe("auth against servers that cannot sign you in", () => {
  let server: ChildProcess | undefined
  let port = 0
  beforeAll(async () => {
    ;({ child: server, port } = await Everything.startEverything("streamableHttp"))
  })
  afterAll(() => Everything.stopServer(server))

  it("a server without OAuth says it needs no sign-in (exit 2), not an unknown error", async () => {
    const r = await run(["auth", "--url", `http://127.0.0.1:${port}/mcp`], { home })
    expect(r.code).toBe(2)
    expect(r.stderr).toContain("adhoc needs no sign-in: it answered without credentials")
    expect(r.stderr).not.toContain("unknown error")
  })

  it("a refused connection and a name that does not resolve say so (exit 4)", async () => {
    const refused = await run(["auth", "--url", `http://127.0.0.1:${await Everything.freePort()}/mcp`], { home })
    expect(refused.code).toBe(4)
    expect(refused.stderr).toMatch(/nothing accepts connections at 127\.0\.0\.1:\d+ \(connection refused\)/)
    const dns = await run(["auth", "--url", "http://mcpctl-no-such-host.invalid/mcp"], { home })
    expect(dns.code).toBe(4)
    expect(dns.stderr).toMatch(/mcpctl-no-such-host\.invalid.*(does not resolve|could not be looked up)/)
    for (const r of [refused, dns]) expect(r.stderr).not.toContain("unknown error")
  })

  it("connecting says why too, instead of a bare \"fetch failed\"", async () => {
    const r = await run(["tools", "--url", `http://127.0.0.1:${await Everything.freePort()}/mcp`], { home })
    expect(r.code).toBe(4)
    expect(r.stderr).toContain("(connection refused)")
  })

  it("logout without a name asks for the server to sign out of", async () => {
    const r = await run(["logout"], { home })
    expect(r.code).toBe(2)
    expect(r.stderr).toContain("Name the server to sign out of: mcpctl logout NAME")
  })
})

describe("typos and missing arguments", () => {
  it("a mistyped tool or server proposes the right one", async () => {
    const tool = await run(["call", "mcp__everything__get-sun", "a=1", "b=2", "--config", example], { home })
    expect(tool.code).toBe(2)
    expect(tool.stderr).toContain('Did you mean "mcp__everything__get-sum"?')
    const server = await run(["tools", "everythin", "--config", example], { home })
    expect(server.code).toBe(2)
    expect(server.stderr).toContain('No server named "everythin". Did you mean "everything"?')
  })

  it("a required argument is checked against the input schema before anything is asked or sent", async () => {
    const r = await run(["call", "mcp__everything__get-sum", "a=2", "--config", example], { home })
    expect(r.code).toBe(2)
    expect(r.stderr).toContain("mcp__everything__get-sum needs b=… (missing required argument b (number))")
    // Checked before the permission question: no rule to add is mentioned.
    expect(r.stderr).not.toContain("permissions.allow")
    expect(Either.isRight(checkRequired("t", { a: 1 }, { type: "object", required: ["a"] }))).toBe(true)
    const missing = checkRequired("t", {}, { type: "object", properties: { a: { type: "string" }, b: {} }, required: ["a"] })
    expect(Either.isLeft(missing) && missing.left.message).toBe(
      "t needs a=… (missing required argument a (string)). It takes: a (string) required, b."
    )
  })
})

describe("what a call's output and a denial say", () => {
  it("a truncated result says which setting to raise, and its value", async () => {
    const own = ws.settings("budget.json", {
      mcpServers: { echo: { command: "node", args: [fixtures.echoServer], maxOutputTokens: 100 } },
      permissions: { allow: ["mcp__echo__big"] }
    })
    const r = await run(["call", "mcp__echo__big", "chars=5000", "--config", own], { home })
    expect(r.code).toBe(0)
    expect(r.stderr).toContain("note: raise mcpServers.echo.maxOutputTokens to see more, or pass --save-full to keep the whole text in a file")
    expect(r.stdout).toContain("raise mcpServers.echo.maxOutputTokens to see more")
    const global = ws.settings("global-budget.json", {
      mcpServers: { echo: { command: "node", args: [fixtures.echoServer] } },
      permissions: { allow: ["mcp__echo__big"] }
    })
    const g = await run(["call", "mcp__echo__big", "chars=5000", "--config", global], { home, env: { MAX_MCP_OUTPUT_TOKENS: "100" } })
    expect(g.stderr).toContain("note: raise MAX_MCP_OUTPUT_TOKENS to see more, or pass --save-full")
  })

  it("a denial names the settings file that holds the rule", async () => {
    const r = await run(["call", "mcp__filesystem__write_file", "path=x", "content=y", "--yes", "--config", example], { home })
    expect(r.code).toBe(3)
    expect(r.stderr).toContain(`rule "mcp__filesystem__write_file" in permissions.deny of ${example}`)
  })

  it("tools without annotations show the spec's defaults: destructive, open-world", async () => {
    const pg = ws.settings("pg.json", { mcpServers: { pg: { command: "node", args: [postgresLike] } } })
    const r = await run(["tools", "--config", pg, "--json"], { home })
    expect(JSON.parse(r.stdout).tools[0]).toMatchObject({ name: "mcp__pg__query", readOnly: false, destructive: true, openWorld: true })
    const human = await run(["tools", "--config", pg], { home })
    expect(human.stdout).toMatch(/mcp__pg__query\s+ask\s+destructive,open-world/)
    // Resources of a server without resources/templates/list are listed, not dropped.
    const resources = await run(["resources", "--config", pg, "--json"], { home })
    expect(resources.code).toBe(0)
    expect(JSON.parse(resources.stdout)).toMatchObject({
      resources: [{ server: "pg", uri: "postgres://db/users/schema" }],
      templates: [],
      errors: []
    })
  })
})

describe("serve says which servers it could not start", () => {
  it("on stderr, naming the server and why, while it serves the rest", async () => {
    const settings = ws.settings("serve-broken.json", {
      mcpServers: {
        echo: { command: "node", args: [fixtures.echoServer] },
        broken: { command: "node", args: [fixtures.echoServer, "--fail-start"] }
      },
      permissions: { allow: ["mcp__echo__echo"] }
    })
    let stderr = ""
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cliBin, "serve", "--config", settings],
      cwd: repoRoot,
      env: { ...process.env, MCPCTL_HOME: home } as Record<string, string>,
      stderr: "pipe"
    })
    // The summary line is the last thing serve says about its servers: the event to wait for.
    const summarized = new Promise<void>((resolve) =>
      transport.stderr!.on("data", (d) => {
        stderr += d
        if (/servers? connected/.test(stderr)) resolve()
      })
    )
    const client = new Client({ name: "test", version: "1" })
    await client.connect(transport)
    try {
      const { tools } = await client.listTools()
      expect(tools.map((t) => t.name)).toContain("mcp__echo__echo")
      await summarized
      expect(stderr).toContain('mcpctl serve: server "broken" is failed, its tools are not served')
      expect(stderr).toContain("cannot start (--fail-start given)")
      expect(stderr).toContain("mcpctl serve: 1 of 2 servers connected")
    } finally {
      await client.close()
    }
  })
})

describe("pointers into the docs", () => {
  /** String literals of the sources (comments left out) that mention CLI.md. */
  const pointers = ["packages/core/src", "apps/cli/src"].flatMap((dir) =>
    readdirSync(join(repoRoot, dir), { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".ts") && statSync(join(repoRoot, dir, f)).isFile())
      .flatMap((f) =>
        readFileSync(join(repoRoot, dir, f), "utf8").split("\n")
          .filter((line) => !/^\s*(\/\/|\*|\/\*\*)/.test(line))
          .map((line) => line.replace(/\/\/.*$/, ""))
          .filter((line) => line.includes("CLI.md"))
          .map((line) => ({ file: join(dir, f), line: line.trim() }))
      )
  )
  const headings = readFileSync(join(repoRoot, "docs/CLI.md"), "utf8").split("\n")
    .filter((l) => l.startsWith("#")).map((l) => l.replace(/^#+\s*/, ""))

  it("every message that sends users to CLI.md names docs/CLI.md and a section it has", () => {
    expect(pointers.length).toBeGreaterThan(0)
    for (const { file, line } of pointers) {
      const m = /docs\/CLI\.md, section ([A-Z][\w ]*?)[).]/.exec(line)
      expect(m, `${file}: ${line}`).not.toBeNull()
      expect(headings, `${file}: ${line}`).toContain(m![1])
    }
  })
})
