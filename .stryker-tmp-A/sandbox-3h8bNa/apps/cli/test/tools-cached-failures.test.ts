/** `tools --cached` with some servers cached and the uncached ones failing: exit 0, as without --cached. */
// @ts-nocheck

import { afterAll, describe, expect, it } from "@effect/vitest"
import * as fixtures from "@mcpctl/testing/Fixtures"
import { run, workspace } from "./support.js"

const ws = workspace()
afterAll(() => ws.cleanup())

describe("tools --cached with failing servers", () => {
  const settings = ws.settings("mixed.json", {
    mcpServers: {
      echo: { command: "node", args: [fixtures.echoServer] },
      bad1: { command: "node", args: [fixtures.echoServer, "--fail-start"] },
      bad2: { command: "node", args: [fixtures.echoServer, "--fail-start"] }
    }
  })
  const args = ["tools", "--config", settings, "--no-daemon"]

  it("the cached server's tools and the failures' messages, exit 0 (only an all-failed listing is exit 4)", async () => {
    const plain = await run(args, { home: ws.home, cwd: ws.project })
    expect(plain.code).toBe(0)
    const cached = await run([...args, "--cached"], { home: ws.home, cwd: ws.project })
    expect(cached.stdout).toContain("mcp__echo__echo")
    expect(cached.stderr).toMatch(/^bad1 \(failed\)/m)
    expect(cached.stderr).toMatch(/^bad2 \(failed\)/m)
    expect(cached.code).toBe(0)
    const json = await run([...args, "--cached", "--json"], { home: ws.home, cwd: ws.project })
    expect(json.code).toBe(0)
  })
})
