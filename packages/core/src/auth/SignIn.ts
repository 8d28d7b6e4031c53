/**
 * Sign-in policy of a host run: the OAuth provider each remote transport gets, and inline sign-in
 * (the CLI's `--auth`, or a person at a terminal): when a server needs sign-in, run the browser
 * flow with what the server's own challenge asked for, then retry — a bounded number of times,
 * so a server that keeps answering `insufficient_scope` cannot loop us forever.
 *
 * What a person should read ("… needs sign-in", the URL to open) goes to Effect's `Console`
 * error stream (stderr by default); swap the `Console` to show it elsewhere.
 */
import type { OAuthClientProvider } from "@modelcontextprotocol/client"
import * as Console from "effect/Console"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { McpConfig } from "../config/McpConfig.js"
import type { ResolvedServer } from "../config/ServerConfig.js"
import { ConnectionPool } from "../pool/ConnectionPool.js"
import { openInBrowser, remoteConfigOf, signIn } from "../internal/auth/OAuthFlow.js"
import * as internal from "../internal/auth/remoteAuth.js"

/**
 * At most this many browser sign-ins per server in one run (step-up included).
 * @since 0.1.0
 */
export const MAX_SIGN_INS = 3

/**
 * What the SDK would have asked the authorization server for, had it been allowed to.
 * @since 0.1.0
 */
export type Challenge = internal.Challenge

/**
 * The transport's provider when inline sign-in is allowed. Like the non-interactive provider it
 * never opens a browser, but it lets the SDK run its discovery as far as the authorization URL,
 * and records the scope and resource metadata URL it would use. That is the only place the scope
 * of a step-up challenge (403 `insufficient_scope` on one request) is visible. No client is
 * registered on the way: a placeholder client stands in, and nothing of it is stored.
 * @since 0.1.0
 */
export const ChallengeRecordingProvider: typeof internal.ChallengeRecordingProvider = internal.ChallengeRecordingProvider
/** @since 0.1.0 */
export type ChallengeRecordingProvider = internal.ChallengeRecordingProvider

/**
 * The provider of a server whose `oauth.grantType` needs no browser (`client_credentials`,
 * `jwt-bearer`, `cross-app-access`; Grants.ts), or undefined when its settings lack what it needs.
 * @since 0.1.0
 */
export const clientCredentialsProvider: (server: ResolvedServer) => OAuthClientProvider | undefined =
  internal.clientCredentialsProvider

/**
 * Whether a server's OAuth is one of the grant modes without a browser.
 * @since 0.1.0
 */
export const isMachineGrant: (server: ResolvedServer) => boolean = internal.isMachineGrant

/**
 * Options of `RemoteAuth.layer`: `inline`, whether a server that needs sign-in may get it inline
 * (then the program retries). With it, providers record each server's challenge for that
 * sign-in; without it they only use and refresh stored tokens, and a server that needs sign-in
 * is reported `needs-auth`.
 * @since 0.1.0
 */
export type RemoteAuthOptions = internal.RemoteAuthOptions

/**
 * The per-run OAuth state of a host: providers per remote server, and what they saw.
 * @since 0.1.0
 */
export class RemoteAuth extends Context.Tag("@mcpctl/core/RemoteAuth")<
  RemoteAuth,
  {
    /** Whether a server that needs sign-in may get it inline (then the command retries). */
    readonly inline: boolean
    /** The provider a remote transport gets (what `Transport.layerWith` calls per open). */
    readonly providerFor: (server: ResolvedServer) => OAuthClientProvider | undefined
    /** Whether the last transport of `server` stopped because it needs a (new) sign-in. */
    readonly needsSignIn: (server: string) => boolean
    /** The challenge the last transport of `server` saw, if it got that far. */
    readonly challengeOf: (server: string) => Challenge | undefined
  }
>() {
  /** Providers from the settings and `$MCPCTL_HOME`; `inline` says whether they record challenges. */
  static readonly layer = (options: RemoteAuthOptions): Layer.Layer<RemoteAuth, never, McpConfig> =>
    Layer.effect(RemoteAuth, make(options))
}

/**
 * Builds the service for one run (the implementation: `internal/auth/remoteAuth.ts`).
 * @since 0.1.0
 */
export const make = (options: RemoteAuthOptions): Effect.Effect<RemoteAuth["Type"], never, McpConfig> =>
  internal.make(options)

/** The server a failure is about, when it carries one. */
const serverOf = (error: unknown): string | undefined => {
  const s = (error as { server?: unknown } | null)?.server
  return typeof s === "string" ? s : undefined
}

/**
 * Whether a failure means "sign in to this server first" (pure).
 * @since 0.1.0
 */
export const authFailureServer = (error: unknown, needsSignIn: (server: string) => boolean): string | undefined => {
  const server = serverOf(error)
  if (server === undefined) return undefined
  const status = (error as { status?: unknown }).status
  return status === "needs-auth" || needsSignIn(server) ? server : undefined
}

/**
 * What makes two challenges the same for the loop guard of `withInlineAuth` (pure): the scope and
 * the issuer it would be granted by. The same scope at another issuer is a server that moved to
 * another authorization server (SEP-2352), which deserves a new sign-in.
 * @since 0.1.0
 */
export const challengeKey = (challenge: Challenge | undefined): string =>
  JSON.stringify([challenge?.issuer ?? "", challenge?.scope ?? ""])

/**
 * The error of one inline sign-in.
 * @since 0.1.0
 */
export type SignInError = Effect.Effect.Error<ReturnType<typeof signIn>>

/**
 * Runs `program`; when it fails because a remote server needs sign-in (401, or 403
 * `insufficient_scope` for a scope we do not hold yet) and inline sign-in is allowed, signs in
 * with the challenge's scope, drops the server's connection and runs `program` again. Gives up
 * after `MAX_SIGN_INS` sign-ins per server, or when a challenge repeats a scope already granted by
 * the same authorization server in this run (a server that will never be satisfied; the same scope
 * at another issuer is a server that moved).
 * @since 0.1.0
 */
export const withInlineAuth = <A, E, R>(
  program: Effect.Effect<A, E, R>
): Effect.Effect<A, E | SignInError, R | RemoteAuth | McpConfig | ConnectionPool> =>
  Effect.gen(function*() {
    const auth = yield* RemoteAuth
    if (!auth.inline) return yield* program
    const granted = new Map<string, Set<string>>()
    const loop = (): Effect.Effect<A, E | SignInError, R | McpConfig | ConnectionPool> =>
      program.pipe(Effect.catchAll((error) =>
        Effect.gen(function*() {
          const name = authFailureServer(error, auth.needsSignIn)
          if (name === undefined) return yield* Effect.fail(error)
          const scopes = granted.get(name) ?? new Set<string>()
          const challenge = auth.challengeOf(name)
          const scopeKey = challengeKey(challenge)
          if (scopes.size >= MAX_SIGN_INS || scopes.has(scopeKey)) return yield* Effect.fail(error)
          scopes.add(scopeKey)
          granted.set(name, scopes)
          yield* signInServer(name, challenge)
          return yield* loop()
        })
      ))
    return yield* loop()
  })

/**
 * One inline sign-in, then the server's connection is dropped so the next use reconnects with the new tokens.
 * @since 0.1.0
 */
export const signInServer = (name: string, challenge: Challenge | undefined) =>
  Effect.gen(function*() {
    const config = yield* McpConfig
    const pool = yield* ConnectionPool
    const server = config.servers.find((s) => s.name === name)
    if (!server) return
    const remote = remoteConfigOf(server)
    const console = yield* Effect.console
    yield* console.error(`${name} needs sign-in${challenge?.scope ? ` (scope: ${challenge.scope})` : ""}.`)
    yield* signIn(server, {
      home: config.home,
      openUrl: openInBrowser,
      print: (line) => console.unsafe.error(line),
      clientMetadataUrl: remote?.oauth?.clientMetadataUrl,
      challenge
    })
    yield* pool.invalidate(name)
  })

/**
 * A listing keeps going when a server fails, so its sign-in cannot hang off a failure: every
 * server the listing reports as needing sign-in gets one (one browser flow at a time), and the
 * caller lists again. Returns whether anything was attempted.
 * @since 0.1.0
 */
export const signInWhereNeeded = (errors: ReadonlyArray<{ readonly server: string; readonly status: string }>) =>
  Effect.gen(function*() {
    const auth = yield* RemoteAuth
    if (!auth.inline) return false
    const servers = errors
      .filter((e) => e.status === "needs-auth" || auth.needsSignIn(e.server))
      .map((e) => e.server)
    for (const name of servers) {
      yield* withInlineAuth(signInServer(name, auth.challengeOf(name))).pipe(
        Effect.catchAll((error) => Console.error(`${name}: ${error.message}`))
      )
    }
    return servers.length > 0
  })
