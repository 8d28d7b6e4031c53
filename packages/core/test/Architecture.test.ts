/**
 * The layout's rules, checked so they stay true (docs/architecture.md, Layout): no import cycle anywhere in the
 * packages or the CLI, no cycle between core's stages (folders, internal/<stage> counted as its
 * stage), no module re-exports a sibling, and the CLI composes core layers only: it imports
 * nothing from the MCP SDK.
 */
import { describe, expect, it } from "@effect/vitest"
import { execFile } from "node:child_process"
import { readdirSync, readFileSync, statSync } from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { slow } from "./support/slow.js"
import { cyclesOf, stageOf } from "./support/stages.js"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..")
const sources = ["packages/core/src", "packages/testing/src", "apps/cli/src"].map((d) => path.join(root, d))

/** madge's graph of `dirs`, computed in a child process (support/importGraph.mjs says why). */
const importGraph = async (dirs: ReadonlyArray<string>) => {
  const script = fileURLToPath(new URL("./support/importGraph.mjs", import.meta.url))
  const { stdout } = await promisify(execFile)(process.execPath, [script, ...dirs], { maxBuffer: 64 * 1024 * 1024 })
  return JSON.parse(stdout) as { obj: Record<string, Array<string>>; circular: Array<Array<string>> }
}

const tsFiles = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name)
    return statSync(file).isDirectory() ? tsFiles(file) : file.endsWith(".ts") ? [file] : []
  })

describe("layout", () => {
  it("has no import cycle in core, testing or the CLI", async () => {
    const graph = await importGraph(sources)
    // madge must have seen the whole tree, or "no cycle" would mean nothing.
    expect(Object.keys(graph.obj).length).toBeGreaterThan(40)
    expect(graph.circular).toEqual([])
  }, slow(60_000))

  it("has no cycle between the stages of core: each import goes with the data flow", async () => {
    const graph = await importGraph([path.join(root, "packages/core/src")])
    const edges = new Map<string, Set<string>>()
    const imports: Array<string> = []
    for (const [file, deps] of Object.entries(graph.obj)) {
      if (file === "index.ts") continue
      for (const dep of deps) {
        const [from, to] = [stageOf(file), stageOf(dep)]
        if (from === to) continue
        edges.set(from, (edges.get(from) ?? new Set()).add(to))
        imports.push(`${from} → ${to}: ${file} imports ${dep}`)
      }
    }
    // The whole core was seen: every stage folder takes part.
    expect([...edges.keys()]).toEqual(expect.arrayContaining(["config", "transport", "pool", "catalog", "permission", "gateway", "host"]))
    const cycles = cyclesOf(edges)
    const closing = cycles.flatMap((cycle) => imports.filter((i) => cycle.some((a) => cycle.some((b) => a !== b && i.startsWith(`${a} → ${b}:`)))))
    expect(closing).toEqual([])
  }, slow(60_000))

  it("tells a file's stage and finds every cycle, of two stages or more (pure)", () => {
    expect(["Errors.ts", "internal/files.ts", "internal/pool/request.ts", "pool/ConnectionPool.ts", "internal/config/Redact.ts"].map(stageOf))
      .toEqual(["base", "base", "pool", "pool", "config"])
    const graph = (pairs: ReadonlyArray<string>) => {
      const edges = new Map<string, Set<string>>()
      for (const [a, b] of pairs.map((p) => p.split(">"))) edges.set(a!, (edges.get(a!) ?? new Set()).add(b!))
      return edges
    }
    expect(cyclesOf(graph(["config>base", "pool>config", "pool>base"]))).toEqual([])
    expect(cyclesOf(graph(["catalog>config", "config>catalog", "pool>config"]))).toEqual([["catalog", "config"]])
    expect(cyclesOf(graph(["catalog>permission", "permission>config", "config>catalog", "host>catalog"]))).toEqual([["catalog", "config", "permission"]])
  })

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
