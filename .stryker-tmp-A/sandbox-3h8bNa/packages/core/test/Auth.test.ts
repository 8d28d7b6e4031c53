// @ts-nocheck
import { Fixtures } from "@mcpctl/testing"
import { describe, expect, it } from "@effect/vitest"
import { auth, UnauthorizedError } from "@modelcontextprotocol/client"
import * as Effect from "effect/Effect"
import * as path from "node:path"
import { isAuthError } from "../src/internal/transport/TransportErrors.js"
import {
  logout,
  makeProvider,
  openerCommand,
  parseCallback,
  signIn
} from "../src/internal/auth/OAuthFlow.js"
import type { OAuthOptions, ResolvedServer } from "../src/config/ServerConfig.js"
import { isNeedsAuthCached, markNeedsAuth, needsAuthKey } from "../src/internal/pool/NeedsAuthCache.js"
import { readStored, storeFile } from "../src/internal/auth/TokenStore.js"
import { leftovers, mode, tmpHome } from "./support/files.js"
import { fakeAs } from "./support/oauthServer.js"

describe("Auth helpers", () => {
  it("builds opener command lines", () => {
    expect(openerCommand("http://u", "node /x/follow.js --quiet")).toEqual(["node", "/x/follow.js", "--quiet", "http://u"])
    expect(openerCommand("http://u", undefined, "linux")).toEqual(["xdg-open", "http://u"])
    expect(openerCommand("http://u", "  ", "darwin")).toEqual(["open", "http://u"])
  })

  it("opens URLs without a shell on every platform: a URL with & stays one argument", () => {
    const url = "https://as.example/authorize?a=1&calc.exe&b=|whoami"
    for (const platform of ["win32", "darwin", "linux", "freebsd"] as const) {
      const line = openerCommand(url, undefined, platform)
      expect(line.at(-1)).toBe(url)
      expect(line.map((s) => s.toLowerCase())).not.toEqual(expect.arrayContaining(["cmd", "cmd.exe", "/c", "start", "sh", "-c", "powershell"]))
    }
    expect(openerCommand(url, undefined, "win32")).toEqual(["rundll32.exe", "url.dll,FileProtocolHandler", url])
  })

  it("parses callbacks", () => {
    expect(parseCallback("/callback?code=c&state=s")).toEqual({ _tag: "Code", code: "c", state: "s", iss: undefined })
    expect(parseCallback("/callback?code=c&iss=https%3A%2F%2Fas.example%2F")).toMatchObject({ iss: "https://as.example/" })
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
      const as = yield* fakeAs()
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
      expect(stored.clientInformation?.client_id).toMatch(/^client-1@/)
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
      const as = yield* fakeAs()
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
      const as = yield* fakeAs()
      as.options.deny = true
      const home = yield* tmpHome()
      const error = yield* Effect.flip(
        signIn(remoteServer(as.mcpUrl), { home, openUrl: follow([]), print: quiet, timeoutMs: 10_000 })
      )
      expect(error._tag).toBe("ServerUnavailable")
      expect(error.message).toContain("the user said no")
    }))

  it.scopedLive("the wait for the browser is bounded", () =>
    Effect.gen(function*() {
      const as = yield* fakeAs()
      const home = yield* tmpHome()
      const error = yield* Effect.flip(
        signIn(remoteServer(as.mcpUrl), { home, openUrl: () => Effect.void, print: quiet, timeoutMs: 200 })
      )
      expect(error.message).toContain("no answer from the browser")
    }))

  it.scopedLive("errors never carry a token, even when the server quotes them", () =>
    Effect.gen(function*() {
      const as = yield* fakeAs()
      const home = yield* tmpHome()
      const server = remoteServer(as.mcpUrl)
      yield* signIn(server, { home, openUrl: follow([]), print: quiet, timeoutMs: 10_000 })
      as.options.breakToken = true
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
