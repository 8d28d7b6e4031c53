// @ts-nocheck
import { afterAll, describe, expect, it } from "@effect/vitest"
import * as fixtures from "@mcpctl/testing/Fixtures"
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client"
import { spawn } from "node:child_process"
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { cliBin, repoRoot, serveTransport, workspace } from "./support.js"

const ws = workspace()
afterAll(() => ws.cleanup())
const settings = ws.settings("serve.json", {
  mcpServers: { echo: { command: "node", args: [fixtures.echoServer] } },
  permissions: { allow: ["mcp__echo__echo"], deny: ["mcp__echo__destructive_thing"] }
})

/** `mcpctl serve --http 0`, and the URL it announces on stderr once it listens. */
const serveHttp = () => {
  const child = spawn(process.execPath, [cliBin, "serve", "--http", "0", "--config", settings], {
    cwd: repoRoot,
    env: { ...process.env, MCPCTL_HOME: ws.home },
    stdio: ["ignore", "ignore", "pipe"]
  })
  // The URL, and the run's bearer token every request needs (printed once on stderr).
  const ready = new Promise<{ url: string; token: string; file: string }>((resolve, reject) => {
    let text = ""
    child.stderr!.on("data", (d) => {
      text += d
      const m = /serving MCP on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(text)
      const t = /"Authorization: Bearer ([A-Za-z0-9_-]+)" \(also in (\S+), mode 0600\)/.exec(text)
      if (m && t) resolve({ url: m[1]!, token: t[1]!, file: t[2]! })
    })
    child.on("exit", (code) => reject(new Error(`serve exited ${code}: ${text}`)))
  })
  return { child, url: ready.then((r) => r.url), ready }
}

const exercise = async (client: Client) => {
  const { tools } = await client.listTools()
  const names = tools.map((t) => t.name)
  expect(names).toContain("mcp__echo__echo")
  // Denied tools are not even listed.
  expect(names).not.toContain("mcp__echo__destructive_thing")
  expect(tools.find((t) => t.name === "mcp__echo__echo")!.annotations?.readOnlyHint).toBe(true)
  const echoed = await client.callTool({ name: "mcp__echo__echo", arguments: { text: "through the gateway" } })
  expect(echoed.content).toEqual([{ type: "text", text: "through the gateway" }])
  // An ask without --yes: refused as a tool error the model can read, naming the rule to add.
  const asked = await client.callTool({ name: "mcp__echo__add", arguments: { a: 1, b: 2 } })
  expect(asked.isError).toBe(true)
  expect(JSON.stringify(asked.content)).toContain("mcp__echo__add")
  const { resources } = await client.listResources()
  expect(resources.map((r) => r.uri)).toContain("test://greeting")
  const read = await client.readResource({ uri: "test://greeting" })
  expect(JSON.stringify(read.contents)).toContain("hello from echo-server")
  const { prompts } = await client.listPrompts()
  expect(prompts.map((p) => p.name)).toContain("echo__greet")
  const prompt = await client.getPrompt({ name: "echo__greet", arguments: { name: "Ada" } })
  expect(JSON.stringify(prompt.messages)).toContain("Ada")
}

describe("mcpctl serve", () => {
  it("serves the configured servers as one MCP server over stdio", async () => {
    const client = new Client({ name: "test", version: "1" })
    await client.connect(serveTransport(["--config", settings], { MCPCTL_HOME: ws.home }))
    try {
      await exercise(client)
    } finally {
      await client.close()
    }
  })

  it("serves Streamable HTTP on 127.0.0.1", async () => {
    const { child, ready } = serveHttp()
    try {
      const { token, url } = await ready
      const client = new Client({ name: "test", version: "1" })
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }))
      await exercise(client)
      await client.close()
    } finally {
      child.kill("SIGINT")
      await new Promise((resolve) => child.once("exit", resolve))
    }
  })
})

/** A v2 client in one era: `legacy` (initialize, sessions) or `modern` (2026-07-28 pinned: no initialize). */
const clientIn = (era: "legacy" | "modern") =>
  new Client({ name: "test", version: "1" }, {
    versionNegotiation: { mode: era === "modern" ? { pin: "2026-07-28" } : "legacy" }
  })

describe("mcpctl serve speaks both eras", () => {
  for (const era of ["legacy", "modern"] as const) {
    it(`a ${era} client over stdio lists and calls tools; denied tools are refused`, async () => {
      const client = clientIn(era)
      await client.connect(serveTransport(["--config", settings], { MCPCTL_HOME: ws.home }))
      try {
        expect(client.getNegotiatedProtocolVersion()).toBe(era === "modern" ? "2026-07-28" : "2025-11-25")
        await exercise(client)
        const denied = await client.callTool({ name: "mcp__echo__destructive_thing", arguments: {} })
        expect(denied.isError).toBe(true)
        expect(JSON.stringify(denied.content)).toContain("denied")
      } finally {
        await client.close()
      }
    })

    it(`a ${era} client over stdio hears of catalogue changes (${era === "modern" ? "subscriptions/listen" : "list_changed"})`, async () => {
      const toolsFile = join(ws.dir, `tools-${era}.json`)
      writeFileSync(toolsFile, JSON.stringify([{ name: "one" }]))
      const changing = ws.settings(`serve-changing-${era}.json`, {
        mcpServers: { calc: { command: "node", args: [fixtures.toolsServer, "--tools", toolsFile], pin: false } },
        permissions: { allow: ["mcp__calc"] }
      })
      const client = clientIn(era)
      await client.connect(serveTransport(["--config", changing], { MCPCTL_HOME: ws.home }))
      try {
        expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["mcp__calc__one"])
        const changed = new Promise<void>((resolve) => client.setNotificationHandler("notifications/tools/list_changed", () => resolve()))
        if (era === "modern") await client.listen({ toolsListChanged: true })
        writeFileSync(toolsFile, JSON.stringify([{ name: "one" }, { name: "two" }]))
        await changed
        expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["mcp__calc__one", "mcp__calc__two"])
      } finally {
        await client.close()
      }
    })

    it(`a ${era} client over HTTP lists and calls tools; denied tools are refused; the token is needed`, async () => {
      const { child, ready } = serveHttp()
      try {
        const { token, url } = await ready
        const anonymous = clientIn(era)
        await expect(anonymous.connect(new StreamableHTTPClientTransport(new URL(url)))).rejects.toThrow()
        const client = clientIn(era)
        await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }))
        expect(client.getNegotiatedProtocolVersion()).toBe(era === "modern" ? "2026-07-28" : "2025-11-25")
        await exercise(client)
        const denied = await client.callTool({ name: "mcp__echo__destructive_thing", arguments: {} })
        expect(denied.isError).toBe(true)
        expect(JSON.stringify(denied.content)).toContain("denied")
        await client.close()
      } finally {
        child.kill("SIGINT")
        await new Promise((resolve) => child.once("exit", resolve))
      }
    })
  }
})

describe("mcpctl serve --http refuses what is not loopback", () => {
  it("answers 403 to a foreign Host or Origin (DNS rebinding) and 400 to a request without a session", async () => {
    const { child, ready } = serveHttp()
    try {
      const { token, url } = await ready
      const init = JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } }
      })
      const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${token}` }
      const foreignOrigin = await fetch(url, { method: "POST", headers: { ...headers, origin: "http://attacker.example" }, body: init })
      expect(foreignOrigin.status).toBe(403)
      const noSession = await fetch(url, {
        method: "POST",
        headers,
        body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" })
      })
      expect(noSession.status).toBe(400)
      const { request } = await import("node:http")
      const foreignHost = await new Promise<number>((resolve, reject) => {
        const u = new URL(url)
        const req = request({ host: u.hostname, port: u.port, path: u.pathname, method: "POST", headers: { ...headers, host: "attacker.example" } }, (res) => {
          res.resume()
          resolve(res.statusCode ?? 0)
        })
        req.on("error", reject)
        req.end(init)
      })
      expect(foreignHost).toBe(403)
    } finally {
      child.kill("SIGINT")
      await new Promise((resolve) => child.once("exit", resolve))
    }
  })
})

describe("mcpctl serve --http needs the run's token", () => {
  it("prints it once, writes it 0600 under $MCPCTL_HOME/run/, refuses requests without it and removes the file at exit", async () => {
    const { child, ready } = serveHttp()
    let file = ""
    try {
      const { token, url } = await ready
      file = (await ready).file
      expect(file).toBe(join(ws.home, "run", `serve-${new URL(url).port}.token`))
      expect(readFileSync(file, "utf8").trim()).toBe(token)
      expect(statSync(file).mode & 0o777).toBe(0o600)
      const init = JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "curl", version: "1" } }
      })
      const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" }
      const anonymous = await fetch(url, { method: "POST", headers, body: init })
      expect(anonymous.status).toBe(401)
      expect(anonymous.headers.get("www-authenticate")).toContain("Bearer")
      const authorized = await fetch(url, { method: "POST", headers: { ...headers, authorization: `Bearer ${token}` }, body: init })
      expect(authorized.status).toBe(200)
      await authorized.body?.cancel()
    } finally {
      child.kill("SIGINT")
      await new Promise((resolve) => child.once("exit", resolve))
    }
    expect(existsSync(file)).toBe(false)
  })
})
