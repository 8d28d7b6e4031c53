// @ts-nocheck
// The CLI's log line format (Logs.ts): one warning format, `mcpctl: warning: …`.
import { describe, expect, it } from "@effect/vitest"
import * as LogLevel from "effect/LogLevel"
import { formatLine, levelWord } from "../src/Logs.js"

describe("log lines", () => {
  it("mcpctl: LEVEL: MESSAGE, annotations after it", () => {
    expect(formatLine(LogLevel.Warning, "could not write the cache", [])).toBe("mcpctl: warning: could not write the cache")
    expect(formatLine(LogLevel.Debug, ["connected", "in 3 ms"], [["server", "fs"]])).toBe("mcpctl: debug: connected in 3 ms (server: fs)")
    expect(levelWord(LogLevel.Error)).toBe("error")
    expect(levelWord(LogLevel.Fatal)).toBe("error")
    expect(levelWord(LogLevel.Info)).toBe("info")
  })

  it("control characters a server put into a message are neutralised", () => {
    expect(formatLine(LogLevel.Warning, "bad \x1b[31mred\x1b[0m", [])).not.toContain("\x1b")
  })
})
