/**
 * The authorization rules of MCP 2026-07-28 against a real authorization server on 127.0.0.1
 * (support/oauthServer.ts): issuer checks (RFC 9207 `iss`, RFC 8414 metadata `issuer`),
 * credentials per issuer (a server that moves signs in again at its new authorization server; old
 * store entries keep working), refresh ahead of expiry and `offline_access` (SEP-2207), and the
 * `oauth` modes DPoP, jwt-bearer (workload identity federation) and cross-app access.
 */
// @ts-nocheck

import { Fixtures } from "@mcpctl/testing"
import { describe, expect, it } from "@effect/vitest"
import { auth, UnauthorizedError, withDpopFromProvider } from "@modelcontextprotocol/client"
import * as Effect from "effect/Effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { makeProvider, signIn } from "../src/internal/auth/OAuthFlow.js"
import { ecThumbprint } from "../src/internal/auth/Dpop.js"
import { grantProvider, JWT_BEARER_GRANT, readSecret } from "../src/internal/auth/Grants.js"
import { dpopKeyFile, forIssuer, readStored, storeFile } from "../src/internal/auth/TokenStore.js"
import type { OAuthOptions, ResolvedServer } from "../src/config/ServerConfig.js"
import { dropDiscoveryOnRejectedToken } from "../src/internal/transport/Http.js"
import { McpctlOAuthProvider } from "../src/internal/auth/TokenStore.js"
import { mode, tmpHome } from "./support/files.js"
import { decodeJwt, fakeAs, TOKEN_EXCHANGE } from "./support/oauthServer.js"

const remoteServer = (url: string, oauth?: OAuthOptions): ResolvedServer =>
  Fixtures.server("api", { type: "http", url, ...(oauth ? { oauth } : {}) })

/** Follows the authorization redirect to the loopback callback, like a browser would. */
const follow = (url: string) =>
  Effect.promise(async () => {
    const res = await fetch(url, { redirect: "follow" })
    await res.text()
  })

const quiet = () => undefined
const browserSignIn = (server: ResolvedServer, home: string, force = false) =>
  signIn(server, { home, openUrl: follow, print: quiet, timeoutMs: 10_000, force })

describe("issuer checks", () => {
  it.scopedLive("a wrong iss on the authorization response is refused before the code is exchanged, naming both issuers", () =>
    Effect.gen(function*() {
      const as = yield* fakeAs({ issSupported: true, issInRedirect: () => "https://evil.example/\u001b[31mx" })
      const home = yield* tmpHome()
      const error = yield* Effect.flip(browserSignIn(remoteServer(as.mcpUrl), home))
      expect(error.message).toContain("OAuth sign-in to api refused")
      expect(error.message).toContain(`expected "${as.base}"`)
      expect(error.message).toContain("https://evil.example/")
      expect(error.message).not.toContain("\u001b")
      expect(as.counts["/authorize"]).toBe(1)
      expect(as.counts["token:authorization_code"]).toBeUndefined()
      expect((yield* Effect.promise(() => readStored(home, as.mcpUrl))).tokens).toBeUndefined()
    }))

  it.scopedLive("iss is compared as an exact string: the issuer with a trailing slash is refused", () =>
    Effect.gen(function*() {
      const as = yield* fakeAs({ issSupported: true, issInRedirect: (issuer) => `${issuer}/` })
      const home = yield* tmpHome()
      const error = yield* Effect.flip(browserSignIn(remoteServer(as.mcpUrl), home))
      expect(error.message).toContain(`came back with issuer "${as.base}/"`)
      expect(as.counts["token:authorization_code"]).toBeUndefined()
    }))

  it.scopedLive("the right iss is accepted", () =>
    Effect.gen(function*() {
      const as = yield* fakeAs({ issSupported: true })
      const home = yield* tmpHome()
      yield* browserSignIn(remoteServer(as.mcpUrl), home)
      expect(as.counts["token:authorization_code"]).toBe(1)
    }))

  it.scopedLive("metadata whose issuer is not the authorization server it was fetched for is not used", () =>
    Effect.gen(function*() {
      const as = yield* fakeAs({ issuer: "https://attacker.example" })
      const home = yield* tmpHome()
      const error = yield* Effect.flip(browserSignIn(remoteServer(as.mcpUrl), home))
      expect(error.message).toContain("metadata names issuer \"https://attacker.example\"")
      expect(error.message).toContain(as.base)
      expect(as.counts["/.well-known/oauth-authorization-server"]).toBeGreaterThan(0)
      expect(as.counts["/register"]).toBeUndefined()
      expect(as.counts["/authorize"]).toBeUndefined()
    }))
})

describe("credentials per issuer", () => {
  it.scopedLive("registration says application_type native, and offline_access is asked for where the AS offers it", () =>
    Effect.gen(function*() {
      const as = yield* fakeAs({ offlineAccess: true })
      const home = yield* tmpHome()
      yield* browserSignIn(remoteServer(as.mcpUrl), home)
      const stored = yield* Effect.promise(() => readStored(home, as.mcpUrl))
      expect((stored.clientInformation as { application_type?: string }).application_type).toBe("native")
      expect(as.authorizeRequests[0]!.get("scope")?.split(" ")).toEqual(["mcp", "offline_access"])
      const plain = yield* fakeAs({ offlineAccess: false })
      yield* browserSignIn(remoteServer(plain.mcpUrl), home)
      expect(plain.authorizeRequests[0]!.get("scope")).toBe("mcp")
    }))

  it.scopedLive("a server that moves to another authorization server registers there; the old client is not replayed", () =>
    Effect.gen(function*() {
      const as1 = yield* fakeAs()
      const as2 = yield* fakeAs()
      const home = yield* tmpHome()
      const server = remoteServer(as1.mcpUrl)
      yield* browserSignIn(server, home)
      const old = as1.registered[0]!
      as1.options.authorizationServers = [as2.base]
      yield* browserSignIn(server, home)
      expect(as2.registered).toHaveLength(1)
      expect(as2.counts["token:refresh_token"]).toBeUndefined()
      for (const q of as2.authorizeRequests) expect(q.get("client_id")).not.toBe(old)
      for (const t of as2.tokenRequests) expect(t.form.get("client_id")).not.toBe(old)
      const stored = yield* Effect.promise(() => readStored(home, as1.mcpUrl))
      expect(stored.issuers?.[as1.base]?.clientInformation?.client_id).toBe(old)
      expect(stored.issuers?.[as2.base]?.clientInformation?.client_id).toBe(as2.registered[0])
      expect(stored.tokens?.issuer).toBe(as2.base)
    }))

  it.scopedLive("a 401 to a request that carried a token drops the cached discovery; one without a token does not", () =>
    Effect.gen(function*() {
      const as = yield* fakeAs()
      const home = yield* tmpHome()
      const provider = new McpctlOAuthProvider({ home, serverName: "api", serverUrl: as.mcpUrl, onRedirect: async () => {} })
      const f = dropDiscoveryOnRejectedToken(provider, fetch)
      provider.saveDiscoveryState({ authorizationServerUrl: as.base })
      yield* Effect.promise(() => f(as.mcpUrl, { method: "POST" }))
      expect(yield* Effect.promise(() => provider.discoveryState())).toBeDefined()
      yield* Effect.promise(() => f(as.mcpUrl, { method: "POST", headers: { authorization: "Bearer AT-old" } }))
      expect(yield* Effect.promise(() => provider.discoveryState())).toBeUndefined()
    }))

  it.scopedLive("an entry stored before issuers were recorded keeps working, and is filed under its issuer", () =>
    Effect.gen(function*() {
      const as = yield* fakeAs()
      const home = yield* tmpHome()
      const server = remoteServer(as.mcpUrl)
      yield* browserSignIn(server, home)
      const file = storeFile(home, as.mcpUrl)
      const current = JSON.parse(yield* Effect.promise(() => fs.readFile(file, "utf8")))
      const { issuer: _t, ...tokens } = current.tokens
      const { issuer: _c, ...clientInformation } = current.clientInformation
      const legacy = { serverUrl: current.serverUrl, tokens, tokensSavedAt: current.tokensSavedAt, clientInformation }
      yield* Effect.promise(() => fs.writeFile(file, JSON.stringify(legacy)))
      const before = yield* Effect.promise(() => readStored(home, as.mcpUrl))
      expect(forIssuer(before, as.base, "tokens")?.refresh_token).toBe(tokens.refresh_token)
      expect(forIssuer({ ...before, tokens: { ...tokens, issuer: "https://other.example" } }, as.base, "tokens")).toBeUndefined()

      expect(yield* Effect.promise(() => auth(makeProvider(home, server)!, { serverUrl: as.mcpUrl }))).toBe("AUTHORIZED")
      const refresh = as.tokenRequests.at(-1)!.form
      expect(refresh.get("grant_type")).toBe("refresh_token")
      expect(refresh.get("client_id")).toBe(clientInformation.client_id)
      const after = yield* Effect.promise(() => readStored(home, as.mcpUrl))
      expect(after.issuers?.[as.base]?.clientInformation?.client_id).toBe(clientInformation.client_id)
      expect(after.issuers?.[as.base]?.tokens?.access_token).toBe(after.tokens?.access_token)
      expect(as.registered).toHaveLength(1)
    }))
})

describe("refresh (SEP-2207)", () => {
  it.scopedLive("a token about to expire is refreshed before the request; a refused refresh asks for sign-in, saying why", () =>
    Effect.gen(function*() {
      const as = yield* fakeAs({ expiresIn: 3600 })
      const home = yield* tmpHome()
      const server = remoteServer(as.mcpUrl)
      yield* browserSignIn(server, home)
      const fresh = (yield* Effect.promise(() => readStored(home, as.mcpUrl))).tokens!
      expect((yield* Effect.promise(() => makeProvider(home, server)!.tokens()))?.access_token).toBe(fresh.access_token)
      expect(as.counts["token:refresh_token"]).toBeUndefined()

      as.options.expiresIn = 30 // inside REFRESH_AHEAD_MS
      yield* Effect.promise(() => auth(makeProvider(home, server)!, { serverUrl: as.mcpUrl })) // store a 30 s token
      const expiring = (yield* Effect.promise(() => readStored(home, as.mcpUrl))).tokens!
      const presented = yield* Effect.promise(() => makeProvider(home, server)!.tokens())
      expect(presented?.access_token).not.toBe(expiring.access_token)
      expect(as.counts["token:refresh_token"]).toBe(2)

      as.options.refuseRefresh = true
      const provider = makeProvider(home, server)!
      expect(yield* Effect.promise(() => provider.tokens())).toBeUndefined()
      expect(provider.refreshRefused).toBe(true)
      const error = yield* Effect.flip(Effect.tryPromise({ try: () => provider.discoveryState(), catch: (e) => e }))
      expect(error).toBeInstanceOf(UnauthorizedError)
      expect((error as Error).message).toContain("refused the stored refresh token")
      expect((error as Error).message).toContain("mcpctl auth api")
    }))
})

describe("oauth modes", () => {
  it.scopedLive("dpop: proofs on token requests (nonce challenge retried once), a 0600 key reused across runs, DPoP on requests", () =>
    Effect.gen(function*() {
      const as = yield* fakeAs({ dpop: "nonce", expiresIn: 3600 })
      const home = yield* tmpHome()
      const server = remoteServer(as.mcpUrl, { dpop: true })
      yield* browserSignIn(server, home)
      const [challenged, answered] = as.tokenRequests.map((t) => decodeJwt(t.headers["dpop"] as string))
      expect(as.tokenRequests).toHaveLength(2)
      expect(challenged!.payload.nonce).toBeUndefined()
      expect(answered!.payload.nonce).toBe("nonce-1")
      expect(answered!.header.typ).toBe("dpop+jwt")
      expect(answered!.payload.htu).toBe(`${as.base}/token`)
      expect(answered!.payload.jti).not.toBe(challenged!.payload.jti)
      expect((yield* Effect.promise(() => readStored(home, as.mcpUrl))).tokens?.token_type).toBe("DPoP")
      const keyFile = dpopKeyFile(home, as.mcpUrl)
      expect(yield* mode(keyFile)).toBe(0o600)
      expect(path.dirname(keyFile)).toBe(path.dirname(storeFile(home, as.mcpUrl)))

      yield* browserSignIn(server, home, true) // a later run: the same key
      const again = decodeJwt(as.tokenRequests.at(-1)!.headers["dpop"] as string)
      expect(ecThumbprint(again.header.jwk)).toBe(ecThumbprint(answered!.header.jwk))

      const provider = makeProvider(home, server)!
      const tokens = (yield* Effect.promise(() => readStored(home, as.mcpUrl))).tokens!
      yield* Effect.promise(() => withDpopFromProvider(provider)(fetch)(as.mcpUrl, { method: "POST" }))
      const headers = as.resourceRequests.at(-1)!
      expect(headers.authorization).toMatch(/^DPoP AT-/)
      const proof = decodeJwt(headers["dpop"] as string)
      expect(proof.payload.htm).toBe("POST")
      expect(proof.payload.ath).toBeDefined()
      expect(ecThumbprint(proof.header.jwk)).toBe(ecThumbprint(answered!.header.jwk))
      expect(tokens.access_token).toBe(headers.authorization!.slice(5))
    }))

  it.scopedLive("jwt-bearer: the workload's JWT from its file is the grant, no registration", () =>
    Effect.gen(function*() {
      const as = yield* fakeAs()
      const home = yield* tmpHome()
      const assertionFile = path.join(home, "workload.jwt")
      yield* Effect.promise(() => fs.writeFile(assertionFile, "eyJ.workload.jwt\n", { mode: 0o600 }))
      const provider = grantProvider({ grantType: "jwt-bearer", clientId: "wl", assertionFile, scopes: ["mcp"] })!
      expect(yield* Effect.promise(() => auth(provider, { serverUrl: as.mcpUrl }))).toBe("AUTHORIZED")
      const form = as.tokenRequests[0]!.form
      expect(form.get("grant_type")).toBe(JWT_BEARER_GRANT)
      expect(form.get("assertion")).toBe("eyJ.workload.jwt")
      expect(form.get("client_id")).toBe("wl")
      expect(as.counts["/register"]).toBeUndefined()
      expect((yield* Effect.promise(async () => provider.tokens()))?.access_token).toMatch(/^AT-/)
      // `mcpctl auth` of such a server asks for a token once, no browser.
      const lines: Array<string> = []
      yield* signIn(remoteServer(as.mcpUrl, { grantType: "jwt-bearer", clientId: "wl", assertionFile }), {
        home,
        openUrl: () => Effect.die("no browser for jwt-bearer"),
        print: (l) => lines.push(l)
      })
      expect(as.tokenRequests).toHaveLength(2)
      expect(lines.join("\n")).toContain("jwt-bearer grant")
      const missing = yield* Effect.flip(signIn(remoteServer(as.mcpUrl, { grantType: "jwt-bearer" }), { home, print: quiet }))
      expect(missing._tag).toBe("ConfigError")
      expect(readSecret("x", undefined, "WL_TOKEN", { WL_TOKEN: " from-env " })).toBe("from-env")
      expect(() => readSecret("x", undefined, "WL_TOKEN", {})).toThrow(/WL_TOKEN is not set/)
    }))

  it.scopedLive("cross-app-access: the ID token is exchanged at the IdP for an ID-JAG, which buys the access token", () =>
    Effect.gen(function*() {
      const as = yield* fakeAs()
      const home = yield* tmpHome()
      const idTokenFile = path.join(home, "id.jwt")
      yield* Effect.promise(() => fs.writeFile(idTokenFile, "ID-TOKEN", { mode: 0o600 }))
      const provider = grantProvider({
        grantType: "cross-app-access",
        clientId: "xa",
        clientSecret: "xs",
        idpClientId: "idp-client",
        idpTokenEndpoint: `${as.base}/idp/token`,
        idTokenFile
      })!
      expect(yield* Effect.promise(() => auth(provider, { serverUrl: as.mcpUrl }))).toBe("AUTHORIZED")
      const exchange = as.idpRequests[0]!
      expect(exchange.get("grant_type")).toBe(TOKEN_EXCHANGE)
      expect(exchange.get("subject_token")).toBe("ID-TOKEN")
      expect(exchange.get("audience")).toBe(as.base)
      expect(exchange.get("resource")).toBe(as.mcpUrl)
      expect(exchange.get("client_id")).toBe("idp-client")
      const grant = as.tokenRequests[0]!
      expect(grant.form.get("grant_type")).toBe(JWT_BEARER_GRANT)
      expect(grant.form.get("assertion")).toBe("ID-JAG-for-ID-TOKEN")
      expect(grant.headers.authorization).toBe(`Basic ${Buffer.from("xa:xs").toString("base64")}`)
    }))
})
