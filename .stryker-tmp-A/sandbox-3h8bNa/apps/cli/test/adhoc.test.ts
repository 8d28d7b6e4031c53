// @ts-nocheck
import { describe, expect, it } from "@effect/vitest"
import * as Option from "effect/Option"
import { adhocServers, splitCommandLine } from "../src/Host.js"

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
