/**
 * `mcpctl auth` / `logout` and inline sign-in against a tiny OAuth-protected MCP server on
 * 127.0.0.1 (protected-resource metadata, authorization-server metadata, dynamic registration,
 * an authorization endpoint that redirects straight back with a code, a token endpoint), with
 * `$BROWSER` set to the redirect follower the conformance client uses.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { readdirSync, statSync } from "node:fs"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { repoRoot, workspace } from "./support.js"
// In process: what is checked is output and exit codes, which a spawn adds nothing to (inProcess.ts).
import { runInProcess as run } from "./inProcess.js"

const ws = workspace()
const browser = `${process.execPath} ${join(repoRoot, "scripts/browser-follow.mjs")}`
let server: http.Server
let base = ""
const issued = new Set<string>()
let tokenRequests = 0

const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body))

const readBody = (req: http.IncomingMessage) =>
  new Promise<string>((resolve) => {
    let b = ""
    req.on("data", (d) => (b += d))
    req.on("end", () => resolve(b))
  })

beforeAll(async () => {
  server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", base)
    const body = await readBody(req)
    if (url.pathname === "/.well-known/oauth-protected-resource/mcp") {
      return json(res, 200, { resource: `${base}/mcp`, authorization_servers: [base] })
    }
    if (url.pathname === "/.well-known/oauth-authorization-server") {
      return json(res, 200, {
        issuer: base,
        authorization_endpoint: `${base}/authorize`,
        token_endpoint: `${base}/token`,
        registration_endpoint: `${base}/register`,
        response_types_supported: ["code"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none"]
      })
    }
    if (url.pathname === "/register") {
      const meta = JSON.parse(body)
      return json(res, 201, { client_id: "c1", redirect_uris: meta.redirect_uris, token_endpoint_auth_method: "none" })
    }
    if (url.pathname === "/authorize") {
      const back = new URL(url.searchParams.get("redirect_uri")!)
      back.searchParams.set("code", "the-code")
      back.searchParams.set("state", url.searchParams.get("state") ?? "")
      return res.writeHead(302, { location: back.toString() }).end()
    }
    if (url.pathname === "/token") {
      tokenRequests++
      const token = `tok-${tokenRequests}`
      issued.add(token)
      return json(res, 200, { access_token: token, token_type: "Bearer", expires_in: 3600 })
    }
    if (url.pathname === "/mcp" && req.method === "POST") {
      const auth = req.headers.authorization ?? ""
      if (!issued.has(auth.replace(/^Bearer /, ""))) {
        return json(res, 401, { error: "invalid_token" }, {
          "www-authenticate": `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`
        })
      }
      const msg = JSON.parse(body)
      if (msg.id === undefined) return res.writeHead(202).end()
      const result = msg.method === "initialize"
        ? { protocolVersion: msg.params.protocolVersion, serverInfo: { name: "tiny", version: "1" }, capabilities: { tools: {} } }
        : msg.method === "tools/list"
        ? { tools: [{ name: "whoami", inputSchema: { type: "object" } }] }
        : msg.method === "tools/call"
        ? { content: [{ type: "text", text: `hello ${auth}` }] }
        : {}
      return json(res, 200, { jsonrpc: "2.0", id: msg.id, result })
    }
    res.writeHead(405).end()
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(() => {
  server.closeAllConnections()
  server.close()
  ws.cleanup()
})

const settings = () => ws.settings("oauth.json", { mcpServers: { tiny: { type: "http", url: `${base}/mcp` } } })

describe("auth / logout", () => {
  it("tools reports needs-auth before sign-in, with the command to run", async () => {
    const r = await run(["tools", "--json", "--config", settings()], { home: ws.home })
    const doc = JSON.parse(r.stdout)
    expect(doc.errors).toEqual([expect.objectContaining({ server: "tiny", status: "needs-auth" })])
    expect(doc.errors[0].message).toContain("mcpctl auth tiny")
  })

  it("auth signs in through $BROWSER, prints the URL, stores tokens 0600; logout forgets them", async () => {
    const env = { BROWSER: browser }
    const signed = await run(["auth", "tiny", "--config", settings()], { home: ws.home, env })
    expect(signed.code).toBe(0)
    expect(signed.stderr).toContain(`${base}/authorize?`)
    expect(signed.stderr).toContain("Signed in to tiny.")
    expect(signed.stderr + signed.stdout).not.toMatch(/tok-\d/)
    const files = readdirSync(join(ws.home, "oauth")).filter((f) => f.endsWith(".json"))
    expect(files.length).toBe(1)
    expect(statSync(join(ws.home, "oauth", files[0]!)).mode & 0o777).toBe(0o600)

    const called = await run(["call", "mcp__tiny__whoami", "--yes", "--config", settings()], { home: ws.home })
    expect(called.code).toBe(0)
    expect(called.stdout).toMatch(/hello Bearer tok-\d/)

    const out = await run(["logout", "tiny", "--config", settings()], { home: ws.home })
    expect(out.code).toBe(0)
    expect(out.stdout).toContain("Signed out of tiny")
    const again = await run(["logout", "tiny", "--config", settings()], { home: ws.home })
    expect(again.stdout).toContain("No stored sign-in for tiny")
  })

  it("call --auth with an ad-hoc --url signs in inline and retries", async () => {
    const home = join(ws.dir, "home-inline")
    const r = await run(["call", "mcp__web__whoami", "--url", `${base}/mcp`, "--name", "web", "--auth", "--yes"], {
      home,
      env: { BROWSER: browser }
    })
    expect(r.code).toBe(0)
    expect(r.stderr).toContain("web needs sign-in")
    expect(r.stdout).toMatch(/hello Bearer tok-\d/)
  })

  it("auth of a stdio server is a configuration error", async () => {
    const r = await run(["auth", "--stdio", "node x.js"], { home: ws.home })
    expect(r.code).toBe(2)
    expect(r.stderr).toContain("stdio server")
  })
})
