/**
 * A trusted project's allow rules approve only the project's own servers: its `mcp__*` must not
 * approve the user's servers behind the trust prompt's back. Its deny rules still apply everywhere.
 */
// @ts-nocheck

import { describe, expect, it } from "@effect/vitest"
import type { ParsedSettings, ServerConfig } from "../src/config/ServerConfig.js"
import * as SettingsLoad from "../src/internal/config/SettingsLoad.js"
import { decide } from "../src/permission/Permission.js"
import { right } from "./support/either.js"

const settings = (
  servers: Record<string, ServerConfig>,
  permissions: { allow?: Array<string>; deny?: Array<string> } = {}
): ParsedSettings => ({
  servers: Object.entries(servers).map(([name, config]) => ({ name, config })),
  permissions: { allow: permissions.allow ?? [], ask: [], deny: permissions.deny ?? [] },
  warnings: []
})

const rules = right(SettingsLoad.mergeSettings([
  { scope: "user", source: "~/.mcpctl/settings.json", settings: settings({ mine: { command: "a" }, notes: { command: "n" } }, { allow: ["mcp__notes__read"] }) },
  { scope: "project", source: ".mcp.json", settings: settings({ repo: { command: "r" } }, { allow: ["mcp__*", "mcp__notes__read"], deny: ["mcp__mine__rm"] }) },
  { scope: "local", source: ".mcpctl/settings.local.json", settings: settings({ scratch: { command: "s" } }, { allow: ["mcp__mine__ls"] }) }
])).permissions

describe("project allow rules", () => {
  it("approve the project's and local servers' tools", () => {
    expect(decide(rules, "mcp__repo__build")).toEqual({ behavior: "allow", rule: "mcp__*" })
    expect(decide(rules, "mcp__scratch__x", { server: "scratch", tool: "x" }).behavior).toBe("allow")
  })

  it("do not approve the user's own servers; the user's and local rules still do", () => {
    expect(decide(rules, "mcp__mine__write")).toEqual({ behavior: "ask", rule: undefined })
    expect(decide(rules, "mcp__mine__write", { server: "mine", tool: "write" }).behavior).toBe("ask")
    expect(decide(rules, "mcp__notes__read")).toEqual({ behavior: "allow", rule: "mcp__notes__read" })
    expect(decide(rules, "mcp__mine__ls")).toEqual({ behavior: "allow", rule: "mcp__mine__ls" })
  })

  it("a project's deny rule reaches the user's servers too", () => {
    expect(decide(rules, "mcp__mine__rm")).toEqual({ behavior: "deny", rule: "mcp__mine__rm" })
  })

  it("are kept apart from the rules that apply everywhere", () => {
    expect(rules.allow).toEqual(["mcp__notes__read", "mcp__*", "mcp__mine__ls"])
    expect(rules.projectAllow).toEqual(["mcp__*"])
    expect(rules.projectServers).toEqual(["repo", "scratch"])
  })
})
