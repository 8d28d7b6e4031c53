/**
 * The layout's rules, checked so they stay true (docs/architecture.md, Layout): no import cycle anywhere in the
 * packages or the CLI, no module re-exports a sibling, and the CLI composes core layers only: it
 * imports nothing from the MCP SDK.
 */
import { describe, expect, it } from "@effect/vitest"
import madge from "madge"
import { readdirSync, readFileSync, statSync } from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { slow } from "./support/slow.js"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..")
const sources = ["packages/core/src", "packages/testing/src", "apps/cli/src"].map((d) => path.join(root, d))

const tsFiles = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name)
    return statSync(file).isDirectory() ? tsFiles(file) : file.endsWith(".ts") ? [file] : []
  })

describe("layout", () => {
  it("has no import cycle in core, testing or the CLI", async () => {
    const graph = await madge(sources, {
      fileExtensions: ["ts"],
      tsConfig: path.join(root, "tsconfig.json"),
      detectiveOptions: { ts: { skipTypeImports: false } }
    })
    // madge must have seen the whole tree, or "no cycle" would mean nothing.
    expect(Object.keys(graph.obj()).length).toBeGreaterThan(40)
    expect(graph.circular()).toEqual([])
  }, slow(60_000))

  it("has no module that re-exports another (only the index files do)", () => {
    const offenders = sources.flatMap(tsFiles)
      .filter((f) => path.basename(f) !== "index.ts")
      .filter((f) => /^export\s+(\*|(type\s+)?\{[^}]*\})\s+from\s+"/m.test(readFileSync(f, "utf8")))
      .map((f) => path.relative(root, f))
    expect(offenders).toEqual([])
  })

  it("keeps the CLI free of MCP SDK imports: it composes core layers", () => {
    const offenders = tsFiles(path.join(root, "apps/cli/src"))
      .filter((f) => /from\s+"@modelcontextprotocol\//.test(readFileSync(f, "utf8")) ||
        /import\(\s*"@modelcontextprotocol\//.test(readFileSync(f, "utf8")))
      .map((f) => path.relative(root, f))
    expect(offenders).toEqual([])
  })
})
