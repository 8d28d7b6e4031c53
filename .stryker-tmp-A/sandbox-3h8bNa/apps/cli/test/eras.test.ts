/**
 * The CLI in both eras: `servers` shows a modern SDK v2 server and a legacy reference server
 * (server-everything) side by side, `--protocol` overrides the settings for one run, and a
 * call's non-object `structuredContent` (2026-07-28) is printed as the value it is.
 */
// @ts-nocheck

import * as fixtures from "@mcpctl/testing/Fixtures"
import { Everything } from "@mcpctl/testing"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { run, workspace } from "./support.js"

const ws = workspace()
afterAll(() => ws.cleanup())
const both = ws.settings("both.json", {
  mcpServers: {
    modern: { command: "node", args: [fixtures.v2StdioServer] },
    legacy: { command: "node", args: [Everything.everythingServer, "stdio"] }
  }
})

interface Row {
  readonly name: string
  readonly status: string
  readonly era: string | null
  readonly protocolVersion: string | null
}
const rows = (stdout: string) =>
  Object.fromEntries((JSON.parse(stdout).servers as Array<Row>).map((r) => [r.name, [r.status, r.era, r.protocolVersion]]))

describe("mcpctl in both protocol eras", () => {
  it("servers --json: a modern and a legacy server side by side, with the protocol version each negotiated", async () => {
    const r = await run(["servers", "--json", "--config", both], { home: ws.home })
    expect(r.code).toBe(0)
    const byName = rows(r.stdout)
    expect(byName.modern).toEqual(["connected", "modern", "2026-07-28"])
    expect(byName.legacy?.slice(0, 2)).toEqual(["connected", "legacy"])
    expect(byName.legacy?.[2]).toMatch(/^2025-/)
    // The verdicts are remembered in $MCPCTL_HOME for the next run.
    const verdicts = Object.values(JSON.parse(readFileSync(join(ws.home, "eras.json"), "utf8"))) as Array<{ era: string }>
    expect(verdicts.map((v) => v.era).sort()).toEqual(["legacy", "modern"])
    const table = await run(["servers", "--config", both], { home: ws.home })
    expect(table.stdout).toMatch(/^NAME\s+STATUS\s+TRANSPORT\s+PROTOCOL/)
    expect(table.stdout).toMatch(/modern\s+connected\s+stdio\s+2026-07-28/)
  })

  it("--protocol legacy talks 2025 to the v2 server for this run; --protocol modern fails the legacy one with the fix", async () => {
    const legacy = await run(["servers", "--json", "--protocol", "legacy", "--config", both], { home: ws.home })
    expect(rows(legacy.stdout).modern?.slice(0, 2)).toEqual(["connected", "legacy"])
    const modern = await run(["servers", "--json", "--protocol", "modern", "--config", both], { home: ws.home })
    const doc = JSON.parse(modern.stdout) as { servers: Array<Row & { error: string | null }> }
    const failed = doc.servers.find((s) => s.name === "legacy")!
    expect(failed.status).toBe("failed")
    expect(failed.error).toContain(`Server "legacy"`)
    expect(failed.error).toContain("--protocol legacy")
    expect(rows(modern.stdout).modern?.slice(0, 2)).toEqual(["connected", "modern"])
  })

  it("a \"protocol\" setting pins one server's era", async () => {
    const pinned = ws.settings("pinned.json", {
      mcpServers: { v2: { command: "node", args: [fixtures.v2StdioServer], protocol: "legacy" } }
    })
    const r = await run(["servers", "--json", "--config", pinned], { home: ws.home })
    expect(rows(r.stdout).v2?.slice(0, 2)).toEqual(["connected", "legacy"])
  })

  it("call: an array structuredContent is printed as JSON, in --json too", async () => {
    const eras = ws.settings("eras.json", { mcpServers: { e: { command: "node", args: [fixtures.v2ErasServer] } } })
    const r = await run(["call", "mcp__e__list_result", "--json", "--yes", "--config", eras], { home: ws.home })
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout).structuredContent).toEqual([1, 2, 3])
  })
})
