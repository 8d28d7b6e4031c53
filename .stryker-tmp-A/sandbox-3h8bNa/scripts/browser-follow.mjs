#!/usr/bin/env node
// @ts-nocheck
// A headless "browser" for OAuth sign-in: `$BROWSER` is set to this script, mcpctl runs it with
// the authorization URL as its last argument, and it GETs that URL, following redirects until the
// authorization server's answer lands on mcpctl's loopback callback (http://127.0.0.1:PORT/callback).
// Only for authorization servers that redirect without a login page, like the conformance suite's.
const url = process.argv.at(-1)
if (!url || !/^https?:\/\//.test(url)) {
  console.error("usage: browser-follow.mjs URL")
  process.exit(2)
}
try {
  const res = await fetch(url, { redirect: "follow", signal: AbortSignal.timeout(30_000) })
  await res.arrayBuffer()
  process.exit(res.ok ? 0 : 1)
} catch (error) {
  console.error(`browser-follow: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
}
