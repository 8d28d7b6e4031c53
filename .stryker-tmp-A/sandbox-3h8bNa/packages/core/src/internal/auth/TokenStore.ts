/**
 * Where OAuth state lives between runs: one JSON file per remote server under
 * `$MCPCTL_HOME/oauth/` (dir 0700, files 0600), keyed by the server URL's origin + path, written
 * through one `JsonStore` each (atomic writes, no link followed, a scoped lock file that orders
 * writers in this process and in others). Also `McpctlOAuthProvider`, the SDK-facing adapter over
 * this store: its Promise methods are the one place these Effects are run.
 *
 * Secrets (tokens, client secrets) are only ever written to these files; `Redact.redactSecrets` scrubs
 * them out of any text that could reach a user or a log.
 */
// @ts-nocheck

import { auth, UnauthorizedError } from "@modelcontextprotocol/client"
import type {
  DpopSession,
  FetchLike,
  OAuthClientInformationContext,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens
} from "@modelcontextprotocol/client"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { createHash, randomBytes } from "node:crypto"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { privateDir } from "../files.js"
import * as JsonStore from "../JsonStore.js"
import type { OAuthOptions } from "../../config/ServerConfig.js"
import { persistentDpopSession } from "./Dpop.js"


// ---------------------------------------------------------------------------------------------
// The store
// ---------------------------------------------------------------------------------------------

/** What is kept per authorization server (by its `issuer`): RFC 6749 §2.2, a client ID is the issuer's. */
export interface IssuerEntry {
  readonly tokens?: StoredOAuthTokens
  /** When `tokens` were saved (ms since epoch), to tell an expired access token without asking. */
  readonly tokensSavedAt?: number
  /** The dynamic registration (or client ID metadata document) result; never pre-registered ones. */
  readonly clientInformation?: StoredOAuthClientInformation
}

/**
 * Everything kept for one server. Discovery state and the PKCE verifier stay in memory.
 * The top-level `tokens`/`clientInformation` are the ones saved last (what a request presents);
 * `issuers` keeps each authorization server's own, so a server that moves to another one gets a
 * new registration there instead of the old client replayed. An entry written before issuers were
 * recorded has only the top-level fields, without an `issuer` stamp: it is kept and served for
 * whichever issuer asks first, and filed under that issuer when the SDK stamps it.
 */
export interface StoredAuth extends IssuerEntry {
  /** The normalized key (origin + path), so a file can be told apart without hashing. */
  readonly serverUrl: string
  readonly issuers?: Readonly<Record<string, IssuerEntry>>
}

/**
 * The key tokens are stored under: origin + path, without query, fragment or a trailing `/`,
 * so `https://x.dev/mcp`, `https://x.dev/mcp/` and `https://X.dev:443/mcp#a` share one sign-in.
 */
export const serverKey = (url: string | URL): string => {
  const u = new URL(String(url))
  const pathname = u.pathname.length > 1 ? u.pathname.replace(/\/+$/, "") : ""
  return `${u.origin}${pathname}`
}

/** The directory of all OAuth files: `$MCPCTL_HOME/oauth`. */
export const oauthDir = (home: string): string => path.join(home, "oauth")

/** The file of one server: readable host prefix for humans, hash of the key for uniqueness. */
export const storeFile = (home: string, url: string | URL): string => {
  const key = serverKey(url)
  const host = new URL(key).host.replace(/[^A-Za-z0-9.-]/g, "_")
  const hash = createHash("sha256").update(key).digest("hex").slice(0, 16)
  return path.join(oauthDir(home), `${host}-${hash}.json`)
}

/** The DPoP key pair of one server, beside its tokens (same name, `.dpop.json`). */
export const dpopKeyFile = (home: string, url: string | URL): string => storeFile(home, url).replace(/\.json$/, ".dpop.json")

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const parseEntry = (raw: Record<string, unknown>): IssuerEntry => {
  const tokens = isRecord(raw.tokens) && typeof raw.tokens.access_token === "string"
    ? (raw.tokens as unknown as StoredOAuthTokens)
    : undefined
  const clientInformation = isRecord(raw.clientInformation) && typeof raw.clientInformation.client_id === "string"
    ? (raw.clientInformation as unknown as StoredOAuthClientInformation)
    : undefined
  return {
    ...(tokens ? { tokens } : {}),
    ...(tokens && typeof raw.tokensSavedAt === "number" ? { tokensSavedAt: raw.tokensSavedAt } : {}),
    ...(clientInformation ? { clientInformation } : {})
  }
}

const isEmpty = (e: IssuerEntry | undefined): boolean => e?.tokens === undefined && e?.clientInformation === undefined

/** Parses a stored file leniently: anything malformed reads as "nothing stored". */
export const parseStored = (raw: unknown, key: string): StoredAuth => {
  if (!isRecord(raw) || raw.serverUrl !== key) return { serverUrl: key }
  const issuers: Record<string, IssuerEntry> = {}
  if (isRecord(raw.issuers)) {
    for (const [issuer, entry] of Object.entries(raw.issuers)) {
      if (isRecord(entry) && !isEmpty(parseEntry(entry))) issuers[issuer] = parseEntry(entry)
    }
  }
  return { serverUrl: key, ...parseEntry(raw), ...(Object.keys(issuers).length > 0 ? { issuers } : {}) }
}

/**
 * What an authorization server may be handed (pure): its own entry, else a top-level value that
 * carries no issuer stamp (written before issuers were recorded), else nothing — a value stamped
 * with another issuer is never offered to this one.
 */
export const forIssuer = <K extends "tokens" | "clientInformation">(
  stored: StoredAuth,
  issuer: string,
  field: K
): IssuerEntry[K] | undefined => {
  const own = stored.issuers?.[issuer]?.[field]
  if (own !== undefined) return own
  const top = stored[field]
  return top !== undefined && (top as { issuer?: string }).issuer === undefined ? top : undefined
}

/** `stored` with `entry` merged in for `issuer`, and made the current (top-level) one (pure). */
export const withIssuerEntry = (stored: StoredAuth, issuer: string | undefined, entry: IssuerEntry): StoredAuth => {
  const current = { ...stored, ...entry }
  if (issuer === undefined) return current
  return { ...current, issuers: { ...stored.issuers, [issuer]: { ...stored.issuers?.[issuer], ...entry } } }
}

/** The JSON store of one server's file: decoded leniently by `parseStored`, so the schema is any JSON. */
const storeOf = (home: string, url: string | URL): JsonStore.JsonStore<unknown> => JsonStore.make(storeFile(home, url), Schema.Unknown)

const nothingLeft = (s: StoredAuth): boolean => isEmpty(s) && Object.values(s.issuers ?? {}).every(isEmpty)

/** What is stored for a server; nothing stored (or a corrupt file, or a link) is an empty entry. */
export const readStoredEffect = (home: string, url: string | URL): Effect.Effect<StoredAuth> =>
  Effect.map(storeOf(home, url).get, (raw) => parseStored(Option.getOrUndefined(raw), serverKey(url)))

/** {@link readStoredEffect} for the SDK's Promise-based provider. */
export const readStored = (home: string, url: string | URL): Promise<StoredAuth> => Effect.runPromise(readStoredEffect(home, url))

/**
 * Changes a server's entry under the store's lock, re-reading it first so a concurrent writer's
 * fields survive. An entry left with neither tokens nor client information is deleted.
 */
export const updateStoredEffect = (
  home: string,
  url: string | URL,
  f: (current: StoredAuth) => StoredAuth
): Effect.Effect<StoredAuth, JsonStore.JsonStoreError> =>
  Effect.zipRight(
    // A symlinked oauth/ would aim the chmod and the writes below at another directory.
    Effect.promise(() => privateDir(home, "oauth")),
    storeOf(home, url).modify((raw) => {
      const next = f(parseStored(Option.getOrUndefined(raw), serverKey(url)))
      return [next, nothingLeft(next) ? Option.none() : Option.some<unknown>(next)] as const
    })
  )

/** {@link updateStoredEffect} for the SDK's Promise-based provider. */
export const updateStored = (home: string, url: string | URL, f: (current: StoredAuth) => StoredAuth): Promise<StoredAuth> =>
  Effect.runPromise(updateStoredEffect(home, url, f))

/** Forgets everything stored for a server (logout): its file and its DPoP key, under the store's lock. */
export const deleteStoredEffect = (home: string, url: string | URL): Effect.Effect<void, JsonStore.JsonStoreError> =>
  storeOf(home, url).modify(() => [undefined, Option.none()] as const).pipe(
    Effect.zipRight(Effect.tryPromise({
      try: () => fs.rm(dpopKeyFile(home, url), { force: true }),
      catch: (cause) => new JsonStore.JsonStoreError({ file: dpopKeyFile(home, url), reason: "write", cause })
    }))
  )

/** {@link deleteStoredEffect} as a Promise. */
export const deleteStored = (home: string, url: string | URL): Promise<void> => Effect.runPromise(deleteStoredEffect(home, url))

/** `deleteStored` as an Effect that never fails: a file that cannot be removed is logged. */
export const forget = (home: string, url: string | URL): Effect.Effect<void> =>
  deleteStoredEffect(home, url).pipe(
    Effect.catchAll((e) => Effect.logWarning(`could not remove OAuth state ${storeFile(home, url)}: ${String(e)}`))
  )

/** The secret strings of an entry, for `Redact.redactSecrets`. */
export const secretsOf = (stored: StoredAuth): ReadonlyArray<string> => {
  const out = new Set<string>()
  for (const entry of [stored, ...Object.values(stored.issuers ?? {})]) {
    if (entry.tokens?.access_token) out.add(entry.tokens.access_token)
    if (entry.tokens?.refresh_token) out.add(entry.tokens.refresh_token)
    if (entry.tokens?.id_token) out.add(entry.tokens.id_token)
    const secret = (entry.clientInformation as { client_secret?: string } | undefined)?.client_secret
    if (secret) out.add(secret)
  }
  return [...out]
}


// ---------------------------------------------------------------------------------------------
// The SDK's view of the store
// ---------------------------------------------------------------------------------------------

/** The loopback redirect URL for a port: always `127.0.0.1`, never `localhost` (RFC 8252 §7.3). */
export const loopbackRedirectUrl = (port: number): string => `http://127.0.0.1:${port}/callback`

/** Refresh an access token this long before it expires, so a request never carries a dead one. */
export const REFRESH_AHEAD_MS = 60_000

/** Whether stored tokens are expired or about to be (pure); unknown lifetimes never are. */
export const expiresSoon = (entry: IssuerEntry, now: number, aheadMs: number = REFRESH_AHEAD_MS): boolean => {
  const lifetime = entry.tokens?.expires_in
  if (entry.tokensSavedAt === undefined || typeof lifetime !== "number") return false
  return entry.tokensSavedAt + lifetime * 1000 - aheadMs <= now
}

/** Options of `McpctlOAuthProvider`. */
export interface ProviderOptions {
  /** `$MCPCTL_HOME`; credentials go to `$MCPCTL_HOME/oauth/`. */
  readonly home: string
  readonly serverName: string
  readonly serverUrl: string
  readonly oauth?: OAuthOptions | undefined
  /** The callback URL; defaults to `oauth.callbackPort`, else the last registered loopback URL. */
  readonly redirectUrl?: string | undefined
  /**
   * Opens the authorization URL (interactive sign-in). Absent means non-interactive: the URL is
   * only recorded in `authorizationUrl` and `needsAuth` becomes true.
   */
  readonly onRedirect?: ((url: URL) => Promise<void>) | undefined
  /** An HTTPS client ID metadata document URL (SEP-991), used when the server supports it. */
  readonly clientMetadataUrl?: string | undefined
  /** The `fetch` of a refresh ahead of expiry (the transport's own, with proxy and limits). */
  readonly fetchFn?: FetchLike | undefined
}

/**
 * The SDK `OAuthClientProvider` of mcpctl. Tokens and the dynamic registration persist (0600, keyed
 * by server URL, inside by authorization-server issuer); the PKCE verifier, `state` and discovery
 * results stay in memory because one sign-in runs in one process, and persisting them would let a
 * background run clobber a flow in progress or reuse stale discovery after a server moved.
 */
export class McpctlOAuthProvider implements OAuthClientProvider {
  /** Set when the SDK wanted a browser sign-in that this (non-interactive) provider did not do. */
  needsAuth = false
  /** Set when the authorization server refused the stored refresh token (then sign-in is needed). */
  refreshRefused = false
  /** The last authorization URL the SDK produced. */
  authorizationUrl: URL | undefined = undefined
  /** The `state` sent with the last authorization request, for the callback to match. */
  expectedState: string | undefined = undefined
  readonly clientMetadataUrl: string | undefined
  private verifier: string | undefined = undefined
  private discovery: OAuthDiscoveryState | undefined = undefined
  private dpopSession: Promise<DpopSession> | undefined = undefined
  private refreshing: Promise<void> | undefined = undefined
  private readonly redirect: string

  constructor(readonly options: ProviderOptions) {
    this.clientMetadataUrl = options.clientMetadataUrl
    this.redirect = options.redirectUrl ??
      loopbackRedirectUrl(options.oauth?.callbackPort ?? 0).replace(":0/", "/")
  }

  get interactive(): boolean {
    return this.options.onRedirect !== undefined
  }

  get redirectUrl(): string {
    return this.redirect
  }

  /** Pre-registered credentials from settings win over anything stored. */
  get preRegistered(): boolean {
    return this.options.oauth?.clientId !== undefined
  }

  get clientMetadata(): OAuthClientMetadata {
    const scope = this.options.oauth?.scopes?.join(" ")
    return {
      client_name: "mcpctl",
      redirect_uris: [this.redirect],
      // SEP-837: a CLI with a loopback redirect is a native application (RFC 8252).
      application_type: "native",
      // SEP-2207: asking for refresh_token lets the SDK add offline_access where the AS offers it.
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: this.options.oauth?.clientSecret !== undefined ? "client_secret_basic" : "none",
      ...(scope ? { scope } : {})
    } as OAuthClientMetadata
  }

  state(): string {
    this.expectedState = randomBytes(16).toString("base64url")
    return this.expectedState
  }

  private read(): Promise<StoredAuth> {
    return readStored(this.options.home, this.options.serverUrl)
  }

  async clientInformation(ctx?: OAuthClientInformationContext): Promise<StoredOAuthClientInformation | undefined> {
    const oauth = this.options.oauth
    if (oauth?.clientId !== undefined) {
      return { client_id: oauth.clientId, ...(oauth.clientSecret !== undefined ? { client_secret: oauth.clientSecret } : {}) }
    }
    const stored = await this.read()
    return ctx ? forIssuer(stored, ctx.issuer, "clientInformation") : stored.clientInformation
  }

  async saveClientInformation(info: StoredOAuthClientInformation, ctx?: OAuthClientInformationContext): Promise<void> {
    // The SDK also calls this to stamp pre-registered credentials with their issuer; those live in
    // settings, not in the store.
    if (this.preRegistered) return
    const issuer = ctx?.issuer ?? info.issuer
    await updateStored(this.options.home, this.options.serverUrl, (s) => withIssuerEntry(s, issuer, { clientInformation: info }))
  }

  /**
   * With `ctx` (the SDK's flow): the tokens of that issuer. Without (the transport, per request):
   * the current tokens, refreshed first when they expire within `REFRESH_AHEAD_MS`.
   */
  async tokens(ctx?: OAuthClientInformationContext): Promise<StoredOAuthTokens | undefined> {
    const stored = await this.read()
    if (ctx) return forIssuer(stored, ctx.issuer, "tokens")
    if (stored.tokens?.refresh_token && expiresSoon(stored, Date.now())) {
      await this.refreshAhead()
      return (await this.read()).tokens
    }
    return stored.tokens
  }

  /** One refresh at a time; a refused refresh token leaves the provider flagged, not thrown. */
  private refreshAhead(): Promise<void> {
    this.refreshing ??= (async () => {
      try {
        const before = (await this.read()).tokens?.refresh_token
        await auth(this, { serverUrl: this.options.serverUrl, ...(this.options.fetchFn ? { fetchFn: this.options.fetchFn } : {}) })
        const after = await this.read()
        if (after.tokens === undefined && before !== undefined) this.refreshRefused = true
      } catch {
        // The request goes out with what is stored; its 401 runs the SDK's own flow.
      } finally {
        this.refreshing = undefined
      }
    })()
    return this.refreshing
  }

  async saveTokens(tokens: StoredOAuthTokens, ctx?: OAuthClientInformationContext): Promise<void> {
    const now = Date.now()
    const issuer = ctx?.issuer ?? tokens.issuer
    await updateStored(this.options.home, this.options.serverUrl, (s) => withIssuerEntry(s, issuer, { tokens, tokensSavedAt: now }))
    this.needsAuth = false
    this.refreshRefused = false
  }

  /** `oauth.dpop`: one session per provider over the key pair kept beside the tokens. */
  dpop(): Promise<DpopSession> | undefined {
    if (this.options.oauth?.dpop !== true) return undefined
    this.dpopSession ??= persistentDpopSession(this.options.home, dpopKeyFile(this.options.home, this.options.serverUrl))
    return this.dpopSession
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    this.authorizationUrl = url
    if (this.options.onRedirect) return this.options.onRedirect(url)
    this.needsAuth = true
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier
  }

  codeVerifier(): string {
    if (this.verifier === undefined) throw new Error("no PKCE code verifier: the sign-in was not started by this process")
    return this.verifier
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state
  }

  /**
   * The first thing `auth()` asks. A non-interactive run with nothing to refresh cannot succeed,
   * so it stops here — before discovery and dynamic registration put traffic on the server.
   */
  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    if (!this.interactive && !(await this.read()).tokens?.refresh_token) {
      this.needsAuth = true
      const name = this.options.serverName
      throw new UnauthorizedError(
        this.refreshRefused
          ? `the authorization server of ${name} refused the stored refresh token: run "mcpctl auth ${name}" to sign in again`
          : `${name} needs sign-in: run "mcpctl auth ${name}"`
      )
    }
    return this.discovery
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    if (scope === "all" || scope === "verifier") this.verifier = undefined
    if (scope === "all" || scope === "discovery") this.discovery = undefined
    if (scope === "all" || scope === "client" || scope === "tokens") {
      const hadRefresh = scope === "tokens" && (await this.read()).tokens?.refresh_token !== undefined
      await updateStored(this.options.home, this.options.serverUrl, (s) => invalidated(s, scope))
      if (hadRefresh && !this.interactive) this.refreshRefused = true
    }
  }

  /** Every secret this provider may hold, for scrubbing error messages. */
  async secrets(): Promise<ReadonlyArray<string>> {
    const stored = await this.read().catch(() => undefined)
    return [
      ...(stored ? secretsOf(stored) : []),
      ...(this.options.oauth?.clientSecret ? [this.options.oauth.clientSecret] : []),
      ...(this.verifier ? [this.verifier] : [])
    ]
  }
}

/**
 * `stored` without the current client (`client`), tokens (`tokens`) or both (`all`): at top level
 * and in the entry of the issuer they were stamped with, other issuers' entries untouched (pure).
 */
export const invalidated = (stored: StoredAuth, scope: "all" | "client" | "tokens"): StoredAuth => {
  const dropClient = scope !== "tokens"
  const dropTokens = scope !== "client"
  const strip = (e: IssuerEntry): IssuerEntry => ({
    ...(!dropTokens && e.tokens ? { tokens: e.tokens, ...(e.tokensSavedAt !== undefined ? { tokensSavedAt: e.tokensSavedAt } : {}) } : {}),
    ...(!dropClient && e.clientInformation ? { clientInformation: e.clientInformation } : {})
  })
  const stamps = new Set<string | undefined>([
    ...(dropTokens ? [stored.tokens?.issuer] : []),
    ...(dropClient ? [stored.clientInformation?.issuer] : [])
  ])
  const issuers: Record<string, IssuerEntry> = {}
  for (const [issuer, entry] of Object.entries(stored.issuers ?? {})) {
    const next = stamps.has(issuer) || scope === "all" ? strip(entry) : entry
    if (!isEmpty(next)) issuers[issuer] = next
  }
  return { serverUrl: stored.serverUrl, ...strip(stored), ...(Object.keys(issuers).length > 0 ? { issuers } : {}) }
}
