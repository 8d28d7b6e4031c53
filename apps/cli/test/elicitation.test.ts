import { describe, expect, it } from "@effect/vitest"
import { acceptWithDefaults, parseAnswer } from "../src/Elicitation.js"
import { adhocServers, splitCommandLine } from "../src/Host.js"
import * as Option from "effect/Option"

describe("elicitation answers", () => {
  it("--yes accepts with every default, and declines when a required field has none", () => {
    const schema = {
      properties: { name: { type: "string", default: "Ada" }, age: { type: "integer", default: 30 }, note: { type: "string" } },
      required: ["name"]
    }
    expect(acceptWithDefaults(schema)).toEqual({ action: "accept", content: { name: "Ada", age: 30 } })
    expect(acceptWithDefaults({ ...schema, required: ["note"] })).toEqual({ action: "decline" })
  })

  it("typed terminal answers: numbers, booleans, enum by value or number", () => {
    expect(parseAnswer({ type: "integer" }, "3")).toBe(3)
    expect(parseAnswer({ type: "integer" }, "3.5")).toBeUndefined()
    expect(parseAnswer({ type: "number", minimum: 0 }, "-1")).toBeUndefined()
    expect(parseAnswer({ type: "boolean" }, "y")).toBe(true)
    expect(parseAnswer({ type: "string", enum: ["a", "b"] }, "2")).toBe("b")
    expect(parseAnswer({ type: "string", enum: ["a", "b"] }, "c")).toBeUndefined()
  })
})

describe("ad-hoc servers", () => {
  const none = Option.none()
  it("--url with --transport and --header becomes one remote entry", () => {
    expect(adhocServers({
      json: false, config: [], cwd: none,
      url: Option.some("http://x/mcp"), transport: Option.some("sse"), header: ["A: b", "C:d:e"], stdio: none
    })).toEqual([{ name: "adhoc", config: { url: "http://x/mcp", type: "sse", headers: { A: "b", C: "d:e" } } }])
  })
  it("--stdio splits like a shell; conflicting flags are usage errors", () => {
    expect(splitCommandLine(`node "my server.js" --x 'a b'`)).toEqual(["node", "my server.js", "--x", "a b"])
    const both = adhocServers({ json: false, config: [], cwd: none, url: Option.some("http://x"), stdio: Option.some("node") })
    expect(both).toHaveProperty("_tag", "UsageError")
  })
})
