/**
 * The `oauth.grantType` modes without a browser, as SDK `OAuthClientProvider`s: the SDK's `auth()`
 * runs discovery and the token request on the first 401, the provider only says which grant.
 *
 * - `client_credentials` (SEP-1046): the SDK's `ClientCredentialsProvider` / `PrivateKeyJwtProvider`.
 * - `jwt-bearer` (workload identity federation, RFC 7523 §2.1, SEP-1933): the workload's own JWT
 *   (from a file or an environment variable, read afresh at each token request because workload
 *   tokens rotate) is the grant; no client secret, no registration.
 * - `cross-app-access` (enterprise-managed authorization, SEP-990): the SDK's
 *   `CrossAppAccessProvider`, whose assertion is an ID-JAG from the enterprise IdP: mcpctl's ID
 *   token there is exchanged for it (RFC 8693, the SDK's `requestJwtAuthorizationGrant` /
 *   `discoverAndRequestJwtAuthGrant`), and the SDK trades it for an access token (RFC 7523).
 *
 * Tokens stay in memory: getting a new one costs one request, and nothing secret is written.
 */
// @ts-nocheck

import {
  ClientCredentialsProvider,
  CrossAppAccessProvider,
  discoverAndRequestJwtAuthGrant,
  PrivateKeyJwtProvider,
  requestJwtAuthorizationGrant
} from "@modelcontextprotocol/client"
import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  StoredOAuthClientInformation,
  StoredOAuthTokens
} from "@modelcontextprotocol/client"
import { auth } from "@modelcontextprotocol/client"
import * as Effect from "effect/Effect"
import type { OAuthOptions, RemoteServerConfig, ResolvedServer } from "../../config/ServerConfig.js"
import { ConfigError, ServerUnavailable } from "../../Errors.js"
import { clearNeedsAuth, needsAuthKey } from "../pool/NeedsAuthCache.js"
import { redactSecrets } from "../config/Redact.js"
import { proxyFetch } from "../transport/Proxy.js"
import { readPrivateFileSync } from "../PrivateFile.js"

/** RFC 7523 §2.1. */
export const JWT_BEARER_GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer"

/** A secret named by settings: a file's contents or an environment variable's value, trimmed. */
export const readSecret = (
  what: string,
  file: string | undefined,
  envName: string | undefined,
  env: NodeJS.ProcessEnv = process.env
): string => {
  if (file !== undefined) {
    const text = readPrivateFileSync(what, file).trim()
    if (text.length === 0) throw new Error(`the ${what} file ${file} is empty`)
    return text
  }
  if (envName !== undefined) {
    const value = env[envName]?.trim()
    if (!value) throw new Error(`the ${what} variable ${envName} is not set`)
    return value
  }
  throw new Error(`no ${what}: set its file or its environment variable in the server's oauth settings`)
}

/**
 * `grantType: "jwt-bearer"`: a public client (`token_endpoint_auth_method: none`) whose grant is
 * the workload JWT. A refused assertion is not retried with another grant (SEP-1933).
 */
export class JwtBearerProvider implements OAuthClientProvider {
  private stored: StoredOAuthTokens | undefined = undefined

  constructor(
    private readonly options: {
      readonly clientId: string
      readonly assertion: () => string
      readonly scope?: string | undefined
    }
  ) {}

  get redirectUrl(): undefined {
    return undefined
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "mcpctl",
      redirect_uris: [],
      grant_types: [JWT_BEARER_GRANT],
      token_endpoint_auth_method: "none",
      ...(this.options.scope ? { scope: this.options.scope } : {})
    }
  }

  clientInformation(): StoredOAuthClientInformation {
    return { client_id: this.options.clientId }
  }

  tokens(): StoredOAuthTokens | undefined {
    return this.stored
  }

  saveTokens(tokens: StoredOAuthTokens): void {
    this.stored = tokens
  }

  redirectToAuthorization(): void {
    throw new Error("jwt-bearer has no browser step")
  }

  saveCodeVerifier(): void {}

  codeVerifier(): string {
    throw new Error("jwt-bearer has no PKCE verifier")
  }

  prepareTokenRequest(scope?: string): URLSearchParams {
    const params = new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion: this.options.assertion() })
    const wanted = scope ?? this.options.scope
    if (wanted) params.set("scope", wanted)
    return params
  }
}

/** The provider of a machine grant mode, or undefined when the settings lack what it needs. */
export const grantProvider = (oauth: OAuthOptions | undefined): OAuthClientProvider | undefined => {
  if (!oauth?.clientId) return undefined
  const scope = oauth.scopes?.join(" ")
  switch (oauth.grantType) {
    case "client_credentials": {
      if (oauth.privateKeyFile) {
        return new PrivateKeyJwtProvider({
          clientId: oauth.clientId,
          privateKey: readPrivateFileSync("private key", oauth.privateKeyFile),
          algorithm: oauth.signingAlgorithm ?? "ES256",
          clientName: "mcpctl",
          ...(scope ? { scope } : {})
        })
      }
      if (!oauth.clientSecret) return undefined
      return new ClientCredentialsProvider({
        clientId: oauth.clientId,
        clientSecret: oauth.clientSecret,
        clientName: "mcpctl",
        ...(scope ? { scope } : {})
      })
    }
    case "jwt-bearer":
      return new JwtBearerProvider({
        clientId: oauth.clientId,
        assertion: () => readSecret("workload assertion", oauth.assertionFile, oauth.assertionEnv),
        scope
      })
    case "cross-app-access": {
      const { idpTokenEndpoint, idpUrl, idpClientId } = oauth
      if (!oauth.clientSecret || !idpClientId || (!idpTokenEndpoint && !idpUrl)) return undefined
      return new CrossAppAccessProvider({
        clientId: oauth.clientId,
        clientSecret: oauth.clientSecret,
        clientName: "mcpctl",
        assertion: async (ctx) => {
          const request = {
            audience: ctx.authorizationServerUrl,
            resource: ctx.resourceUrl,
            idToken: readSecret("IdP ID token", oauth.idTokenFile, oauth.idTokenEnv),
            clientId: idpClientId,
            ...(oauth.idpClientSecret ? { clientSecret: oauth.idpClientSecret } : {}),
            ...(ctx.scope ? { scope: ctx.scope } : {}),
            fetchFn: ctx.fetchFn
          }
          const grant = idpTokenEndpoint
            ? await requestJwtAuthorizationGrant({ ...request, tokenEndpoint: idpTokenEndpoint })
            : await discoverAndRequestJwtAuthGrant({ ...request, idpUrl: idpUrl! })
          return grant.jwtAuthGrant
        }
      })
    }
    default:
      return undefined
  }
}

/**
 * `mcpctl auth NAME` for a grant mode: no browser, one token request, so a wrong setting shows
 * now (the token stays in memory). Missing settings are a `ConfigError`.
 */
export const grantSignIn = (server: ResolvedServer, remote: RemoteServerConfig, home: string, print: (line: string) => void) =>
  Effect.gen(function*() {
    const grant = remote.oauth?.grantType
    const provider = grantProvider(remote.oauth)
    if (!provider) {
      return yield* new ConfigError({
        message: `oauth.grantType "${grant}" of ${server.name} lacks a setting it needs (see docs/guide.md, "Authorization as MCP 2026-07-28 asks")`,
        file: server.source,
        path: `mcpServers.${server.originalName}.oauth`
      })
    }
    yield* Effect.tryPromise({ try: () => auth(provider, { serverUrl: remote.url, fetchFn: proxyFetch() }), catch: (e) => e }).pipe(
      Effect.catchAll((error) =>
        new ServerUnavailable({
          server: server.name,
          status: "needs-auth",
          message: redactSecrets(
            `the ${grant} grant of ${server.name} failed: ${error instanceof Error ? error.message : String(error)}`,
            [remote.oauth?.clientSecret, remote.oauth?.idpClientSecret].filter((x): x is string => x !== undefined)
          ),
          cause: error
        })
      )
    )
    yield* clearNeedsAuth(home, needsAuthKey(server), server.name)
    print(`${server.name} uses the ${grant} grant: a token was issued (kept in memory only, nothing to store).`)
  })
