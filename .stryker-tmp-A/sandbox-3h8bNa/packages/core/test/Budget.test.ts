// @ts-nocheck
import { describe, expect, it } from "@effect/vitest"
import { fullText, outputBudget, savedHint } from "@mcpctl/core/internal/content/Budget"
import { defaultLimits, type ResolvedServer, type ServerConfig, type Settings } from "@mcpctl/core/ServerConfig"
import { DEFAULT_HINT } from "@mcpctl/core/internal/content/Shape"

const settings = (config: Partial<ServerConfig>): Settings => ({
  servers: [{
    name: "fs",
    originalName: "fs",
    scope: "flag",
    source: "/s.json",
    transport: "stdio",
    config: { command: "x", ...config } as ServerConfig
  } satisfies ResolvedServer],
  permissions: { allow: [], ask: [], deny: [] },
  limits: { ...defaultLimits, maxOutputTokens: 1_000 },
  home: "/h",
  projectDir: "/p",
  warnings: []
})

describe("outputBudget (pure)", () => {
  it("takes the tool's setting, then the server's hint, then the server's budget, then the global one", () => {
    const all = settings({ maxOutputTokens: 50, tools: { read: { maxOutputTokens: 10 } } })
    expect(outputBudget(all, "fs", "read", 999)).toEqual({ chars: 40, source: "tool", hint: "raise mcpServers.fs.tools.read.maxOutputTokens to see more" })
    expect(outputBudget(all, "fs", "write", 999)).toMatchObject({ chars: 999, source: "hint" })
    expect(outputBudget(all, "fs", "write")).toEqual({ chars: 200, source: "server", hint: "raise mcpServers.fs.maxOutputTokens to see more" })
    expect(outputBudget(settings({}), "fs", "write")).toEqual({ chars: 4_000, source: "global", hint: DEFAULT_HINT })
    expect(outputBudget(settings({}), "other", "write")).toMatchObject({ source: "global" })
  })

  it("keeps every text of a result, then its structured content, for --save-full", () => {
    expect(fullText({ content: [{ type: "text", text: "a" }, { type: "image", data: "x", mimeType: "image/png" }, { type: "text", text: "b" }] }))
      .toBe("a\n\nb")
    expect(fullText({ content: [], structuredContent: { k: 1 } })).toBe('{\n  "k": 1\n}')
    expect(fullText({ content: [{ type: "image", data: "x", mimeType: "image/png" }] })).toBeUndefined()
    expect(savedHint("/o/f.txt", 1234567)).toBe("the full text (1,234,567 characters) is in /o/f.txt")
  })
})
