#!/usr/bin/env node
// @ts-nocheck
// The raw-SDK floor for "fan-out": what `mcpctl servers --json` does for N stdio servers, with
// nothing else. Connects every server (all at once, or in batches), lists each one's tools,
// prints one JSON report, closes them all, exits.
//   node fan-out.mjs <batch: 0 = all at once> <settings.json>
import { readFileSync } from "node:fs"
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio"
import { Client } from "@modelcontextprotocol/client"

const batch = Number(process.argv[2] ?? 0)
const servers = Object.entries(JSON.parse(readFileSync(process.argv[3], "utf8")).mcpServers)

const one = async ([name, config]) => {
  const t0 = performance.now()
  const client = new Client({ name: "raw-bench", version: "1.0.0" })
  try {
    await client.connect(new StdioClientTransport({ command: config.command, args: config.args, stderr: "pipe" }))
    const connectMs = Math.round(performance.now() - t0)
    const { tools } = await client.listTools()
    return { name, client, report: { name, status: "connected", tools: tools.length, serverInfo: client.getServerVersion(), connectMs } }
  } catch (error) {
    return { name, client, report: { name, status: "failed", error: String(error) } }
  }
}

const results = []
const size = batch > 0 ? batch : servers.length
for (let i = 0; i < servers.length; i += size) {
  results.push(...(await Promise.all(servers.slice(i, i + size).map(one))))
}
process.stdout.write(JSON.stringify({ servers: results.map((r) => r.report) }, null, 2) + "\n")
await Promise.all(results.map((r) => r.client.close()))
process.exit(0)
