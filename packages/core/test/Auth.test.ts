import { Fixtures } from "@mcpctl/testing"
import { describe, expect, it } from "@effect/vitest"
import { auth, UnauthorizedError } from "@modelcontextprotocol/client"
import * as Effect from "effect/Effect"
import { createHash } from "node:crypto"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import * as path from "node:path"
import { isAuthError } from "../src/transport/TransportErrors.js"
import {
  logout,
  makeProvider,
  openerCommand,
  parseCallback,
  signIn
} from "../src/auth/Auth.js"
import type { OAuthOptions, ResolvedServer } from "../src/config/ServerConfig.js"
import { isNeedsAuthCached, markNeedsAuth, needsAuthKey } from "../src/pool/NeedsAuthCache.js"
import { readStored, storeFile } from "../src/auth/TokenStore.js"
import { leftovers, mode, tmpHome } from "./support/files.js"

describe("Auth helpers", () => {
  it("builds opener command lines", () => {
    expect(openerCommand("http://u", "node /x/follow.js --quiet")).toEqual(["node", "/x/follow.js", "--quiet", "http://u"])
    expect(openerCommand("http://u", undefined, "linux")).toEqual(["xdg-open", "http://u"])
    expect(openerCommand("http://u", "  ", "darwin")).toEqual(["open", "http://u"])
  })

  it("parses callbacks", () => {
    expect(parseCallback("/callback?code=c&state=s")).toEqual({ _tag: "Code", code: "c", state: "s" })
    expect(parseCallback("/callback?error=access_denied&error_description=no")).toEqual({
      _tag: "Error",
      error: "access_denied",
      description: "no"
    })
    expect(parseCallback("/favicon.ico")).toBeUndefined()
    expect(isAuthError(new UnauthorizedError())).toBe(true)
    expect(isAuthError(new Error("x"))).toBe(false)
  })
})

// ---------------------------------------------------------------------------------------------
// A tiny OAuth authorization server + protected resource on 127.0.0.1
// ---------------------------------------------------------------------------------------------

interface FakeAs {
  readonly base: string
  readonly mcpUrl: string
  readonly counts: Record<string, number>
  /** Make /authorize answer with error=access_denied. */
  deny: boolean
  /** Make /token fail with a 500 whose body quotes the current tokens. */
  breakToken: boolean
  readonly issued: Array<string>
  readonly close: () => Promise<void>
}

const startFakeAs = (): Promise<FakeAs> =>
  new Promise((resolve) => {
    const counts: Record<string, number> = {}
    const challenges = new Map<string, { challenge: string; redirect: string }>()
    const refreshTokens = new Set<string>()
    let n = 0
    const state: { base: string; deny: boolean; breakToken: boolean; issued: Array<string> } = {
      base: "",
      deny: false,
      breakToken: false,
      issued: []
    }
    const body = (req: http.IncomingMessage) =>
      new Promise<string>((r) => {
        let s = ""
        req.on("data", (c) => (s += c))
        req.on("end", () => r(s))
      })
    const json = (res: http.ServerResponse, status: number, value: unknown) =>
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value))
    const server = http.createServer(async (req, res) => {
      const url = new URL(req.url ?? "/", state.base)
      const key = url.pathname.startsWith("/.well-known/oauth-protected-resource") ? "prm" : url.pathname
      counts[key] = (counts[key] ?? 0) + 1
      if (key === "prm") {
        return json(res, 200, { resource: `${state.base}/mcp`, authorization_servers: [state.base], scopes_supported: ["mcp"] })
      }
      if (url.pathname === "/.well-known/oauth-authorization-server") {
        return json(res, 200, {
          issuer: state.base,
          authorization_endpoint: `${state.base}/authorize`,
          token_endpoint: `${state.base}/token`,
          registration_endpoint: `${state.base}/register`,
          response_types_supported: ["code"],
          grant_types_supported: ["authorization_code", "refresh_token"],
          code_challenge_methods_supported: ["S256"],
          token_endpoint_auth_methods_supported: ["none"]
        })
      }
      if (url.pathname === "/mcp") {
        res.writeHead(401, {
          "www-authenticate": `Bearer resource_metadata="${state.base}/.well-known/oauth-protected-resource/mcp", scope="mcp"`
        }).end()
        return
      }
      if (url.pathname === "/register") {
        const meta = JSON.parse(await body(req))
        return json(res, 201, { ...meta, client_id: `client-${counts["/register"]}`, client_id_issued_at: 1 })
      }
      if (url.pathname === "/authorize") {
        const redirect = url.searchParams.get("redirect_uri")!
        const target = new URL(redirect)
        if (state.deny) {
          target.searchParams.set("error", "access_denied")
          target.searchParams.set("error_description", "the user said no")
        } else {
          const code = `code-${++n}`
          challenges.set(code, { challenge: url.searchParams.get("code_challenge")!, redirect })
          target.searchParams.set("code", code)
        }
        const st = url.searchParams.get("state")
        if (st) target.searchParams.set("state", st)
        res.writeHead(302, { location: target.toString() }).end()
        return
      }
      if (url.pathname === "/token") {
        const form = new URLSearchParams(await body(req))
        const grant = form.get("grant_type")
        counts[`token:${grant}`] = (counts[`token:${grant}`] ?? 0) + 1
        if (state.breakToken) {
          return res.writeHead(500).end(`internal error; last tokens were ${state.issued.join(" ")}`)
        }
        const issue = () => {
          const access = `AT-${++n}-s3cr3t`
          const refresh = `RT-${n}-s3cr3t`
          refreshTokens.add(refresh)
          state.issued.push(access, refresh)
          return json(res, 200, { access_token: access, token_type: "Bearer", expires_in: 1, refresh_token: refresh })
        }
        if (grant === "authorization_code") {
          const entry = challenges.get(form.get("code") ?? "")
          const verifier = form.get("code_verifier") ?? ""
          const hashed = createHash("sha256").update(verifier).digest("base64url")
          if (!entry || entry.challenge !== hashed || entry.redirect !== form.get("redirect_uri")) {
            return json(res, 400, { error: "invalid_grant", error_description: "bad code or verifier" })
          }
          challenges.delete(form.get("code")!)
          return issue()
        }
        if (grant === "refresh_token" && refreshTokens.has(form.get("refresh_token") ?? "")) {
          refreshTokens.delete(form.get("refresh_token")!)
          return issue()
        }
        return json(res, 400, { error: "invalid_grant" })
      }
      res.writeHead(404).end()
    })
    server.listen(0, "127.0.0.1", () => {
      state.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      const fake: FakeAs = {
        get base() {
          return state.base
        },
        get mcpUrl() {
          return `${state.base}/mcp`
        },
        counts,
        get deny() {
          return state.deny
        },
        set deny(v) {
          state.deny = v
        },
        get breakToken() {
          return state.breakToken
        },
        set breakToken(v) {
          state.breakToken = v
        },
        issued: state.issued,
        close: () =>
          new Promise((r) => {
            server.close(() => r())
            server.closeAllConnections()
          })
      }
      resolve(fake)
    })
  })

const fakeAs = Effect.acquireRelease(Effect.promise(startFakeAs), (as) => Effect.promise(as.close))

const remoteServer = (url: string, oauth?: OAuthOptions): ResolvedServer =>
  Fixtures.server("api", { type: "http", url, ...(oauth ? { oauth } : {}) })

/** Follows the authorization redirect to the loopback callback, like a browser would. */
const follow = (opened: Array<string>) => (url: string) =>
  Effect.promise(async () => {
    opened.push(url)
    const res = await fetch(url, { redirect: "follow" })
    await res.text()
  })

const quiet = () => undefined

describe("signIn against a local authorization server", () => {
  it.scopedLive("runs discovery, DCR, PKCE, the loopback callback; stores 0600 tokens; then refreshes without a browser", () =>
    Effect.gen(function*() {
      const as = yield* fakeAs
      const home = yield* tmpHome()
      const server = remoteServer(as.mcpUrl)
      yield* markNeedsAuth(home, needsAuthKey(server))
      const opened: Array<string> = []
      const lines: Array<string> = []
      yield* signIn(server, { home, openUrl: follow(opened), print: (l) => lines.push(l), timeoutMs: 10_000 })

      expect(opened).toHaveLength(1)
      expect(lines.join("\n")).toContain(opened[0])
      expect(as.counts["/register"]).toBe(1)
      expect(as.counts["/authorize"]).toBe(1)
      expect(as.counts["token:authorization_code"]).toBe(1)
      const file = storeFile(home, as.mcpUrl)
      expect(yield* mode(file)).toBe(0o600)
      const stored = yield* Effect.promise(() => readStored(home, as.mcpUrl))
      expect(stored.tokens?.access_token).toMatch(/^AT-/)
      expect(stored.tokens?.refresh_token).toMatch(/^RT-/)
      expect(stored.clientInformation?.client_id).toBe("client-1")
      expect(yield* isNeedsAuthCached(home, needsAuthKey(server))).toBe(false)
      expect(lines.join("\n")).not.toContain(stored.tokens!.access_token)

      // The access token expired (expires_in: 1); the transport's auth() refreshes, no browser.
      const provider = makeProvider(home, server)!
      const result = yield* Effect.promise(() => auth(provider, { serverUrl: as.mcpUrl }))
      expect(result).toBe("AUTHORIZED")
      expect(as.counts["token:refresh_token"]).toBe(1)
      expect(as.counts["/authorize"]).toBe(1)
      const refreshed = yield* Effect.promise(() => readStored(home, as.mcpUrl))
      expect(refreshed.tokens?.access_token).not.toBe(stored.tokens?.access_token)
      expect(provider.needsAuth).toBe(false)

      // `mcpctl auth` again: the refresh token stands in for the browser.
      yield* signIn(server, { home, openUrl: follow(opened), print: quiet, timeoutMs: 10_000 })
      expect(opened).toHaveLength(1)
      expect(as.counts["/authorize"]).toBe(1)
      expect(as.counts["token:refresh_token"]).toBe(2)

      // --force: a new browser sign-in; the registration was for another loopback port, so it re-registers.
      yield* signIn(server, { home, openUrl: follow(opened), print: quiet, timeoutMs: 10_000, force: true })
      expect(as.counts["/authorize"]).toBe(2)
      expect(as.counts["/register"]).toBe(2)
      expect(yield* leftovers(path.join(home, "oauth"))).toEqual([])

      expect(yield* logout(home, server)).toBe(true)
      expect(yield* logout(home, server)).toBe(false)
      expect((yield* Effect.promise(() => readStored(home, as.mcpUrl))).tokens).toBeUndefined()
    }))

  it.scopedLive("a non-interactive provider without tokens asks nothing of the network and flags needs-auth", () =>
    Effect.gen(function*() {
      const as = yield* fakeAs
      const home = yield* tmpHome()
      const provider = makeProvider(home, remoteServer(as.mcpUrl))!
      const error = yield* Effect.flip(Effect.tryPromise({ try: () => auth(provider, { serverUrl: as.mcpUrl }), catch: (e) => e }))
      expect(error).toBeInstanceOf(UnauthorizedError)
      expect(isAuthError(error)).toBe(true)
      expect(provider.needsAuth).toBe(true)
      expect(Object.keys(as.counts)).toEqual([])
    }))

  it.scopedLive("an error= callback fails with its description", () =>
    Effect.gen(function*() {
      const as = yield* fakeAs
      as.deny = true
      const home = yield* tmpHome()
      const error = yield* Effect.flip(
        signIn(remoteServer(as.mcpUrl), { home, openUrl: follow([]), print: quiet, timeoutMs: 10_000 })
      )
      expect(error._tag).toBe("ServerUnavailable")
      expect(error.message).toContain("the user said no")
    }))

  it.scopedLive("the wait for the browser is bounded", () =>
    Effect.gen(function*() {
      const as = yield* fakeAs
      const home = yield* tmpHome()
      const error = yield* Effect.flip(
        signIn(remoteServer(as.mcpUrl), { home, openUrl: () => Effect.void, print: quiet, timeoutMs: 200 })
      )
      expect(error.message).toContain("no answer from the browser")
    }))

  it.scopedLive("errors never carry a token, even when the server quotes them", () =>
    Effect.gen(function*() {
      const as = yield* fakeAs
      const home = yield* tmpHome()
      const server = remoteServer(as.mcpUrl)
      yield* signIn(server, { home, openUrl: follow([]), print: quiet, timeoutMs: 10_000 })
      as.breakToken = true
      const error = yield* Effect.flip(
        signIn(server, { home, openUrl: follow([]), print: quiet, timeoutMs: 10_000, force: false })
      )
      expect(as.issued.length).toBeGreaterThan(0)
      for (const token of as.issued) {
        expect(error.message).not.toContain(token)
        expect(JSON.stringify(error)).not.toContain(token)
      }
    }))

  it.effect("stdio servers are a configuration error", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(
        signIn(
          Fixtures.server("fs", { command: "x" }),
          { home: "/nonexistent", print: quiet }
        )
      )
      expect(error._tag).toBe("ConfigError")
    }))
})
