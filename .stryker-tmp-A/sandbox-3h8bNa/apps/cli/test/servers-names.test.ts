/** `mcpctl servers SERVER…`: only the servers named, like `tools SERVER…`; a name not configured is a usage error. */
// @ts-nocheck

import * as fixtures from "@mcpctl/testing/Fixtures"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { workspace } from "./support.js"
// In process: what is checked is output and exit codes, which a spawn adds nothing to (inProcess.ts).
import { runInProcess as run } from "./inProcess.js"

const ws = workspace()
afterAll(() => ws.cleanup())
const settings = ws.settings("two.json", {
  mcpServers: {
    one: { command: "node", args: [fixtures.echoServer] },
    two: { command: "node", args: [fixtures.echoServer, "--fail-start"] },
    off: { command: "node", args: ["nowhere.js"], disabled: true }
  }
})

describe("mcpctl servers NAME", () => {
  it("reports only the named server (the broken one is not started), with eraByTimeout in --json", async () => {
    const r = await run(["servers", "one", "--json", "--config", settings], { home: ws.home })
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" })
    const reports = (JSON.parse(r.stdout) as { servers: Array<{ name: string; status: string; eraByTimeout: boolean }> }).servers
    expect(reports.map((s) => [s.name, s.status, s.eraByTimeout])).toEqual([["one", "connected", false]])
    const table = await run(["servers", "one", "--config", settings], { home: ws.home })
    expect(table.code).toBe(0)
    expect(table.stdout).toMatch(/^one +connected/m)
    expect(table.stdout).not.toMatch(/^two/m)
  })

  it("a name that is not configured: exit 2 naming it", async () => {
    const r = await run(["servers", "nope", "--config", settings], { home: ws.home })
    expect(r.code).toBe(2)
    expect(r.stderr).toContain("nope")
  })
})
