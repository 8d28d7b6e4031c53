/** `mcpctl servers --check`: a health check for scripts (exit 4 when an enabled server is down). */
import * as fixtures from "@mcpctl/testing/Fixtures"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { workspace } from "./support.js"
// In process: what is checked is output and exit codes, which a spawn adds nothing to (inProcess.ts).
import { runInProcess as run } from "./inProcess.js"

const ws = workspace()
afterAll(() => ws.cleanup())
const healthy = ws.settings("healthy.json", {
  mcpServers: {
    echo: { command: "node", args: [fixtures.echoServer] },
    off: { command: "node", args: ["nowhere.js"], disabled: true }
  }
})
const broken = ws.settings("broken.json", {
  mcpServers: {
    echo: { command: "node", args: [fixtures.echoServer] },
    bad: { command: "node", args: [fixtures.echoServer, "--fail-start"] }
  }
})

describe("mcpctl servers --check", () => {
  it("exits 0 when every enabled server connected (a disabled one does not count)", async () => {
    const r = await run(["servers", "--check", "--json", "--config", healthy], { home: ws.home })
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout).servers.map((s: { status: string }) => s.status).sort()).toEqual(["connected", "disabled"])
  })

  it("exits 4 when one is not connected, with the JSON and the table as without --check", async () => {
    const checked = await run(["servers", "--check", "--json", "--config", broken], { home: ws.home })
    const plain = await run(["servers", "--json", "--config", broken], { home: ws.home })
    expect(checked.code).toBe(4)
    expect(plain.code).toBe(0)
    const strip = (doc: { servers: Array<Record<string, unknown>> }) => doc.servers.map(({ connectMs: _c, error: _e, ...s }) => s)
    expect(strip(JSON.parse(checked.stdout))).toEqual(strip(JSON.parse(plain.stdout)))
    expect(checked.stderr).toContain("servers --check: 1 of 2 enabled servers not connected: bad (failed)")
    const table = await run(["servers", "--check", "--config", broken], { home: ws.home })
    expect(table.code).toBe(4)
    expect(table.stdout).toMatch(/^NAME\s+STATUS/)
    expect(table.stdout).toMatch(/bad\s+failed/)
  })
})
