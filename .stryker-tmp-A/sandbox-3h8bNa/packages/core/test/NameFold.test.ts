// @ts-nocheck
import { describe, expect, it } from "@effect/vitest"
import { foldedEquals, foldedStartsWith, foldName } from "@mcpctl/core/internal/permission/NameFold"
import { buildToolName } from "@mcpctl/core/internal/Naming"
import { decide, serverDenyRule } from "@mcpctl/core/Permission"

const rules = (r: { allow?: Array<string>; ask?: Array<string>; deny?: Array<string> }) => ({
  allow: r.allow ?? [],
  ask: r.ask ?? [],
  deny: r.deny ?? []
})

describe("look-alikes of a denied tool are denied", () => {
  const denied = rules({ allow: ["mcp__fs__*"], deny: ["mcp__fs__write_file"] })
  const decideFor = (tool: string) => decide(denied, `mcp__fs__${tool.replace(/[^A-Za-z0-9_-]/g, "_")}`, { server: "fs", tool })

  it.each(["write-file", "WRITE_FILE", "Write.File", "wr\u0456te_file", "write_file\u200B", "w\u0433ite_file", "writ\u00e9_file", "wr1te_file", "writefile", "write__file", "w_rite_file", "write file", "-write_file-"])(
    "%j is denied by the exact rule, not allowed by the wildcard",
    (tool) => {
      expect(decideFor(tool)).toEqual({ behavior: "deny", rule: "mcp__fs__write_file" })
    }
  )

  it("different tools stay allowed", () => {
    expect(decideFor("read_file").behavior).toBe("allow")
    expect(decideFor("write_files").behavior).toBe("allow")
    expect(decideFor("rewrite_file").behavior).toBe("allow")
  })

  it("a wildcard deny folds its prefix", () => {
    const r = rules({ allow: ["mcp__fs__*"], deny: ["mcp__fs__write*"] })
    expect(decide(r, "mcp__fs__WRITE_x", { server: "fs", tool: "WRITE_x" }).behavior).toBe("deny")
    expect(decide(r, "mcp__fs__wr_te_x", { server: "fs", tool: "wr\u0456te_x" }).behavior).toBe("deny")
    expect(decide(r, "mcp__fs__read", { server: "fs", tool: "read" }).behavior).toBe("allow")
  })

  it("deny rules with another case or a trailing __ still deny; allow rules stay exact", () => {
    expect(decide(rules({ deny: ["mcp__FS__write_file"] }), "mcp__fs__write_file", { server: "fs", tool: "write_file" }).behavior).toBe("deny")
    expect(decide(rules({ deny: ["mcp__fs__"] }), "mcp__fs__anything", { server: "fs", tool: "anything" }).behavior).toBe("deny")
    expect(decide(rules({ allow: ["mcp__FS__write_file"] }), "mcp__fs__write_file", { server: "fs", tool: "write_file" }).behavior).toBe("ask")
  })
})

describe("rules match the full unshortened name too", () => {
  it("a rule written from a 70-character name matches its 64-character form", () => {
    const tool = "a_tool_name_that_is_long_enough_to_be_cut_by_the_sixty_four_limit"
    const full = `mcp__fs__${tool}`
    const shortened = buildToolName("fs", tool)
    expect(shortened.length).toBe(64)
    expect(decide(rules({ allow: ["mcp__fs__*"], deny: [full] }), shortened, { server: "fs", tool })).toEqual({ behavior: "deny", rule: full })
    expect(decide(rules({ allow: [full] }), shortened, { server: "fs", tool }).behavior).toBe("allow")
  })
})

describe("server-level deny", () => {
  it("covers a server by name, with __*, by folded name and by prefix", () => {
    for (const rule of ["mcp__fs", "mcp__fs__*", "mcp__FS", "mcp__fs__", "mcp__*", "mcp__f*", "*"]) {
      expect(serverDenyRule(rules({ deny: [rule] }), "fs")).toBe(rule)
    }
    for (const rule of ["mcp__fs__write_file", "mcp__fs__w*", "mcp__other", "mcp__fsx"]) {
      expect(serverDenyRule(rules({ deny: [rule] }), "fs")).toBeUndefined()
    }
  })
})

describe("foldName (pure)", () => {
  it("folds case, separators, marks, invisible characters and look-alikes", () => {
    expect(foldName("Write-File")).toBe(foldName("write_file"))
    expect(foldName("w\u0440ite")).toBe(foldName("wpite"))
    expect(foldName("\u200Bx\u202E")).toBe("x")
    expect(foldedEquals("write_file", "wr\u4e00te_file")).toBe(true) // an unplaceable letter is a wildcard
    expect(foldedEquals("write_file", "write_fil")).toBe(false)
    expect(foldedStartsWith("WRITE_all", "write_")).toBe(true)
  })
})
