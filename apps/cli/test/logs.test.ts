/**
 * Effect's own logs (warnings, debug logs) go to stderr, at `--log-level` and above: stdout carries
 * only the command's output, so a `--json` document stays one clean document.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as fixtures from "@mcpctl/testing/Fixtures"
import { mkdirSync } from "node:fs"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { workspace } from "./support.js"
// In process: what is checked is output and exit codes, which a spawn adds nothing to (inProcess.ts).
import { runInProcess as run } from "./inProcess.js"

const ws = workspace()
let server: http.Server
let url = ""

beforeAll(async () => {
  // A remote server that refuses everyone: mcpctl remembers it in the needs-auth cache.
  server = http.createServer((_req, res) => res.writeHead(401, { "www-authenticate": `Bearer realm="test"` }).end())
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`
})

afterAll(() => {
  server.closeAllConnections()
  server.close()
  ws.cleanup()
})

/** A home whose needs-auth cache cannot be written (it is a directory): the pool logs a warning. */
const brokenCacheHome = (name: string) => {
  const home = join(ws.dir, name)
  mkdirSync(join(home, "mcp-needs-auth-cache.json"), { recursive: true })
  return home
}

describe("Effect's logs", () => {
  it("a warning goes to stderr; --json stdout is exactly one JSON document", async () => {
    const r = await run(["tools", "--json", "--url", url], { home: brokenCacheHome("home-warn") })
    // The one server needed needs auth: exit 4, with the document printed all the same.
    expect(r.code).toBe(4)
    const doc = JSON.parse(r.stdout)
    expect(doc.errors).toEqual([expect.objectContaining({ server: "adhoc", status: "needs-auth" })])
    expect(r.stdout).toBe(JSON.stringify(doc, null, 2) + "\n")
    // One warning format: the CLI's own (`mcpctl: warning: …`), not the pretty logger's `[time] WARN (#n):`.
    expect(r.stderr).toMatch(/^mcpctl: warning: .*could not mark adhoc as needs-auth/m)
    expect(r.stderr).not.toMatch(/WARN \(#\d+\)/)
    expect(r.stdout).not.toContain("warning")
  })

  it("--log-level error hides warnings; --log-level debug shows debug logs, on stderr too", async () => {
    const quiet = await run(["tools", "--json", "--url", url, "--log-level", "error"], { home: brokenCacheHome("home-quiet") })
    expect(quiet.code).toBe(4)
    expect(quiet.stderr).not.toContain("could not mark")
    JSON.parse(quiet.stdout)

    const settings = ws.settings("echo.json", { mcpServers: { echo: { command: "node", args: [fixtures.echoServer] } } })
    const loud = await run(["tools", "--json", "--config", settings, "--log-level", "debug"], { home: ws.home })
    expect(loud.code).toBe(0)
    expect(loud.stderr).toMatch(/^mcpctl: debug: settings: 1 server\n {2}echo \(stdio\) from flag: /m)
    expect(JSON.parse(loud.stdout).tools.length).toBeGreaterThan(0)

    const normal = await run(["tools", "--json", "--config", settings], { home: ws.home })
    expect(normal.stderr).not.toContain("mcpctl: debug:")
  })
})
