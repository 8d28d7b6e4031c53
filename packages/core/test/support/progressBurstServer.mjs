#!/usr/bin/env node
// A raw JSON-RPC stdio server (no SDK) for the progress race: tool `burst` {count} writes `count`
// `notifications/progress` for the call's progress token and then the answer, all in ONE write, so
// the client reads them in one chunk (the SDK client handles progress a microtask after the answer
// it has already read, and had dropped every one of them).
import { initializeResult, rawStdioServer, writeText } from "../../../testing/src/fixtures/raw-stdio.mjs"

const tools = [{ name: "burst", inputSchema: { type: "object", properties: { count: { type: "number" } } } }]

rawStdioServer(async ({ id, method, params }, out) => {
  if (method === "initialize") return out.result(id, initializeResult(params, "burst", { tools: {} }))
  if (method === "tools/list") return out.result(id, { tools })
  if (method !== "tools/call") return out.error(id, -32601, "no")
  const count = Number(params?.arguments?.count ?? 3)
  const token = params?._meta?.progressToken
  let text = ""
  if (token !== undefined) {
    for (let i = 1; i <= count; i++) {
      const note = { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: i, total: count, message: `step ${i}` } }
      text += JSON.stringify(note) + "\n"
    }
  }
  text += JSON.stringify({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text: `sent ${token === undefined ? 0 : count}` }] } }) + "\n"
  await writeText(text)
})
