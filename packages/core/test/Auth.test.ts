import { describe, expect, it } from "@effect/vitest"
import { auth, UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/TestClock"
import { createHash } from "node:crypto"
import * as fs from "node:fs/promises"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import { isAuthError } from "../src/transport/TransportErrors.js"
import {
  logout,
  makeProvider,
  openerCommand,
  parseCallback,
  signIn
} from "../src/auth/Auth.js"
import { McpctlOAuthProvider } from "../src/auth/TokenStore.js"
import { redactSecrets } from "../src/Redact.js"
import type { OAuthOptions, ResolvedServer } from "../src/config/ServerConfig.js"
import {
  clearNeedsAuth,
  isFresh,
  isNeedsAuthCached,
  markNeedsAuth,
  needsAuthKey,
  NEEDS_AUTH_TTL_MS,
  needsAuthCacheFile,
  parseEntries,
  pruneExpired
} from "../src/pool/NeedsAuthCache.js"
import {
  readStored,
  serverKey,
  storeFile,
  updateStored
} from "../src/auth/TokenStore.js"

const tmpHome = () => Effect.promise(() => fs.mkdtemp(path.join(os.tmpdir(), "mcpctl-auth-")))
const mode = (file: string) => Effect.promise(() => fs.stat(file)).pipe(Effect.map((s) => s.mode & 0o777))
const readJson = (file: string) => Effect.promise(async () => JSON.parse(await fs.readFile(file, "utf8")))
const leftovers = (dir: string) =>
  Effect.promise(() => fs.readdir(dir)).pipe(Effect.map((names) => names.filter((n) => /\.tmp$|\.lock$/.test(n))))

const MIN = 60 * 1000

describe("NeedsAuthCache (pure)", () => {
  it("parses leniently and judges freshness", () => {
    expect(parseEntries("nope")).toEqual({})
    expect(parseEntries([1])).toEqual({})
    expect(parseEntries({ a: { timestamp: 5 }, b: { timestamp: "x" }, c: null })).toEqual({ a: { timestamp: 5 } })
    const entries = { a: { timestamp: 0 }, b: { timestamp: 10 * MIN } }
    expect(isFresh(entries, "a", 14 * MIN)).toBe(true)
    expect(isFresh(entries, "a", 15 * MIN)).toBe(false)
    expect(isFresh(entries, "zzz", 0)).toBe(false)
    expect(pruneExpired(entries, 16 * MIN)).toEqual({ b: { timestamp: 10 * MIN } })
  })
})

describe("NeedsAuthCache (file)", () => {
  it.effect("stays fresh for 14 minutes and expires at 15", () =>
    Effect.gen(function*() {
      const home = yield* tmpHome()
      expect(yield* isNeedsAuthCached(home, "api")).toBe(false)
      yield* markNeedsAuth(home, "api")
      expect(yield* isNeedsAuthCached(home, "api")).toBe(true)
      yield* TestClock.adjust("14 minutes")
      expect(yield* isNeedsAuthCached(home, "api")).toBe(true)
      expect(yield* isNeedsAuthCached(home, "other")).toBe(false)
      yield* TestClock.adjust("1 minute")
      expect(yield* isNeedsAuthCached(home, "api")).toBe(false)
      expect(NEEDS_AUTH_TTL_MS).toBe(15 * MIN)
    }))

  it.effect("concurrent marks from many fibers all land; atomic writes leave no temp files; mode 0600", () =>
    Effect.gen(function*() {
      const home = yield* tmpHome()
      const names = Array.from({ length: 12 }, (_, i) => `s${i}`)
      yield* Effect.all(names.map((n) => markNeedsAuth(home, n)), { concurrency: "unbounded" })
      const file = needsAuthCacheFile(home)
      expect(Object.keys(yield* readJson(file)).sort()).toEqual([...names].sort())
      expect(yield* leftovers(home)).toEqual([])
      expect(yield* mode(file)).toBe(0o600)
      yield* Effect.all([clearNeedsAuth(home, "s0"), markNeedsAuth(home, "late")], { concurrency: 2 })
      const after = yield* readJson(file)
      expect(after.s0).toBeUndefined()
      expect(after.late).toBeDefined()
      expect(after.s1).toBeDefined()
    }))

  it.effect("a corrupt or oddly shaped file reads as empty and is repaired by the next write", () =>
    Effect.gen(function*() {
      const home = yield* tmpHome()
      const file = needsAuthCacheFile(home)
      yield* Effect.promise(() => fs.writeFile(file, "{ not json"))
      expect(yield* isNeedsAuthCached(home, "api")).toBe(false)
      yield* markNeedsAuth(home, "api")
      expect(yield* readJson(file)).toEqual({ api: { timestamp: 0 } })
      yield* Effect.promise(() => fs.writeFile(file, JSON.stringify({ api: "yes", ok: { timestamp: 0 } })))
      expect(yield* isNeedsAuthCached(home, "api")).toBe(false)
      expect(yield* isNeedsAuthCached(home, "ok")).toBe(true)
    }))

  it.effect("expired entries are pruned on write", () =>
    Effect.gen(function*() {
      const home = yield* tmpHome()
      yield* markNeedsAuth(home, "old")
      yield* TestClock.adjust("20 minutes")
      yield* markNeedsAuth(home, "new")
      expect(Object.keys(yield* readJson(needsAuthCacheFile(home)))).toEqual(["new"])
    }))
})

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

const remoteServer = (url: string, oauth?: OAuthOptions): ResolvedServer => ({
  name: "api",
  originalName: "api",
  scope: "user",
  source: "/tmp/settings.json",
  transport: "http",
  config: { type: "http", url, ...(oauth ? { oauth } : {}) }
})

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
          { name: "fs", originalName: "fs", scope: "user", source: "/s.json", transport: "stdio", config: { command: "x" } },
          { home: "/nonexistent", print: quiet }
        )
      )
      expect(error._tag).toBe("ConfigError")
    }))

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
