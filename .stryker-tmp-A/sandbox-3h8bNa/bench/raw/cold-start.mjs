#!/usr/bin/env node
// @ts-nocheck
// The raw-SDK floor for "cold start": what `mcpctl tools --json` does, with nothing else. Connects
// to one stdio server, lists its tools, prints them as JSON, closes, exits.
//   node cold-start.mjs <command> [args...]
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio"
import { Client } from "@modelcontextprotocol/client"

const [command, ...args] = process.argv.slice(2)
const client = new Client({ name: "raw-bench", version: "1.0.0" })
await client.connect(new StdioClientTransport({ command, args, stderr: "ignore" }))
const { tools } = await client.listTools()
process.stdout.write(JSON.stringify({ tools }, null, 2) + "\n")
await client.close()
process.exit(0)
