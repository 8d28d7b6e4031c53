/**
 * `mcpctl tools` on the built CLI: --search ranks the reference servers' tools (with --json
 * scores and --limit), and includeTools/excludeTools hide tools from the listing and from calls.
 */
// @ts-nocheck

import { Everything } from "@mcpctl/testing"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { createRequire } from "node:module"
import { repoRoot, run, workspace } from "./support.js"

const ws = workspace()
afterAll(() => ws.cleanup())
const filesystem = createRequire(import.meta.url).resolve("@modelcontextprotocol/server-filesystem/dist/index.js")

const settings = ws.settings("settings.json", {
  mcpServers: {
    everything: { command: "node", args: [Everything.everythingServer, "stdio"], excludeTools: ["toggle-*", "get-env"] },
    filesystem: { command: "node", args: [filesystem, repoRoot], includeTools: ["read_*", "list_*"] }
  },
  permissions: { allow: ["mcp__everything", "mcp__filesystem"] }
})
const mcpctl = (...args: Array<string>) => run([...args, "--config", settings], { home: ws.home })

describe("mcpctl tools --search", () => {
  it("ranks by plain words, best first, with scores in --json and at most --limit", async () => {
    const r = await mcpctl("tools", "--search", "add two numbers", "--limit", "3", "--json")
    expect(r.code).toBe(0)
    const doc = JSON.parse(r.stdout)
    expect(doc.errors).toEqual([])
    expect(doc.tools.length).toBeLessThanOrEqual(3)
    expect(doc.tools[0].name).toBe("mcp__everything__get-sum")
    expect(typeof doc.tools[0].score).toBe("number")
    expect(doc.tools[0].pin).toBe("pinned")
    expect(doc.tools[0].inputSchema.properties).toHaveProperty("a")

    const table = await mcpctl("tools", "--search", "list directory")
    expect(table.code).toBe(0)
    const lines = table.stdout.trim().split("\n")
    expect(lines[0]).toMatch(/^SCORE\s+NAME\s+PERMISSION/)
    expect(lines[1]).toContain("mcp__filesystem__list_directory")
    expect(lines.length).toBeLessThanOrEqual(11)

    const none = await mcpctl("tools", "--search", "zebra giraffe")
    expect(none.code).toBe(0)
    expect(none.stderr).toContain('No tool matches "zebra giraffe"')
  })

  it("hides what includeTools/excludeTools leave out, and a call to one is a usage error naming the field", async () => {
    const r = await mcpctl("tools", "--json")
    const names: Array<string> = JSON.parse(r.stdout).tools.map((t: { name: string }) => t.name)
    expect(names).toContain("mcp__everything__echo")
    expect(names).toContain("mcp__filesystem__read_text_file")
    expect(names.filter((n) => /toggle|get-env|write_file|move_file/.test(n))).toEqual([])
    const hidden = await mcpctl("call", "mcp__filesystem__write_file", "path=x", "content=y", "--json")
    expect(hidden.code).toBe(2)
    const error = JSON.parse(hidden.stdout).error
    expect(error.type).toBe("UsageError")
    expect(error.message).toContain("hidden by mcpServers.filesystem.includeTools")
    expect(error.message).toContain(settings)
    const excluded = await mcpctl("call", "mcp__everything__get-env")
    expect(excluded.code).toBe(2)
    expect(excluded.stderr).toContain('mcpServers.everything.excludeTools ("get-env")')
  })
})
