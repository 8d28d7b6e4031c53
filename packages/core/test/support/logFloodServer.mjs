#!/usr/bin/env node
// A raw JSON-RPC stdio server (no SDK) for the server-log flood tests: tool `flood` {count,
// levels} writes `count` `notifications/message`, the levels taken in turn from `levels`
// (default ["debug"]), in big writes that respect backpressure; then it answers "sent N".
const tools = [{ name: "flood", inputSchema: { type: "object" } }]
const write = (text) => (process.stdout.write(text) ? undefined : new Promise((resolve) => process.stdout.once("drain", resolve)))

const handle = async ({ id, method, params }) => {
  const reply = (result) => write(JSON.stringify({ jsonrpc: "2.0", id, result }) + "\n")
  if (method === "initialize") {
    return reply({ protocolVersion: params?.protocolVersion ?? "2025-06-18", capabilities: { tools: {}, logging: {} }, serverInfo: { name: "flood", version: "1" } })
  }
  if (method === "tools/list") return reply({ tools })
  if (method === "logging/setLevel") return reply({})
  if (method !== "tools/call") return write(JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32601, message: "no" } }) + "\n")
  const count = Number(params?.arguments?.count ?? 1000)
  const levels = params?.arguments?.levels ?? ["debug"]
  for (let i = 0; i < count; i += 1000) {
    let text = ""
    for (let j = i; j < Math.min(count, i + 1000); j++) {
      text += `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"${levels[j % levels.length]}","logger":"f","data":"m${j}"}}\n`
    }
    await write(text)
  }
  return reply({ content: [{ type: "text", text: `sent ${count}` }] })
}

let buffer = ""
process.stdin.setEncoding("utf8")
process.stdin.on("data", (chunk) => {
  buffer += chunk
  let nl
  while ((nl = buffer.indexOf("\n")) >= 0) {
    const line = buffer.slice(0, nl)
    buffer = buffer.slice(nl + 1)
    if (line.trim() === "") continue
    const msg = JSON.parse(line)
    if (msg.id !== undefined && msg.method !== undefined) void handle(msg)
  }
})
process.stdin.on("end", () => process.exit(0))
