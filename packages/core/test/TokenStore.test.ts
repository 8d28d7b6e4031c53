import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { McpctlOAuthProvider, readStored, serverKey, storeFile, updateStored } from "../src/auth/TokenStore.js"
import { redactSecrets } from "../src/Redact.js"
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
