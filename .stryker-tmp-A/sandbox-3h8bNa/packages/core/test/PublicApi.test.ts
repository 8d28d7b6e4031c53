// @ts-nocheck
// The public API of @mcpctl/core, kept small on purpose: the services a user composes, their
// errors and ports. A module added outside internal/ fails here until it is named below (and in
// docs/architecture.md, Layout); every exported declaration of a public module says since when.
import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

const core = fileURLToPath(new URL("../", import.meta.url))
const pkg = JSON.parse(readFileSync(`${core}package.json`, "utf8")) as { readonly exports: Record<string, unknown> }

const PUBLIC = [
  "ConnectionPool",
  "ContentItem",
  "Elicitation",
  "Errors",
  "Gateway",
  "Host",
  "McpConfig",
  "Permission",
  "Pins",
  "Resources",
  "ServerConfig",
  "SignIn",
  "Tasks",
  "ToolRegistry",
  "Transport"
]

const sourceOf = (entry: string): string => (pkg.exports[`./${entry}`] as { "@mcpctl/source": string })["@mcpctl/source"]

describe("the public API", () => {
  it(`is ${PUBLIC.length} modules, and the index re-exports exactly those`, () => {
    const entries = Object.keys(pkg.exports).filter((k) => ![".", "./package.json", "./internal/*"].includes(k)).map((k) => k.slice(2))
    expect(entries.sort()).toEqual([...PUBLIC].sort())
    const index = readFileSync(`${core}src/index.ts`, "utf8")
    const names = [...index.matchAll(/^export \* as (\w+) from "\.\/(.+)\.js"$/gm)].map((m) => m[1])
    expect(names.sort()).toEqual([...PUBLIC].sort())
  })

  it("marks every exported declaration of a public module with @since", () => {
    const missing = PUBLIC.flatMap((name) => {
      const lines = readFileSync(`${core}${sourceOf(name)}`, "utf8").split("\n")
      return lines.flatMap((line, i) => {
        if (!/^export (declare |default |abstract )*(const|let|function|async function|class|interface|type|enum|namespace)\s/.test(line)) return []
        let start = i - 1
        if (!(lines[start] ?? "").trimEnd().endsWith("*/")) return [`${name}: ${line}`]
        while (start > 0 && !lines[start]!.trimStart().startsWith("/*")) start--
        return lines.slice(start, i).some((l) => l.includes("@since")) ? [] : [`${name}: ${line}`]
      })
    })
    expect(missing).toEqual([])
  })
})
