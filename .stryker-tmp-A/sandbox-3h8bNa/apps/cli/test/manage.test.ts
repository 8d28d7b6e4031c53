// @ts-nocheck
import { afterAll, describe, expect, it } from "@effect/vitest"
import { redactText, redactUrl } from "@mcpctl/core/internal/config/Redact"
import * as fixtures from "@mcpctl/testing/Fixtures"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { workspace } from "./support.js"
// In process: what is checked is output and exit codes, which a spawn adds nothing to (inProcess.ts).
import { runInProcess as run } from "./inProcess.js"

const ws = workspace()
afterAll(() => ws.cleanup())

describe("add / get / remove", () => {
  it("add writes a stdio server to the local scope; servers then connects it", async () => {
    const opts = { home: ws.home, cwd: ws.project }
    const added = await run(["add", "echo", "--env", "A=1", "--", "node", fixtures.echoServer, "--noise"], opts)
    expect(added.code).toBe(0)
    const file = join(ws.project, ".mcpctl/settings.local.json")
    expect(JSON.parse(readFileSync(file, "utf8")).mcpServers.echo).toEqual({
      command: "node",
      args: [fixtures.echoServer, "--noise"],
      env: { A: "1" }
    })
    // The project's own settings apply once it is trusted (issue 12).
    expect((await run(["trust", "--project"], opts)).code).toBe(0)
    const servers = await run(["servers", "--json"], opts)
    expect(JSON.parse(servers.stdout).servers[0]).toMatchObject({ name: "echo", scope: "local", status: "connected" })
  })

  it("add of a URL writes a remote entry; get hides header values and URL secrets", async () => {
    const opts = { home: ws.home, cwd: ws.project }
    const added = await run(
      ["add", "api", "--scope", "project", "--header", "Authorization: Bearer s3cr3t", "https://mcp.example.com/mcp?token=t0k3n"],
      opts
    )
    expect(added.code).toBe(0)
    expect((await run(["trust", "--project"], opts)).code).toBe(0)
    expect(JSON.parse(readFileSync(join(ws.project, ".mcp.json"), "utf8")).mcpServers.api).toEqual({
      url: "https://mcp.example.com/mcp?token=t0k3n",
      headers: { Authorization: "Bearer s3cr3t" }
    })
    const shown = await run(["get", "api", "--json"], opts)
    expect(shown.code).toBe(0)
    expect(shown.stdout).not.toContain("s3cr3t")
    expect(shown.stdout).not.toContain("t0k3n")
    expect(JSON.parse(shown.stdout)).toMatchObject({ name: "api", scope: "project", transport: "auto" })
  })

  it("get shows ${VAR} references, never the values they expand to", async () => {
    const file = ws.settings("vars.json", {
      mcpServers: { tok: { command: "node", args: ["srv.js", "--token", "${MCPCTL_TEST_SECRET}"] } }
    })
    const shown = await run(["get", "tok", "--config", file], { home: ws.home, env: { MCPCTL_TEST_SECRET: "hunter2" } })
    expect(shown.code).toBe(0)
    expect(shown.stdout).toContain("${MCPCTL_TEST_SECRET}")
    expect(shown.stdout).not.toContain("hunter2")
  })

  it("add keeps comments in an existing settings file", async () => {
    const project = join(ws.dir, "commented")
    mkdirSync(project)
    const file = join(project, ".mcpctl/settings.local.json")
    await run(["add", "first", "--", "node", "x.js"], { home: ws.home, cwd: project })
    writeFileSync(file, readFileSync(file, "utf8").replace("{", "{\n  // keep me"))
    await run(["add", "second", "--", "node", "y.js"], { home: ws.home, cwd: project })
    const text = readFileSync(file, "utf8")
    expect(text).toContain("// keep me")
    expect(text).toContain('"second"')
  })

  it("add and remove work while another entry is broken (an unset variable)", async () => {
    const project = join(ws.dir, "broken-project")
    mkdirSync(join(project, ".mcpctl"), { recursive: true })
    writeFileSync(join(project, ".mcpctl/settings.local.json"), JSON.stringify({
      mcpServers: { broken: { command: "node", args: ["${MCPCTL_TEST_SURELY_UNSET}"] } }
    }))
    // Trusted for these runs (issue 12): otherwise its broken entry would simply be skipped.
    const opts = { home: ws.home, cwd: project, env: { MCPCTL_TRUST_PROJECT: "1" } }
    // The broken server fails alone (issue 13): the only one configured, so `servers` exits 4.
    expect((await run(["servers"], opts)).code).toBe(4)
    expect((await run(["add", "other", "--", "node", "x.js"], opts)).code).toBe(0)
    expect((await run(["remove", "broken"], opts)).code).toBe(0)
    expect((await run(["get", "other"], opts)).code).toBe(0)
  })

  it("remove deletes the entry and says where; an unknown name is exit 2", async () => {
    const opts = { home: ws.home, cwd: ws.project }
    const removed = await run(["remove", "api"], opts)
    expect(removed.code).toBe(0)
    expect(removed.stdout).toContain(".mcp.json")
    expect(JSON.parse(readFileSync(join(ws.project, ".mcp.json"), "utf8")).mcpServers.api).toBeUndefined()
    const again = await run(["remove", "api"], opts)
    expect(again.code).toBe(2)
  })
})

describe("redaction", () => {
  it("a failing remote server's error never shows the token in its URL", async () => {
    const file = ws.settings("secret-url.json", {
      mcpServers: {
        api: { type: "http", url: "http://127.0.0.1:9/mcp?token=t0k3n" },
        // fetch refuses URLs with credentials and quotes the whole URL in its error.
        creds: { type: "http", url: "http://user:pa55@127.0.0.1:9/mcp/s3cr3tpath?k=t0k3n" }
      }
    })
    const r = await run(["servers", "--config", file, "--json"], { home: ws.home })
    expect(JSON.parse(r.stdout).servers.map((s: { status: string }) => s.status)).toEqual(["failed", "failed"])
    for (const secret of ["t0k3n", "pa55", "s3cr3tpath"]) expect(r.stdout + r.stderr).not.toContain(secret)
  })


  it("hides URLs' secrets inside free text, paths included", () => {
    expect(redactText("failed: https://u:p@h.example/mcp/tok?key=abc, retry")).toBe(
      "failed: https://h.example/REDACTED?key=REDACTED, retry"
    )
  })

  it("hides user info and query values of URLs", () => {
    expect(redactUrl("https://u:p@h.example/mcp?key=abc&x=1")).toBe("https://REDACTED:REDACTED@h.example/mcp?key=REDACTED&x=REDACTED")
    expect(redactUrl("not a url")).toBe("not a url")
  })
})
