// @ts-nocheck
import { describe, expect, it } from "@effect/vitest"
import * as Fixtures from "@mcpctl/testing/Fixtures"
import { REDACTED, redactServerConfig, redactText, redactUrl } from "../src/internal/config/Redact.js"

describe("redactUrl", () => {
  it("hides user info and every query value, keeping keys, host and path", () => {
    expect(REDACTED).toBe("REDACTED")
    expect(redactUrl("https://u:p@h.example/mcp?key=abc&x=1")).toBe("https://REDACTED:REDACTED@h.example/mcp?key=REDACTED&x=REDACTED")
    expect(redactUrl("https://u@h.example/mcp")).toBe("https://REDACTED@h.example/mcp")
    expect(redactUrl("https://:p@h.example/mcp")).toBe("https://:REDACTED@h.example/mcp")
    expect(redactUrl("https://h.example/mcp?a=1&a=2&b=")).toBe("https://h.example/mcp?a=REDACTED&b=REDACTED")
  })

  it("leaves URLs without secrets, and non-URLs, as they are", () => {
    expect(redactUrl("https://h.example/mcp")).toBe("https://h.example/mcp")
    expect(redactUrl("ws://127.0.0.1:7777/mcp")).toBe("ws://127.0.0.1:7777/mcp")
    expect(redactUrl("not a url")).toBe("not a url")
    expect(redactUrl("")).toBe("")
  })
})

describe("redactText", () => {
  it("hides the secrets of every URL in a text, paths included", () => {
    expect(redactText("failed: https://u:p@h.example/mcp/tok?key=abc, retry")).toBe(
      "failed: https://h.example/REDACTED?key=REDACTED, retry"
    )
    expect(redactText("a http://h.example/one b ws://h.example:7777/two c wss://h.example/three?t=1")).toBe(
      "a http://h.example/REDACTED b ws://h.example:7777/REDACTED c wss://h.example/REDACTED?t=REDACTED"
    )
  })

  it("matches schemes in any case, and only at a word boundary", () => {
    expect(redactText("see HTTPS://H.example/secret")).toBe("see https://h.example/REDACTED")
    expect(redactText("xhttps://h.example/secret")).toBe("xhttps://h.example/secret")
    expect(redactText("ftp://h.example/secret")).toBe("ftp://h.example/secret")
  })

  it("keeps a URL without a path whole, still hiding user info and query values", () => {
    expect(redactText("at https://h.example/ now")).toBe("at https://h.example/ now")
    expect(redactText("at https://h.example now")).toBe("at https://h.example/ now")
    expect(redactText("at https://u:p@h.example/?k=v now")).toBe("at https://REDACTED:REDACTED@h.example/?k=REDACTED now")
  })

  it("leaves sentence punctuation and quotes after a URL outside it", () => {
    expect(redactText("(see https://h.example/tok).")).toBe("(see https://h.example/REDACTED).")
    expect(redactText("go to https://h.example/tok!? or https://h.example/x;")).toBe(
      "go to https://h.example/REDACTED!? or https://h.example/REDACTED;"
    )
    expect(redactText(`"https://h.example/tok" <https://h.example/t2> 'https://h.example/t3'`)).toBe(
      `"https://h.example/REDACTED" <https://h.example/REDACTED> 'https://h.example/REDACTED'`
    )
    expect(redactText("https://h.example/a:b]")).toBe("https://h.example/REDACTED]")
  })

  it("leaves text without URLs, and what only looks like one, unchanged", () => {
    expect(redactText("no urls here")).toBe("no urls here")
    expect(redactText("broken http://[::1 there")).toBe("broken http://[::1 there")
  })
})

describe("redactServerConfig", () => {
  it("hides env and header values, URL secrets and the OAuth client secret, keeping the shape", () => {
    const remote = Fixtures.server("api", {
      type: "http",
      url: "https://u:p@h.example/mcp?token=t0k3n",
      headers: { Authorization: "Bearer s3cr3t", "X-Id": "1" },
      oauth: { clientId: "id", clientSecret: "shh", scopes: ["a"] },
      timeout: 5
    })
    expect(redactServerConfig(remote)).toEqual({
      type: "http",
      url: "https://REDACTED:REDACTED@h.example/mcp?token=REDACTED",
      headers: { Authorization: "REDACTED", "X-Id": "REDACTED" },
      oauth: { clientId: "id", clientSecret: "REDACTED", scopes: ["a"] },
      timeout: 5
    })
    const stdio = Fixtures.server("fs", { command: "npx", args: ["-y", "pkg"], env: { TOKEN: "t0k3n" }, cwd: "/w" })
    expect(redactServerConfig(stdio)).toStrictEqual({ command: "npx", args: ["-y", "pkg"], env: { TOKEN: "REDACTED" }, cwd: "/w" })
  })

  it("shows the entry as written (${VAR} references), not the expanded secrets", () => {
    const server = Fixtures.server("fs", { command: "node", args: ["/home/u/x"], env: { T: "t0k3n" } }, {
      rawConfig: { command: "node", args: ["${ROOT}/x"], env: { T: "${TOKEN}" } }
    })
    // A value that is a reference shows it (where the secret comes from, not what it is).
    expect(redactServerConfig(server)).toEqual({ command: "node", args: ["${ROOT}/x"], env: { T: "${TOKEN}" } })
    const literal = Fixtures.server("fs", { command: "node", env: { T: "t0k3n" } }, { rawConfig: { command: "node", env: { T: "t0k3n" } } })
    expect(redactServerConfig(literal)).toEqual({ command: "node", env: { T: "REDACTED" } })
  })

  it("adds nothing an entry does not have, and keeps an OAuth block without a secret as is", () => {
    expect(redactServerConfig(Fixtures.server("fs", { command: "x" }))).toStrictEqual({ command: "x" })
    const oauth = { clientId: "id", scopes: ["a"] }
    expect(redactServerConfig(Fixtures.server("api", { url: "https://h.example/mcp", oauth }))).toEqual({
      url: "https://h.example/mcp",
      oauth
    })
  })
})
