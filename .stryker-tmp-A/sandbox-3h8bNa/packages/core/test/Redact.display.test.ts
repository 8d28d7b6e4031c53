// @ts-nocheck
// displayUrl: a server's URL in messages is the URL as written, with only what looks secret hidden.
import { describe, expect, it } from "@effect/vitest"
import { server } from "@mcpctl/testing/Fixtures"
import { displayUrl } from "@mcpctl/core/internal/config/Redact"

const shown = (url: string) => displayUrl(server("s", { url }))

describe("a server's URL in messages", () => {
  it("is the URL as written when nothing in it looks secret", () => {
    expect(shown("http://127.0.0.1:3998/mcp")).toBe("http://127.0.0.1:3998/mcp")
    expect(shown("https://api.example.com/v1/mcp?region=eu&x=1")).toBe("https://api.example.com/v1/mcp?region=eu&x=1")
    expect(shown("https://h.example/mcp?key=${TOKEN}")).toBe("https://h.example/mcp?key=${TOKEN}")
  })

  it("hides passwords, token-looking names, path segments and values, and values of secret-named parameters", () => {
    expect(shown("https://u:p@h.example/mcp")).toBe("https://u:REDACTED@h.example/mcp")
    expect(shown("https://ghp_abcdefghijklmnop1234@h.example/mcp")).toBe("https://REDACTED@h.example/mcp")
    expect(shown("https://h.example/mcp/3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c")).toBe("https://h.example/mcp/REDACTED")
    expect(shown("https://h.example/mcp?api_key=abc&region=eu")).toBe("https://h.example/mcp?api_key=REDACTED&region=eu")
    expect(shown("https://h.example/mcp?t=sk-abcdefghijklmnopqrstuvwx")).toBe("https://h.example/mcp?t=REDACTED")
    expect(shown("https://h.example/mcp?sig=abc#frag")).toBe("https://h.example/mcp?sig=REDACTED#frag")
  })

  it("a URL that does not parse shows only its scheme", () => {
    expect(shown("https://exa mple.com/mcp?key=x")).toBe("https://REDACTED")
  })
})
