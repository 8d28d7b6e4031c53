/**
 * `serve --metrics [HOST:]PORT`: Prometheus text at GET /metrics (OpenTelemetry's
 * PrometheusExporter), counting the calls made through serve by server and tool, the failed ones,
 * and their duration.
 */
// @ts-nocheck

import { afterAll, describe, expect, it } from "@effect/vitest"
import * as fixtures from "@mcpctl/testing/Fixtures"
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client"
import { spawn } from "node:child_process"
import { cliBin, repoRoot, slow, workspace } from "./support.js"

const ws = workspace()
afterAll(() => ws.cleanup())
const settings = ws.settings("serve-metrics.json", {
  mcpServers: { echo: { command: "node", args: [fixtures.echoServer] } },
  permissions: { allow: ["mcp__echo"] }
})

/** A sample's value: `name{labels…} value`, labels in any order (pure). */
const sample = (text: string, name: string, labels: Record<string, string>): number | undefined => {
  for (const line of text.split("\n")) {
    const m = /^([a-zA-Z_:][\w:]*)\{([^}]*)\} (\S+)/.exec(line)
    if (!m || m[1] !== name) continue
    const has = Object.entries(labels).every(([k, v]) => m[2]!.includes(`${k}="${v}"`))
    if (has) return Number(m[3])
  }
  return undefined
}

describe("mcpctl serve --metrics", () => {
  it("serves calls, errors and duration per server and tool as Prometheus text", async () => {
    const child = spawn(process.execPath, [cliBin, "serve", "--http", "0", "--metrics", "127.0.0.1:0", "--config", settings], {
      cwd: repoRoot,
      env: { ...process.env, MCPCTL_HOME: ws.home },
      stdio: ["ignore", "ignore", "pipe"]
    })
    try {
      const { metrics, token, url } = await new Promise<{ url: string; token: string; metrics: string }>((resolve, reject) => {
        let text = ""
        child.stderr!.on("data", (d) => {
          text += d
          const m = /serving MCP on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(text)
          const t = /"Authorization: Bearer ([A-Za-z0-9_-]+)"/.exec(text)
          const s = /metrics on (http:\/\/127\.0\.0\.1:\d+\/metrics)/.exec(text)
          if (m && t && s) resolve({ url: m[1]!, token: t[1]!, metrics: s[1]! })
        })
        child.on("exit", (code) => reject(new Error(`serve exited ${code}: ${text}`)))
      })
      const client = new Client({ name: "test", version: "1" })
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }))
      for (const text of ["one", "two", "three"]) await client.callTool({ name: "mcp__echo__echo", arguments: { text } })
      // The server dies in the middle of this one: a failed call (not a tool result with isError).
      const crashed = await client.callTool({ name: "mcp__echo__crash", arguments: {} })
      expect(crashed.isError).toBe(true)
      await client.close()

      const answer = await fetch(metrics)
      expect(answer.status).toBe(200)
      expect(answer.headers.get("content-type")).toContain("text/plain")
      const text = await answer.text()
      const echo = { server: "echo", tool: "echo" }, crash = { server: "echo", tool: "crash" }
      expect(sample(text, "mcpctl_tool_calls_total", echo), text).toBe(3)
      expect(sample(text, "mcpctl_tool_calls_total", crash), text).toBe(1)
      expect(sample(text, "mcpctl_tool_call_errors_total", crash), text).toBe(1)
      expect(sample(text, "mcpctl_tool_call_errors_total", echo) ?? 0, text).toBe(0)
      expect(sample(text, "mcpctl_tool_call_duration_ms_count", echo), text).toBe(3)
      expect(sample(text, "mcpctl_tool_call_duration_ms_bucket", { ...echo, le: "+Inf" }), text).toBe(3)
      // Only the one path; no token asked (a scraper has none), nothing else answered.
      expect((await fetch(metrics.replace("/metrics", "/mcp"))).status).toBe(404)
    } finally {
      child.kill("SIGTERM")
    }
  }, slow(120_000))

  it("refuses an address that is not [HOST:]PORT", async () => {
    const child = spawn(process.execPath, [cliBin, "serve", "--http", "0", "--metrics", "nope", "--config", settings], {
      cwd: repoRoot,
      env: { ...process.env, MCPCTL_HOME: ws.home },
      stdio: ["ignore", "ignore", "pipe"]
    })
    let text = ""
    child.stderr!.on("data", (d) => (text += d))
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve))
    expect(code).toBe(2)
    expect(text).toContain("--metrics")
  }, slow(60_000))
})
