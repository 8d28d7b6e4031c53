/** A disabled server with an unset ${VAR}: no warning on commands that do not use it; `get` mentions it. */
// @ts-nocheck

import { afterAll, describe, expect, it } from "@effect/vitest"
import * as fixtures from "@mcpctl/testing/Fixtures"
import { workspace } from "./support.js"
// In process: what is checked is output and exit codes, which a spawn adds nothing to (inProcess.ts).
import { runInProcess as run } from "./inProcess.js"

const ws = workspace()
afterAll(() => ws.cleanup())

describe("a disabled server with an unset variable", () => {
  const settings = ws.settings("off.json", {
    mcpServers: {
      echo: { command: "node", args: [fixtures.echoServer] },
      off: { command: "node", args: ["x.js"], env: { TOKEN: "${MCPCTL_TEST_UNSET_TOKEN}" }, disabled: true }
    }
  })

  it("tools and servers say nothing about it; get does", async () => {
    const tools = await run(["tools", "--config", settings], { home: ws.home, cwd: ws.project })
    expect(tools.code).toBe(0)
    expect(tools.stderr).not.toContain("MCPCTL_TEST_UNSET_TOKEN")
    const servers = await run(["servers", "--config", settings], { home: ws.home, cwd: ws.project })
    expect(servers.stderr).not.toContain("MCPCTL_TEST_UNSET_TOKEN")
    const get = await run(["get", "off", "--config", settings], { home: ws.home, cwd: ws.project })
    expect(get.code).toBe(0)
    expect(get.stderr).toMatch(/^mcpctl: warning: .*\$\{MCPCTL_TEST_UNSET_TOKEN\}.*\(ignored: the server is disabled\)/m)
    const json = await run(["get", "off", "--json", "--config", settings], { home: ws.home, cwd: ws.project })
    expect(JSON.parse(json.stdout).unresolved).toContain("MCPCTL_TEST_UNSET_TOKEN")
  })
})
