// @ts-nocheck
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import {
  expiresSoon,
  forIssuer,
  invalidated,
  McpctlOAuthProvider,
  parseStored,
  readStored,
  secretsOf,
  serverKey,
  storeFile,
  updateStored,
  withIssuerEntry
} from "../src/internal/auth/TokenStore.js"
import { redactSecrets } from "../src/internal/config/Redact.js"
import { mode, tmpHome } from "./support/files.js"

describe("TokenStore", () => {
  it("normalizes server URLs to origin + path", () => {
    expect(serverKey("https://X.dev:443/mcp/?a=1#f")).toBe("https://x.dev/mcp")
    expect(serverKey("https://x.dev/")).toBe("https://x.dev")
    expect(serverKey("http://127.0.0.1:8080/mcp")).toBe("http://127.0.0.1:8080/mcp")
    expect(storeFile("/h", "https://x.dev/mcp")).toBe(storeFile("/h", "https://x.dev/mcp/"))
    expect(storeFile("/h", "https://x.dev/a")).not.toBe(storeFile("/h", "https://x.dev/b"))
  })

  it.effect("writes 0600 files in a 0700 directory and tolerates a corrupt file", () =>
    Effect.gen(function*() {
      const home = yield* tmpHome()
      const url = "https://x.dev/mcp"
      yield* Effect.promise(() =>
        updateStored(home, url, (s) => ({ ...s, tokens: { access_token: "AT", token_type: "Bearer" } }))
      )
      expect(yield* mode(storeFile(home, url))).toBe(0o600)
      expect(yield* mode(path.join(home, "oauth"))).toBe(0o700)
      yield* Effect.promise(() => fs.writeFile(storeFile(home, url), "garbage"))
      expect(yield* Effect.promise(() => readStored(home, url))).toEqual({ serverUrl: "https://x.dev/mcp" })
    }))

  it("redacts known secrets and token-shaped fields", () => {
    const text = `bad: {"access_token":"abc123","refresh_token":"r-9"} Bearer xyz.987 secretvalue`
    const out = redactSecrets(text, ["secretvalue"])
    expect(out).not.toContain("abc123")
    expect(out).not.toContain("r-9")
    expect(out).not.toContain("xyz.987")
    expect(out).not.toContain("secretvalue")
  })
})

describe("entries per issuer (pure)", () => {
  const tokens = (t: string, issuer?: string) => ({ access_token: t, token_type: "Bearer", ...(issuer ? { issuer } : {}) })
  const a = "https://as-a.example", b = "https://as-b.example"
  const both = withIssuerEntry(
    withIssuerEntry({ serverUrl: "https://x.dev/mcp" }, a, { tokens: tokens("AT-a", a), clientInformation: { client_id: "ca", issuer: a } }),
    b,
    { tokens: tokens("AT-b", b), clientInformation: { client_id: "cb", issuer: b } }
  )

  it("keeps each issuer's client and tokens, the last saved on top, and survives a round trip through the file format", () => {
    expect(both.tokens?.access_token).toBe("AT-b")
    expect(forIssuer(both, a, "clientInformation")?.client_id).toBe("ca")
    expect(forIssuer(both, b, "tokens")?.access_token).toBe("AT-b")
    expect(forIssuer(both, "https://other.example", "tokens")).toBeUndefined()
    expect(parseStored(JSON.parse(JSON.stringify(both)), both.serverUrl)).toEqual(both)
    expect([...secretsOf(both)].sort()).toEqual(["AT-a", "AT-b"])
  })

  it("invalidating drops the current issuer's tokens or client, everywhere they are kept, and nothing of the other issuer", () => {
    const noTokens = invalidated(both, "tokens")
    expect(noTokens.tokens).toBeUndefined()
    expect(forIssuer(noTokens, b, "tokens")).toBeUndefined()
    expect(forIssuer(noTokens, b, "clientInformation")?.client_id).toBe("cb")
    expect(forIssuer(noTokens, a, "tokens")?.access_token).toBe("AT-a")
    const noClient = invalidated(both, "client")
    expect(forIssuer(noClient, b, "clientInformation")).toBeUndefined()
    expect(forIssuer(noClient, b, "tokens")?.access_token).toBe("AT-b")
    expect(invalidated(both, "all").issuers).toBeUndefined()
  })

  it("tells tokens about to expire, and never guesses for unknown lifetimes", () => {
    const saved = { tokens: { ...tokens("t"), expires_in: 120 }, tokensSavedAt: 1_000_000 }
    expect(expiresSoon(saved, 1_000_000 + 59_000)).toBe(false)
    expect(expiresSoon(saved, 1_000_000 + 60_000)).toBe(true)
    expect(expiresSoon({ tokens: tokens("t"), tokensSavedAt: 0 }, Number.MAX_SAFE_INTEGER)).toBe(false)
  })
})

describe("McpctlOAuthProvider", () => {
  it.effect("pre-registered clients come from settings and are never overwritten", () =>
    Effect.gen(function*() {
      const home = yield* tmpHome()
      const provider = new McpctlOAuthProvider({
        home,
        serverName: "api",
        serverUrl: "https://x.dev/mcp",
        oauth: { clientId: "pre", clientSecret: "shh", scopes: ["a", "b"], callbackPort: 4567 }
      })
      expect(yield* Effect.promise(() => provider.clientInformation())).toEqual({ client_id: "pre", client_secret: "shh" })
      yield* Effect.promise(() => provider.saveClientInformation({ client_id: "pre", issuer: "https://as" } as never))
      expect((yield* Effect.promise(() => readStored(home, "https://x.dev/mcp"))).clientInformation).toBeUndefined()
      expect(provider.redirectUrl).toBe("http://127.0.0.1:4567/callback")
      expect(provider.clientMetadata.scope).toBe("a b")
      expect(provider.clientMetadata.token_endpoint_auth_method).toBe("client_secret_basic")
    }))
})
