/**
 * Where OAuth state lives between runs: one JSON file per remote server under
 * `$MCPCTL_HOME/oauth/` (dir 0700, files 0600), keyed by the server URL's origin + path, written
 * atomically and serialized against other writers (in this process and, best-effort, in others).
 * Also the atomic-write and file-lock helpers the needs-auth cache shares, and `McpctlOAuthProvider`,
 * the SDK-facing adapter over this store.
 *
 * Secrets (tokens, client secrets) are only ever written to these files; `Redact.redactSecrets` scrubs
 * them out of any text that could reach a user or a log.
 */
import { UnauthorizedError } from "@modelcontextprotocol/client"
import type { OAuthClientProvider, OAuthDiscoveryState, OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/client"
import * as Effect from "effect/Effect"
import { createHash, randomBytes } from "node:crypto"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { privateDir, readJsonFile, withFileLock, writeFileAtomic } from "../internal/files.js"
import type { OAuthOptions } from "../config/ServerConfig.js"


// ---------------------------------------------------------------------------------------------
// The store
// ---------------------------------------------------------------------------------------------

/** Everything kept for one server. Discovery state and the PKCE verifier stay in memory. */
export interface StoredAuth {
  /** The normalized key (origin + path), so a file can be told apart without hashing. */
  readonly serverUrl: string
  readonly tokens?: OAuthTokens
  /** When `tokens` were saved (ms since epoch), to tell an expired access token without asking. */
  readonly tokensSavedAt?: number
  /** The dynamic registration (or client ID metadata document) result; never pre-registered ones. */
  readonly clientInformation?: OAuthClientInformationMixed
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

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/** Parses a stored file leniently: anything malformed reads as "nothing stored". */
export const parseStored = (raw: unknown, key: string): StoredAuth => {
  if (!isRecord(raw) || raw.serverUrl !== key) return { serverUrl: key }
  const tokens = isRecord(raw.tokens) && typeof raw.tokens.access_token === "string"
    ? (raw.tokens as unknown as OAuthTokens)
    : undefined
  const clientInformation = isRecord(raw.clientInformation) && typeof raw.clientInformation.client_id === "string"
    ? (raw.clientInformation as unknown as OAuthClientInformationMixed)
    : undefined
  return {
    serverUrl: key,
    ...(tokens ? { tokens } : {}),
    ...(tokens && typeof raw.tokensSavedAt === "number" ? { tokensSavedAt: raw.tokensSavedAt } : {}),
    ...(clientInformation ? { clientInformation } : {})
  }
}

/** Reads what is stored for a server; nothing stored (or a corrupt file) is an empty entry. */
export const readStored = async (home: string, url: string | URL): Promise<StoredAuth> =>
  parseStored(await readJsonFile(storeFile(home, url)), serverKey(url))

/**
 * Changes a server's entry under the file lock, re-reading it first so a concurrent writer's
 * fields survive. An entry left with neither tokens nor client information is deleted.
 */
export const updateStored = async (
  home: string,
  url: string | URL,
  f: (current: StoredAuth) => StoredAuth
): Promise<StoredAuth> => {
  const file = storeFile(home, url)
  // A symlinked oauth/ would aim the chmod and the writes below at another directory.
  await privateDir(home, "oauth")
  return withFileLock(file, async () => {
    const next = f(parseStored(await readJsonFile(file), serverKey(url)))
    if (next.tokens === undefined && next.clientInformation === undefined) {
      await fs.rm(file, { force: true })
    } else {
      await writeFileAtomic(file, JSON.stringify(next, null, 2) + "\n")
    }
    return next
  })
}

/** Forgets everything stored for a server (logout). */
export const deleteStored = (home: string, url: string | URL): Promise<void> =>
  withFileLock(storeFile(home, url), () => fs.rm(storeFile(home, url), { force: true }))

/** `deleteStored` as an Effect that never fails: a file that cannot be removed is logged. */
export const forget = (home: string, url: string | URL): Effect.Effect<void> =>
  Effect.tryPromise(() => deleteStored(home, url)).pipe(
    Effect.catchAll((e) => Effect.logWarning(`could not remove OAuth state ${storeFile(home, url)}: ${String(e)}`))
  )

/** The secret strings of an entry, for `Redact.redactSecrets`. */
export const secretsOf = (stored: StoredAuth): ReadonlyArray<string> => {
  const out: Array<string> = []
  if (stored.tokens?.access_token) out.push(stored.tokens.access_token)
  if (stored.tokens?.refresh_token) out.push(stored.tokens.refresh_token)
  if (stored.tokens?.id_token) out.push(stored.tokens.id_token)
  const secret = (stored.clientInformation as { client_secret?: string } | undefined)?.client_secret
  if (secret) out.push(secret)
  return out
}


// ---------------------------------------------------------------------------------------------
// The SDK's view of the store
// ---------------------------------------------------------------------------------------------

/** The loopback redirect URL for a port: always `127.0.0.1`, never `localhost` (RFC 8252 §7.3). */
export const loopbackRedirectUrl = (port: number): string => `http://127.0.0.1:${port}/callback`

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
}

/**
 * The SDK `OAuthClientProvider` of mcpctl. Tokens and the dynamic registration persist (0600, keyed
 * by server URL); the PKCE verifier, `state` and discovery results stay in memory because one
 * sign-in runs in one process, and persisting them would let a background run clobber a flow in
 * progress or reuse stale discovery after a server moved.
 */
export class McpctlOAuthProvider implements OAuthClientProvider {
  /** Set when the SDK wanted a browser sign-in that this (non-interactive) provider did not do. */
  needsAuth = false
  /** The last authorization URL the SDK produced. */
  authorizationUrl: URL | undefined = undefined
  /** The `state` sent with the last authorization request, for the callback to match. */
  expectedState: string | undefined = undefined
  readonly clientMetadataUrl: string | undefined
  private verifier: string | undefined = undefined
  private discovery: OAuthDiscoveryState | undefined = undefined
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
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: this.options.oauth?.clientSecret !== undefined ? "client_secret_basic" : "none",
      ...(scope ? { scope } : {})
    }
  }

  state(): string {
    this.expectedState = randomBytes(16).toString("base64url")
    return this.expectedState
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const oauth = this.options.oauth
    if (oauth?.clientId !== undefined) {
      return { client_id: oauth.clientId, ...(oauth.clientSecret !== undefined ? { client_secret: oauth.clientSecret } : {}) }
    }
    return (await readStored(this.options.home, this.options.serverUrl)).clientInformation
  }

  async saveClientInformation(info: OAuthClientInformationMixed): Promise<void> {
    // The SDK also calls this to stamp pre-registered credentials with their issuer; those live in
    // settings, not in the store.
    if (this.preRegistered) return
    await updateStored(this.options.home, this.options.serverUrl, (s) => ({ ...s, clientInformation: info }))
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    return (await readStored(this.options.home, this.options.serverUrl)).tokens
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    const now = Date.now()
    await updateStored(this.options.home, this.options.serverUrl, (s) => ({ ...s, tokens, tokensSavedAt: now }))
    this.needsAuth = false
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
    if (!this.interactive && !(await this.tokens())?.refresh_token) {
      this.needsAuth = true
      throw new UnauthorizedError(`${this.options.serverName} needs sign-in: run "mcpctl auth ${this.options.serverName}"`)
    }
    return this.discovery
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    if (scope === "all" || scope === "verifier") this.verifier = undefined
    if (scope === "all" || scope === "discovery") this.discovery = undefined
    if (scope === "all" || scope === "client" || scope === "tokens") {
      await updateStored(this.options.home, this.options.serverUrl, (s) => ({
        serverUrl: s.serverUrl,
        ...(scope === "client" && s.tokens ? { tokens: s.tokens, tokensSavedAt: s.tokensSavedAt } : {}),
        ...(scope === "tokens" && s.clientInformation ? { clientInformation: s.clientInformation } : {})
      }))
    }
  }

  /** Every secret this provider may hold, for scrubbing error messages. */
  async secrets(): Promise<ReadonlyArray<string>> {
    const stored = await readStored(this.options.home, this.options.serverUrl).catch(() => undefined)
    return [
      ...(stored ? secretsOf(stored) : []),
      ...(this.options.oauth?.clientSecret ? [this.options.oauth.clientSecret] : []),
      ...(this.verifier ? [this.verifier] : [])
    ]
  }
}
