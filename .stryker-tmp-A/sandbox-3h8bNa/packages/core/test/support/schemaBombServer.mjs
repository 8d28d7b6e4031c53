#!/usr/bin/env node
// @ts-nocheck
// A raw JSON-RPC stdio server (no SDK) whose tools' outputSchemas and answers are built to make
// checking them expensive: one tool per construct. `--ready-file FILE`: each time an answer is
// written, FILE gets a line (so a test knows the client has it).
import { appendFileSync } from "node:fs"
import { initializeResult, rawStdioServer } from "../../../testing/src/fixtures/raw-stdio.mjs"

const readyFile = process.argv.includes("--ready-file") ? process.argv[process.argv.indexOf("--ready-file") + 1] : undefined
const obj = (properties, extra = {}) => ({ type: "object", properties, ...extra })

/** name → [outputSchema, (args) => structuredContent] */
const bombs = {
  // Ajv compares every pair of object items with deepEqual: 20,000 took ~30 s.
  unique: [obj({ items: { type: "array", uniqueItems: true } }), (a) => ({
    items: Array.from({ length: Number(a.count ?? 20_000) }, (_, i) => ({ id: i, name: `item ${i}`, tags: ["a", "b"] })).concat(a.duplicate ? [{ id: 0, tags: ["a", "b"], name: "item 0" }] : [])
  })],
  // anyOf of two branches, both recursing: 2^depth evaluations for data `depth` levels deep.
  anyofRecursive: [{
    $defs: { n: { anyOf: [obj({ c: { $ref: "#/$defs/n" } }), obj({ c: { $ref: "#/$defs/n" } }, { required: ["never"] })] } },
    type: "object",
    $ref: "#/$defs/n"
  }, (a) => {
    // The innermost value fails both branches, so every level tries both.
    let v = { c: 5 }
    for (let i = 0; i < Number(a.depth ?? 40); i++) v = { c: v }
    return v
  }],
  // No recursion, but each definition refers to the next one twice: 2^40 paths for one value.
  anyofDag: [(() => {
    const $defs = { d40: { type: "string" } }
    for (let i = 39; i >= 0; i--) $defs[`d${i}`] = { anyOf: [{ $ref: `#/$defs/d${i + 1}` }, { allOf: [{ $ref: `#/$defs/d${i + 1}` }] }] }
    return obj({ v: { $ref: "#/$defs/d0" } }, { $defs })
  })(), () => ({ v: 1 })],
  // oneOf nested: every level holds three branches that all need checking.
  // oneOf nested 25 levels through $refs: every level holds three branches that all need checking.
  oneofNested: [(() => {
    const $defs = { o25: { type: "number" } }
    for (let i = 24; i >= 0; i--) {
      const next = { $ref: `#/$defs/o${i + 1}` }
      $defs[`o${i}`] = { oneOf: [next, { allOf: [next] }, { not: { not: next } }] }
    }
    return obj({ v: { $ref: "#/$defs/o0" } }, { $defs })
  })(), () => ({ v: "x" })],
  // 20,000 enum entries (objects: compared with deepEqual), and a const of 20,000 keys.
  hugeEnum: [obj({ v: { enum: Array.from({ length: 20_000 }, (_, i) => ({ k: i })) } }), () => ({ v: { k: -1 } })],
  hugeConst: [obj({ v: { const: Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i])) } }), () => ({
    v: Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i]))
  })],
  // Recursive $ref and data 100,000 levels deep (written as text: JSON.stringify overflows).
  deepRef: [{ type: "object", $defs: { n: obj({ c: { $ref: "#/$defs/n" } }) }, $ref: "#/$defs/n" }, "deep"],
  // patternProperties and propertyNames with catastrophic (for backtracking) patterns on long keys.
  patterns: [obj({}, {
    patternProperties: { "^(a+)+$": { type: "number" } },
    propertyNames: { pattern: "^(a|aa)+$" }
  }), () => Object.fromEntries(Array.from({ length: 300 }, (_, i) => ["a".repeat(2_000 + i) + "!", i]))],
  // format on pathological strings: long emails, URIs, dates.
  formats: [obj({ e: { type: "array", items: { type: "string", format: "email" } }, u: { type: "array", items: { type: "string", format: "uri" } }, d: { type: "string", format: "date-time" } }), () => ({
    e: Array.from({ length: 20 }, () => "a".repeat(50_000) + "@" + "b.".repeat(20_000) + "!"),
    u: Array.from({ length: 20 }, () => "http://" + "a".repeat(50_000) + "/" + "%".repeat(10_000)),
    d: "2020-01-01T" + "0".repeat(200_000)
  })],
  // multipleOf with a tiny float, on many numbers.
  multipleOf: [obj({ v: { type: "array", items: { type: "number", multipleOf: 1e-300 } } }), () => ({ v: Array.from({ length: 100_000 }, (_, i) => i * 1.1e-7) })],
  // A very long string against maxLength and a catastrophic pattern.
  longString: [obj({ s: { type: "string", maxLength: 10, pattern: "^(a|a)*$" } }), () => ({ s: "a".repeat(2_000_000) + "!" })]
}

// `--huge`: only the tools with huge schemas (enum, const), whose listing alone takes seconds.
const huge = process.argv.includes("--huge")
const tools = [
  { name: "echo", inputSchema: { type: "object" } },
  ...Object.entries(bombs).filter(([name]) => name.startsWith("huge") === huge)
    .map(([name, [outputSchema]]) => ({ name, inputSchema: { type: "object" }, outputSchema }))
]

const answer = (out, id, structuredText) => {
  out.raw(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"bomb"}],"structuredContent":${structuredText}}}`)
  if (readyFile) appendFileSync(readyFile, `${id}\n`)
}

rawStdioServer(({ id, method, params }, out) => {
  if (method === "initialize") return out.result(id, initializeResult(params, "bombs", { tools: {} }))
  if (method === "tools/list") return out.result(id, { tools })
  if (method !== "tools/call") return out.error(id, -32601, "no")
  const name = params?.name
  const args = params?.arguments ?? {}
  if (name === "echo") return out.result(id, { content: [{ type: "text", text: String(args.text ?? "") }] })
  const make = bombs[name]?.[1]
  if (make === "deep") {
    const depth = Number(args.depth ?? 100_000)
    return answer(out, id, '{"c":'.repeat(depth) + "{}" + "}".repeat(depth))
  }
  return answer(out, id, JSON.stringify(make(args)))
})
