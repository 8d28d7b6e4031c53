/**
 * Tool search: the tokenizer and ranking directly, then plain queries over the catalogue of the
 * three reference servers (everything, filesystem, memory) over stdio.
 */
// @ts-nocheck

import { describe, expect, it } from "@effect/vitest"
import { Everything, Host } from "@mcpctl/testing"
import { McpConfig } from "@mcpctl/core/McpConfig"
import { rank, stem, tokenize } from "@mcpctl/core/internal/catalog/Search"
import { ToolRegistry } from "@mcpctl/core/ToolRegistry"
import { Transport } from "@mcpctl/core/Transport"
import * as Effect from "effect/Effect"
import { mkdtempSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import * as path from "node:path"

describe("tokenize and rank (pure)", () => {
  it("splits names at case changes, _ and -, drops stop words and common endings", () => {
    expect(tokenize("get-sum")).toEqual(["get", "sum"])
    expect(tokenize("readTextFile list_directory_with_sizes")).toEqual(["read", "text", "fil", "list", "directory", "siz"])
    expect(tokenize("Add the two NUMBERS of a URLPath")).toEqual(["add", "two", "number", "url", "path"])
    expect(stem("directories")).toBe(stem("directory"))
    expect(stem("created")).toBe(stem("create"))
    expect(stem("listing")).toBe(stem("list"))
    expect(stem("access")).toBe("access")
  })

  const tools = [
    { name: "add_observations", title: "Add Observations", description: "Add new observations to existing entities" },
    { name: "get-sum", title: "Get Sum Tool", description: "Returns the sum of two numbers", parameters: ["a", "b"] },
    { name: "echo", description: "Echoes back the input string", parameters: ["message"] }
  ]

  it("ranks a tool matching more of the query above one matching one word in every field", () => {
    const hits = rank(tools, (t) => t, "add two numbers")
    expect(hits.map((h) => h.item.name)).toEqual(["get-sum", "add_observations"])
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score)
    // The coordination factor: matching one of two query words halves the score.
    const alone = rank(tools, (t) => t, "observations")[0]!.score
    expect(rank(tools, (t) => t, "observations zebra")[0]!.score).toBeCloseTo(alone / 2, 2)
  })

  it("leaves out what matches nothing, honours the limit, keeps the catalogue order on ties", () => {
    expect(rank(tools, (t) => t, "zebra")).toEqual([])
    expect(rank(tools, (t) => t, "the of a")).toEqual([])
    expect(rank(tools, (t) => t, "add two numbers", 1).map((h) => h.item.name)).toEqual(["get-sum"])
    const twins = [{ name: "x", description: "same words" }, { name: "y", description: "same words" }]
    expect(rank(twins, (t) => t, "words").map((h) => h.item.name)).toEqual(["x", "y"])
    // Parameter names count: a query naming a parameter finds its tool.
    expect(rank(tools, (t) => t, "message")[0]!.item.name).toBe("echo")
  })
})

const require = createRequire(import.meta.url)
const reference = {
  everything: { command: process.execPath, args: [Everything.everythingServer, "stdio"] },
  filesystem: { command: process.execPath, args: [require.resolve("@modelcontextprotocol/server-filesystem/dist/index.js"), process.cwd()] },
  memory: {
    command: process.execPath,
    args: [require.resolve("@modelcontextprotocol/server-memory/dist/index.js")],
    env: { MEMORY_FILE_PATH: path.join(tmpdir(), "mcpctl-search-memory.jsonl") }
  }
}

/** Plain queries and the tool each must find first (the report's ranking comes from this table). */
export const queries: ReadonlyArray<readonly [string, string]> = [
  ["add two numbers", "mcp__everything__get-sum"],
  ["list the files in a directory", "mcp__filesystem__list_directory"],
  ["print environment variables", "mcp__everything__get-env"],
  ["compress a file", "mcp__everything__gzip-file-as-resource"],
  ["search the knowledge graph", "mcp__memory__search_nodes"],
  ["delete a relation", "mcp__memory__delete_relations"],
  ["move a file", "mcp__filesystem__move_file"]
]

describe("ToolRegistry.search on the reference servers", () => {
  it.scoped("finds the right tool first for plain queries", () =>
    Effect.gen(function*() {
      const registry = yield* ToolRegistry
      for (const [query, first] of queries) {
        const { errors, results } = yield* registry.search(query, { limit: 3 })
        expect(errors).toEqual([])
        expect(results.length).toBeLessThanOrEqual(3)
        expect(results[0]?.tool.name, query).toBe(first)
        expect(results.every((r, i) => i === 0 || r.score <= results[i - 1]!.score)).toBe(true)
      }
      const onlyMemory = yield* registry.search("add two numbers", { servers: ["memory"] })
      expect(onlyMemory.results.map((r) => r.tool.server)).toEqual(["memory"])
    }).pipe(Effect.provide(Host.layer({
      config: McpConfig.layerStatic({
        servers: reference,
        home: mkdtempSync(path.join(tmpdir(), "mcpctl-search-")),
        projectDir: process.cwd()
      }),
      transport: Transport.layer
    }))))
})
