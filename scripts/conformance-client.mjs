#!/usr/bin/env node
// The client under test for `@modelcontextprotocol/conformance client`: the server URL is the last
// argument, the scenario is in MCP_CONFORMANCE_SCENARIO (extra data in MCP_CONFORMANCE_CONTEXT).
// It drives only the mcpctl CLI — the suite tests the product, so no SDK is used here. Every run
// gets its own MCPCTL_HOME, and `$BROWSER` is a redirect follower so OAuth sign-in runs headless.
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const here = dirname(fileURLToPath(import.meta.url))
const mcpctl = resolve(here, "../apps/cli/bin/mcpctl.mjs")
const url = process.argv.at(-1)
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? ""
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}")
const home = mkdtempSync(join(tmpdir(), "mcpctl-conformance-"))

/** The client ID metadata document URL the suite's CIMD scenario expects mcpctl to offer. */
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json"

const env = {
  ...process.env,
  MCPCTL_HOME: home,
  BROWSER: `${process.execPath} ${join(here, "browser-follow.mjs")}`
}

/** Runs `mcpctl ARGS…`, passing its output through (the suite shows it when a scenario fails). */
const run = (args) =>
  new Promise((resolvePromise) => {
    process.stderr.write(`$ mcpctl ${args.join(" ")}\n`)
    const child = spawn(process.execPath, [mcpctl, ...args], { env, stdio: ["ignore", "pipe", "inherit"] })
    let stdout = ""
    child.stdout.on("data", (d) => {
      stdout += d
      process.stdout.write(d)
    })
    child.on("close", (code) => resolvePromise({ code: code ?? 1, stdout }))
  })

/** The server as mcpctl sees it: `--url`, or a settings file when the scenario needs OAuth settings. */
const serverFlags = (oauth) => {
  if (!oauth) return ["--url", url]
  const file = join(home, "conformance.json")
  writeFileSync(file, JSON.stringify({ mcpServers: { adhoc: { type: "http", url, oauth } } }, null, 2))
  return ["--config", file]
}

/** Scenario → what a user would type. `--yes` approves the permission ask (and accepts elicitations with defaults). */
const plan = () => {
  switch (scenario) {
    case "initialize":
      return [["tools", "--json", ...serverFlags()]]
    case "tools_call":
      return [["call", "mcp__adhoc__add_numbers", "a=5", "b=3", "--yes", ...serverFlags()]]
    case "elicitation-sep1034-client-defaults":
      return [["call", "mcp__adhoc__test_client_elicitation_defaults", "--yes", ...serverFlags()]]
    case "sse-retry":
      return [["call", "mcp__adhoc__test_reconnection", "--yes", ...serverFlags()]]
    case "auth/pre-registration":
      return [["call", "mcp__adhoc__test-tool", "--auth", "--yes",
        ...serverFlags({ clientId: context.client_id, clientSecret: context.client_secret })]]
    case "auth/basic-cimd":
      return [["call", "mcp__adhoc__test-tool", "--auth", "--yes", ...serverFlags({ clientMetadataUrl: CLIENT_METADATA_URL })]]
    case "auth/client-credentials-basic":
      return [["call", "mcp__adhoc__test-tool", "--yes",
        ...serverFlags({ grantType: "client_credentials", clientId: context.client_id, clientSecret: context.client_secret })]]
    case "auth/client-credentials-jwt": {
      const keyFile = join(home, "client-key.pem")
      writeFileSync(keyFile, context.private_key_pem, { mode: 0o600 })
      return [["call", "mcp__adhoc__test-tool", "--yes", ...serverFlags({
        grantType: "client_credentials",
        clientId: context.client_id,
        privateKeyFile: keyFile,
        signingAlgorithm: context.signing_algorithm
      })]]
    }
    default:
      if (scenario.startsWith("auth/")) return [["call", "mcp__adhoc__test-tool", "--auth", "--yes", ...serverFlags()]]
      return [["tools", "--json", ...serverFlags()]]
  }
}

let code = 0
try {
  for (const args of plan()) {
    const result = await run(args)
    if (result.code !== 0) {
      code = result.code
      break
    }
  }
} finally {
  rmSync(home, { recursive: true, force: true })
}
process.exit(code)
