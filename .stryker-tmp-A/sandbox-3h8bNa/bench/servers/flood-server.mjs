#!/usr/bin/env node
// @ts-nocheck
// The flood server of the `flood` figure: raw JSON-RPC over stdio (no SDK), one tool `flood`
// {count, level} that writes `count` `notifications/message` at `level` (default debug) in big
// writes (backpressure respected), then answers with its own CPU time, so the harness can tell
// the client's cost from the server's.
import { initializeResult, rawStdioServer, writeText } from "../../packages/testing/src/fixtures/raw-stdio.mjs"

const tools = [{
  name: "flood",
  description: "Notifications, then an answer",
  inputSchema: { type: "object", properties: { count: { type: "number" }, level: { type: "string" } } }
}]

const flood = async (count, level) => {
  const batch = 1_000
  for (let i = 0; i < count; i += batch) {
    let text = ""
    for (let j = i; j < Math.min(count, i + batch); j++) {
      text += `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"${level}","logger":"flood","data":"message ${j}"}}\n`
    }
    await writeText(text)
  }
}

rawStdioServer(async ({ id, method, params }, out) => {
  if (method === "initialize") return out.result(id, initializeResult(params, "flood", { tools: {}, logging: {} }))
  if (method === "tools/list") return out.result(id, { tools })
  if (method === "logging/setLevel") return out.result(id, {})
  if (method === "tools/call") {
    const args = params?.arguments ?? {}
    const started = process.cpuUsage()
    await flood(Number(args.count ?? 1_000), String(args.level ?? "debug"))
    const used = process.cpuUsage(started)
    return out.result(id, { content: [{ type: "text", text: `sent ${args.count}; server cpu ms ${((used.user + used.system) / 1000).toFixed(0)}` }] })
  }
  return out.error(id, -32601, `no method ${method}`)
})
