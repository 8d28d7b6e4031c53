#!/usr/bin/env node
// The flood server of the `flood` figure: raw JSON-RPC over stdio (no SDK), one tool `flood`
// {count, level} that writes `count` `notifications/message` at `level` (default debug) in big
// writes (backpressure respected), then answers with its own CPU time, so the harness can tell
// the client's cost from the server's.
const tools = [{
  name: "flood",
  description: "Notifications, then an answer",
  inputSchema: { type: "object", properties: { count: { type: "number" }, level: { type: "string" } } }
}]

const write = (text) => (process.stdout.write(text) ? undefined : new Promise((resolve) => process.stdout.once("drain", resolve)))

const flood = async (count, level) => {
  const batch = 1_000
  for (let i = 0; i < count; i += batch) {
    let text = ""
    for (let j = i; j < Math.min(count, i + batch); j++) {
      text += `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"${level}","logger":"flood","data":"message ${j}"}}\n`
    }
    await write(text)
  }
}

const handle = async ({ id, method, params }) => {
  const reply = (result) => write(JSON.stringify({ jsonrpc: "2.0", id, result }) + "\n")
  if (method === "initialize") {
    return reply({ protocolVersion: params?.protocolVersion ?? "2025-06-18", capabilities: { tools: {}, logging: {} }, serverInfo: { name: "flood", version: "1" } })
  }
  if (method === "tools/list") return reply({ tools })
  if (method === "logging/setLevel") return reply({})
  if (method === "tools/call") {
    const args = params?.arguments ?? {}
    const started = process.cpuUsage()
    await flood(Number(args.count ?? 1_000), String(args.level ?? "debug"))
    const used = process.cpuUsage(started)
    return reply({ content: [{ type: "text", text: `sent ${args.count}; server cpu ms ${((used.user + used.system) / 1000).toFixed(0)}` }] })
  }
  return write(JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32601, message: `no method ${method}` } }) + "\n")
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
process.stdout.on("error", () => {})
