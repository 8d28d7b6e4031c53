#!/usr/bin/env node
// @ts-nocheck
// The raw-SDK side of "shutdown with N stubborn servers": a careful host on the SDK alone connects
// N stdio servers, says "ready" on stdout, and on SIGINT closes every client at once, then exits.
//   node shutdown-many.mjs <count> <command> [args...]   (args: "{i}" is replaced by the index)
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio"
import { Client } from "@modelcontextprotocol/client"

const [count, command, ...args] = process.argv.slice(2)
const clients = await Promise.all(Array.from({ length: Number(count) }, async (_, i) => {
  const client = new Client({ name: "raw-bench", version: "1.0.0" })
  await client.connect(new StdioClientTransport({ command, args: args.map((a) => a.replace("{i}", String(i))), stderr: "ignore" }))
  return client
}))
process.on("SIGINT", async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)))
  process.exit(130)
})
process.stdout.write("ready\n")
setInterval(() => {}, 1 << 30)
