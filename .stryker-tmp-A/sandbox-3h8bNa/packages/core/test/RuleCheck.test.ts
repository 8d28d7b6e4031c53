// @ts-nocheck
import { describe, expect, it } from "@effect/vitest"
import { ruleWarnings, suggestKey } from "@mcpctl/core/internal/config/RuleCheck"
import { parseSettingsText } from "@mcpctl/core/internal/config/SettingsLoad"
import * as Either from "effect/Either"

const servers = [{ name: "fs", originalName: "fs" }, { name: "my_server", originalName: "my.server" }]
const rules = (deny: Array<string>, allow: Array<string> = []) => ({ allow, ask: [], deny })

describe("rules that match nothing are warned about", () => {
  it("a deny for an unknown server", () => {
    const [w] = ruleWarnings(rules(["mcp__github__delete_repo"]), servers)
    expect(w).toContain(`permissions.deny rule "mcp__github__delete_repo" names no configured server`)
    expect(w).toContain("configured: fs, my_server")
  })

  it("a deny in another case, or with the name as written, suggests the configured one", () => {
    expect(ruleWarnings(rules(["mcp__FS__write_file"]), servers)[0]).toContain(`Write "mcp__fs__write_file"`)
    expect(ruleWarnings(rules(["mcp__my.server"]), servers)[0]).toContain(`Write "mcp__my_server"`)
  })

  it("a trailing __, and a deny that is no tool name", () => {
    expect(ruleWarnings(rules(["mcp__fs__"]), servers)[0]).toContain(`ends in "__"`)
    expect(ruleWarnings(rules([], ["mcp__fs__"]), servers)[0]).toContain("matches nothing")
    expect(ruleWarnings(rules(["write_file"]), servers)[0]).toContain("tool names start with mcp__")
  })

  it("says nothing about rules that match", () => {
    expect(ruleWarnings(rules(["mcp__fs", "mcp__fs__write_file", "mcp__*", "mcp__f*"], ["mcp__fs__read*"]), servers)).toEqual([])
  })
})

describe("misspelled settings keys", () => {
  it("suggests permissions for permission, deny for denied", () => {
    expect(suggestKey("permission", ["mcpServers", "permissions"])).toBe("permissions")
    expect(suggestKey("denied", ["allow", "ask", "deny"])).toBe("deny")
    expect(suggestKey("zzz", ["allow", "ask", "deny"])).toBeUndefined()
    const parsed = Either.getOrThrow(parseSettingsText(JSON.stringify({ permission: { deny: ["x"] } }), "/p/s.json"))
    expect(parsed.warnings).toEqual([`/p/s.json: unknown field permission is ignored (did you mean "permissions"?)`])
    const denied = Either.getOrThrow(parseSettingsText(JSON.stringify({ permissions: { denied: ["x"] } }), "/p/s.json"))
    expect(denied.warnings[0]).toContain(`permissions.denied is ignored (did you mean "deny"?)`)
  })
})
