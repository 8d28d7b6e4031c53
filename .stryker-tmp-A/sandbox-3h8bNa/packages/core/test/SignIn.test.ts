// @ts-nocheck
import { describe, expect, it } from "@effect/vitest"
import { ServerUnavailable } from "@mcpctl/core/Errors"
import * as Host from "@mcpctl/core/Host"
import { McpConfig } from "@mcpctl/core/McpConfig"
import { defaultLimits, type ResolvedServer, type ServerConfig } from "@mcpctl/core/ServerConfig"
import {
  authFailureServer,
  challengeKey,
  ChallengeRecordingProvider,
  MAX_SIGN_INS,
  RemoteAuth,
  signInWhereNeeded,
  withInlineAuth
} from "@mcpctl/core/SignIn"
import { McpctlOAuthProvider } from "@mcpctl/core/internal/auth/TokenStore"
import { InMemory } from "@mcpctl/testing"
import { ClientCredentialsProvider, CrossAppAccessProvider } from "@modelcontextprotocol/client"
import { JwtBearerProvider } from "../src/internal/auth/Grants.js"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

const remote = (name: string, config: Partial<ServerConfig> & { url: string }): ResolvedServer => ({
  name,
  originalName: name,
  scope: "flag",
  source: "/test/settings.json",
  transport: (config as { type?: "http" | "sse" | "ws" }).type ?? "auto",
  config: config as ServerConfig
})

const servers: ReadonlyArray<ResolvedServer> = [
  remote("web", { url: "http://127.0.0.1:1/mcp" }),
  remote("socket", { url: "ws://127.0.0.1:1/mcp", type: "ws" } as never),
  remote("robot", { url: "http://127.0.0.1:1/mcp", oauth: { grantType: "client_credentials", clientId: "c", clientSecret: "s" } } as never),
  remote("workload", { url: "http://127.0.0.1:1/mcp", oauth: { grantType: "jwt-bearer", clientId: "w", assertionEnv: "WL" } } as never),
  remote("enterprise", {
    url: "http://127.0.0.1:1/mcp",
    oauth: { grantType: "cross-app-access", clientId: "e", clientSecret: "s", idpClientId: "i", idpUrl: "https://idp.example" }
  } as never),
  {
    name: "local",
    originalName: "local",
    scope: "flag",
    source: "/test/settings.json",
    transport: "stdio",
    config: { command: "in-memory" }
  }
]

const config = Layer.succeed(McpConfig, {
  servers,
  permissions: { allow: [], ask: [], deny: [] },
  limits: defaultLimits,
  home: "/tmp/mcpctl-signin-test-home",
  projectDir: "/tmp",
  warnings: []
})

const byName = (name: string) => servers.find((s) => s.name === name)!

describe("sign-in policy (pure)", () => {
  it("a failure asks for sign-in when it says needs-auth, or when its server's provider saw a challenge", () => {
    const needsAuth = new ServerUnavailable({ server: "web", status: "needs-auth", message: "sign in" })
    const failed = new ServerUnavailable({ server: "web", status: "failed", message: "down" })
    expect(authFailureServer(needsAuth, () => false)).toBe("web")
    expect(authFailureServer(failed, () => false)).toBeUndefined()
    expect(authFailureServer(failed, (s) => s === "web")).toBe("web")
    expect(authFailureServer(new Error("no server"), () => true)).toBeUndefined()
    expect(MAX_SIGN_INS).toBe(3)
  })

  it("a challenge repeats only with the same scope at the same issuer (a moved server is signed in again)", () => {
    const at = (issuer: string, scope: string) => ({ issuer, scope, resourceMetadataUrl: undefined })
    expect(challengeKey(at("https://as1", "mcp"))).toBe(challengeKey(at("https://as1", "mcp")))
    expect(challengeKey(at("https://as1", "mcp"))).not.toBe(challengeKey(at("https://as2", "mcp")))
    expect(challengeKey(at("https://as1", "mcp"))).not.toBe(challengeKey(at("https://as1", "mcp write")))
    expect(challengeKey(undefined)).toBe(challengeKey({ scope: undefined, resourceMetadataUrl: undefined }))
  })
})

describe("RemoteAuth", () => {
  it.effect("gives remote servers the provider their settings ask for", () =>
    Effect.gen(function*() {
      const stored = yield* Effect.provide(RemoteAuth, RemoteAuth.layer({ inline: false }).pipe(Layer.provide(config)))
      expect(stored.providerFor(byName("local"))).toBeUndefined()
      expect(stored.providerFor(byName("socket"))).toBeUndefined()
      expect(stored.providerFor(byName("robot"))).toBeInstanceOf(ClientCredentialsProvider)
      expect(stored.providerFor(byName("workload"))).toBeInstanceOf(JwtBearerProvider)
      expect(stored.providerFor(byName("enterprise"))).toBeInstanceOf(CrossAppAccessProvider)
      const plain = stored.providerFor(byName("web"))
      expect(plain).toBeInstanceOf(McpctlOAuthProvider)
      expect(plain).not.toBeInstanceOf(ChallengeRecordingProvider)
      expect(stored.needsSignIn("web")).toBe(false)

      const inline = yield* Effect.provide(RemoteAuth, RemoteAuth.layer({ inline: true }).pipe(Layer.provide(config)))
      expect(inline.inline).toBe(true)
      expect(inline.providerFor(byName("web"))).toBeInstanceOf(ChallengeRecordingProvider)
      expect(inline.challengeOf("web")).toBeUndefined()
    }))
})

/** The host's services for `withInlineAuth` (no transport is ever opened by these tests). */
const hostContext = (inline: boolean) =>
  Layer.build(Host.layer({ config, transport: InMemory.layer({}), signIn: { inline } }))

describe("withInlineAuth", () => {
  it.scoped("without inline sign-in, a needs-auth failure is the program's own", () =>
    Effect.gen(function*() {
      const context = yield* hostContext(false)
      let runs = 0
      const failure = new ServerUnavailable({ server: "web", status: "needs-auth", message: "sign in" })
      const error = yield* withInlineAuth(Effect.suspend(() => (runs++, Effect.fail(failure)))).pipe(
        Effect.provide(context),
        Effect.flip
      )
      expect(error).toBe(failure)
      expect(runs).toBe(1)
      expect(yield* signInWhereNeeded([{ server: "web", status: "needs-auth" }]).pipe(Effect.provide(context))).toBe(false)
    }))

  it.scoped("other failures pass through untouched, and a repeated challenge is not signed in again", () =>
    Effect.gen(function*() {
      const context = yield* hostContext(true)
      const other = new ServerUnavailable({ server: "web", status: "failed", message: "down" })
      expect(yield* withInlineAuth(Effect.fail(other)).pipe(Effect.provide(context), Effect.flip)).toBe(other)
      // A server the settings do not have cannot be signed in to: the program runs once more,
      // then the same (empty) challenge again ends it.
      let runs = 0
      const failure = new ServerUnavailable({ server: "ghost", status: "needs-auth", message: "sign in" })
      const error = yield* withInlineAuth(Effect.suspend(() => (runs++, Effect.fail(failure)))).pipe(
        Effect.provide(context),
        Effect.flip
      )
      expect(error).toBe(failure)
      expect(runs).toBe(2)
      expect(Context.get(context, RemoteAuth).inline).toBe(true)
    }))
})

describe("ChallengeRecordingProvider", () => {
  it("never stores its placeholder client, which SDK v2 saves back stamped with the issuer", async () => {
    const { mkdtempSync } = await import("node:fs")
    const { tmpdir } = await import("node:os")
    const { join } = await import("node:path")
    const home = mkdtempSync(join(tmpdir(), "mcpctl-challenge-"))
    const options = { home, serverName: "web", serverUrl: "https://example.com/mcp" }
    const probe = new ChallengeRecordingProvider(options)
    const placeholder = await probe.clientInformation()
    expect(placeholder?.client_id).toBeDefined()
    await probe.saveClientInformation({ ...placeholder!, issuer: "https://auth.example.com" } as typeof placeholder & {})
    // The real sign-in then registers a client of its own.
    expect(await new McpctlOAuthProvider(options).clientInformation()).toBeUndefined()
    // A real registration still goes to the store.
    await probe.saveClientInformation({ client_id: "registered" })
    expect((await new McpctlOAuthProvider(options).clientInformation())?.client_id).toBe("registered")
  })
})
