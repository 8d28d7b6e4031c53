/**
 * includeTools / excludeTools: the globs directly, then on the reference servers over stdio,
 * where hidden tools must be absent from the catalogue and search, and a call names the field.
 */
// @ts-nocheck

import { describe, expect, it } from "@effect/vitest"
import { Everything, Host } from "@mcpctl/testing"
import { UsageError } from "@mcpctl/core/Errors"
import { McpConfig } from "@mcpctl/core/McpConfig"
import type { ServerConfig } from "@mcpctl/core/ServerConfig"
import { globToRegExp, hiddenBy } from "@mcpctl/core/internal/catalog/ToolFilter"
import { ToolRegistry } from "@mcpctl/core/ToolRegistry"
import { Transport } from "@mcpctl/core/Transport"
import * as Effect from "effect/Effect"
import { mkdtempSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import * as path from "node:path"

describe("globs (pure)", () => {
  it("matches whole names: * any run, ? one character, everything else literally", () => {
    expect(globToRegExp("read_*").test("read_text_file")).toBe(true)
    expect(globToRegExp("read_*").test("xread_file")).toBe(false)
    expect(globToRegExp("get-?um").test("get-sum")).toBe(true)
    expect(globToRegExp("a.b").test("axb")).toBe(false)
    expect(globToRegExp("a.b").test("a.b")).toBe(true)
    expect(globToRegExp("(x)+").test("(x)+")).toBe(true)
    expect(globToRegExp("*").test("")).toBe(true)
  })

  it("hides what excludeTools matches (it wins), and what an includeTools list does not", () => {
    const config = (extra: Partial<ServerConfig>) => ({ command: "x", ...extra }) as ServerConfig
    expect(hiddenBy(config({}), "anything")).toBeUndefined()
    expect(hiddenBy(config({ excludeTools: ["write_*"] }), "write_file")).toEqual({ field: "excludeTools", pattern: "write_*" })
    expect(hiddenBy(config({ excludeTools: ["write_*"] }), "read_file")).toBeUndefined()
    expect(hiddenBy(config({ includeTools: ["read_*"] }), "write_file")).toEqual({ field: "includeTools" })
    expect(hiddenBy(config({ includeTools: ["read_*"], excludeTools: ["read_media*"] }), "read_media_file"))
      .toEqual({ field: "excludeTools", pattern: "read_media*" })
    expect(hiddenBy(config({ includeTools: [] }), "read_file")).toEqual({ field: "includeTools" })
  })
})

const require = createRequire(import.meta.url)
const filesystemServer = require.resolve("@modelcontextprotocol/server-filesystem/dist/index.js")

const host = (servers: Record<string, ServerConfig>) =>
  Host.layer({
    config: McpConfig.layerStatic({
      servers,
      permissions: { allow: ["mcp__everything", "mcp__filesystem"] },
      home: mkdtempSync(path.join(tmpdir(), "mcpctl-filter-")),
      projectDir: process.cwd()
    }),
    transport: Transport.layer
  })

describe("includeTools / excludeTools on the reference servers", () => {
  const servers = {
    everything: { command: process.execPath, args: [Everything.everythingServer, "stdio"], includeTools: ["get-*", "echo"], excludeTools: ["get-env"] },
    filesystem: { command: process.execPath, args: [filesystemServer, process.cwd()], excludeTools: ["write_*", "move_file", "edit_file"] }
  } satisfies Record<string, ServerConfig>

  it.scoped("hides the tools from the catalogue and from search, and a call names the field that hides it", () =>
    Effect.gen(function*() {
      const registry = yield* ToolRegistry
      const { errors, tools } = yield* registry.list()
      expect(errors).toEqual([])
      const names = tools.map((t) => t.name)
      expect(names).toContain("mcp__everything__get-sum")
      expect(names).toContain("mcp__everything__echo")
      expect(names).toContain("mcp__filesystem__read_text_file")
      for (const hidden of ["mcp__everything__get-env", "mcp__everything__toggle-simulated-logging", "mcp__filesystem__write_file", "mcp__filesystem__move_file"]) {
        expect(names).not.toContain(hidden)
      }
      expect(tools.every((t) => t.server === "filesystem" || t.tool === "echo" || t.tool.startsWith("get-"))).toBe(true)

      const found = yield* registry.search("write a file", { limit: 20 })
      expect(found.results.map((r) => r.tool.name)).not.toContain("mcp__filesystem__write_file")

      const excluded = yield* Effect.flip(registry.call("mcp__filesystem__write_file", { path: "x", content: "y" }))
      expect(excluded).toBeInstanceOf(UsageError)
      expect(excluded.message).toBe(
        'mcp__filesystem__write_file is hidden by mcpServers.filesystem.excludeTools ("write_*") in code. ' +
          'Remove that pattern to use the tool "write_file".'
      )
      const notIncluded = yield* Effect.flip(registry.call("mcp__everything__toggle-simulated-logging", {}))
      expect(notIncluded.message).toContain("hidden by mcpServers.everything.includeTools in code")
      expect(notIncluded.message).toContain('["get-*","echo"]')
      const envExcluded = yield* Effect.flip(registry.call("mcp__everything__get-env", {}))
      expect(envExcluded.message).toContain('excludeTools ("get-env")')
      // A name the server does not have at all is still the ordinary message.
      const typo = yield* Effect.flip(registry.call("mcp__filesystem__writ_file", {}))
      expect(typo.message).toContain('Server "filesystem" has no tool mcp__filesystem__writ_file')

      expect((yield* registry.call("mcp__everything__get-sum", { a: 2, b: 40 })).result.content).toEqual([{ type: "text", text: "The sum of 2 and 40 is 42." }])
    }).pipe(Effect.provide(host(servers))))
})
