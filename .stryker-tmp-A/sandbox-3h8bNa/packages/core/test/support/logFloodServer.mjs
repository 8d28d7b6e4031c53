#!/usr/bin/env node
// @ts-nocheck
// A raw JSON-RPC stdio server (no SDK) for the server-log flood tests: tool `flood` {count,
// levels} writes `count` `notifications/message`, the levels taken in turn from `levels`
// (default ["debug"]), in big writes that respect backpressure; then it answers "sent N".
import { initializeResult, rawStdioServer, writeText } from "../../../testing/src/fixtures/raw-stdio.mjs"

const tools = [{ name: "flood", inputSchema: { type: "object" } }]

rawStdioServer(async ({ id, method, params }, out) => {
  if (method === "initialize") return out.result(id, initializeResult(params, "flood", { tools: {}, logging: {} }))
  if (method === "tools/list") return out.result(id, { tools })
  if (method === "logging/setLevel") return out.result(id, {})
  if (method !== "tools/call") return out.error(id, -32601, "no")
  const count = Number(params?.arguments?.count ?? 1000)
  const levels = params?.arguments?.levels ?? ["debug"]
  for (let i = 0; i < count; i += 1000) {
    let text = ""
    for (let j = i; j < Math.min(count, i + 1000); j++) {
      text += `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"${levels[j % levels.length]}","logger":"f","data":"m${j}"}}\n`
    }
    await writeText(text)
  }
  return out.result(id, { content: [{ type: "text", text: `sent ${count}` }] })
})

