/**
 * Per-tool output budgets on the built CLI: a server's `_meta` size hint and a settings
 * `tools.NAME.maxOutputTokens` entry override the server's budget for that tool (in `call` and in
 * `serve`), the marker names the setting to raise, and `--save-full` keeps the whole text in a
 * file the result names.
 */
// @ts-nocheck

import * as fixtures from "@mcpctl/testing/Fixtures"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/client"
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { run, serveTransport, workspace } from "./support.js"

const ws = workspace()
afterAll(() => ws.cleanup())
const toolsFile = join(ws.dir, "tools.json")
writeFileSync(toolsFile, JSON.stringify([
  { name: "hinted", chars: 50_000, _meta: { "anthropic/maxResultSizeChars": 2_000 } },
  { name: "plain", chars: 50_000 },
  { name: "own", chars: 50_000, _meta: { "anthropic/maxResultSizeChars": 2_000 } }
]))
const settings = ws.settings("settings.json", {
  mcpServers: {
    calc: {
      command: "node",
      args: [fixtures.toolsServer, "--tools", toolsFile],
      maxOutputTokens: 250,
      tools: { own: { maxOutputTokens: 100 } }
    }
  },
  permissions: { allow: ["mcp__calc"] }
})
const call = async (...args: Array<string>) => {
  const r = await run(["call", ...args, "--json", "--config", settings], { home: ws.home })
  expect(r.code).toBe(0)
  const doc = JSON.parse(r.stdout)
  return { doc, text: doc.content.map((c: { text: string }) => c.text).join("") as string }
}

describe("per-tool output budgets", () => {
  it("the server's hint, then the tool's setting, override the server's budget; the marker names what to raise", async () => {
    const hinted = await call("mcp__calc__hinted")
    expect(hinted.doc.truncated).toBe(true)
    expect(hinted.text.length).toBeLessThanOrEqual(2_000)
    expect(hinted.text.length).toBeGreaterThan(1_000)
    expect(hinted.text).toContain("set mcpServers.calc.tools.hinted.maxOutputTokens to change it")

    const plain = await call("mcp__calc__plain")
    expect(plain.text.length).toBeLessThanOrEqual(1_000)
    expect(plain.text.length).toBeGreaterThan(2_000 / 4)
    expect(plain.text).toContain("raise mcpServers.calc.maxOutputTokens to see more")

    const own = await call("mcp__calc__own")
    expect(own.text.length).toBeLessThanOrEqual(400)
    expect(own.text).toContain("raise mcpServers.calc.tools.own.maxOutputTokens to see more")
  })

  it("--save-full writes the whole text to a file that the result names", async () => {
    const { doc, text } = await call("mcp__calc__plain", "--save-full")
    expect(doc.truncated).toBe(true)
    const saved = readFileSync(doc.fullText, "utf8")
    expect(saved.length).toBe(50_000)
    expect(saved.startsWith("0123456789abcdefghijklmnopqrstuvwxyz0123")).toBe(true)
    expect(doc.fullText.startsWith(join(ws.home, "outputs"))).toBe(true)
    expect(text).toContain(`the full text (50,000 characters) is in ${doc.fullText}`)
    expect(text.length).toBeLessThanOrEqual(1_000)
    // Nothing cut, nothing saved.
    writeFileSync(toolsFile, JSON.stringify([{ name: "plain", chars: 10 }]))
    const small = await call("mcp__calc__plain", "--save-full")
    expect(small.doc.fullText).toBeUndefined()
    writeFileSync(toolsFile, JSON.stringify([
      { name: "hinted", chars: 50_000, _meta: { "anthropic/maxResultSizeChars": 2_000 } },
      { name: "plain", chars: 50_000 },
      { name: "own", chars: 50_000, _meta: { "anthropic/maxResultSizeChars": 2_000 } }
    ]))
  })

  it("serve applies the same per-tool budget", async () => {
    const client = new Client({ name: "test", version: "1" })
    await client.connect(serveTransport(["--config", settings], { MCPCTL_HOME: ws.home }))
    try {
      const result = await client.callTool({ name: "mcp__calc__hinted", arguments: {} })
      const text = (result.content as Array<{ text: string }>).map((c) => c.text).join("")
      expect(text.length).toBeLessThanOrEqual(2_000)
      expect(text.length).toBeGreaterThan(1_000)
    } finally {
      await client.close()
    }
  })
})
