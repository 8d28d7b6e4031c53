/**
 * The conformance driver (scripts/conformance-client.mjs) against a server that is not there:
 * mcpctl fails, and the driver says so (exit code and the stderr line the suite's results are
 * read with), except in a scenario where refusing is the expected outcome.
 */
import { describe, expect, it } from "@effect/vitest"
import { createServer } from "node:net"
import { fileURLToPath } from "node:url"
import { CLIENT_EXIT_CHECK, EXIT_MARKER, exitedUnexpectedly } from "./conformanceResults.js"
import { runCommand, slow } from "./support.js"

const driver = fileURLToPath(new URL("../../../scripts/conformance-client.mjs", import.meta.url))

/** A port that was free a moment ago and now refuses connections. */
const closedPort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
  })

const drive = (scenario: string, url: string) =>
  runCommand(process.execPath, [driver, url], {
    env: { ...process.env, MCP_CONFORMANCE_SCENARIO: scenario, MCP_CONFORMANCE_CONTEXT: "{}" }
  })

describe("conformance driver exit codes", () => {
  it("a failed mcpctl command fails the client, with the line the results reader looks for", async () => {
    const url = `http://127.0.0.1:${await closedPort()}/mcp`
    const failed = await drive("initialize", url)
    expect(failed.status).not.toBe(0)
    expect(failed.stderr).toContain(`${EXIT_MARKER} ${failed.status} (scenario initialize expects 0)`)
    expect(exitedUnexpectedly(failed.stderr)).toBe(true)
    // A scenario that expects mcpctl to refuse: its exit code is no failure of the client.
    const refused = await drive("auth/resource-mismatch", url)
    expect(refused.status).toBe(0)
    expect(exitedUnexpectedly(refused.stderr)).toBe(false)
    expect(CLIENT_EXIT_CHECK).toBe("client-exit-code")
  }, slow(60_000))
})
