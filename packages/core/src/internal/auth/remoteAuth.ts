/**
 * The implementation of `auth/SignIn.ts`'s `RemoteAuth`: the OAuth provider each remote transport
 * gets (stored tokens only, a machine grant, or one that records the server's challenge for an
 * inline sign-in), and what the last one of each server saw.
 */
import type {
  OAuthClientInformationContext,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation
} from "@modelcontextprotocol/client"
import * as Effect from "effect/Effect"
import { McpConfig } from "../../config/McpConfig.js"
import type { ResolvedServer } from "../../config/ServerConfig.js"
import { proxyFetch } from "../transport/Proxy.js"
import { makeProvider, remoteConfigOf } from "./OAuthFlow.js"
import { grantProvider } from "./Grants.js"
import { McpctlOAuthProvider } from "./TokenStore.js"

/** Stands in for a client registration while only finding out what a sign-in would ask for. */
const PROBE_CLIENT_ID = "mcpctl-challenge-probe"

/**
 * What the SDK would have asked the authorization server for, had it been allowed to.
 */
export interface Challenge {
  readonly scope: string | undefined
  readonly resourceMetadataUrl: URL | undefined
  /** The issuer the sign-in would go to: a repeated scope at another one is a move, not a loop. */
  readonly issuer?: string | undefined
}

/**
 * The transport's provider when inline sign-in is allowed. Like the non-interactive provider it
 * never opens a browser, but it lets the SDK run its discovery as far as the authorization URL,
 * and records the scope and resource metadata URL it would use. That is the only place the scope
 * of a step-up challenge (403 `insufficient_scope` on one request) is visible. No client is
 * registered on the way: a placeholder client stands in, and nothing of it is stored.
 */
export class ChallengeRecordingProvider extends McpctlOAuthProvider {
  /** Set when the SDK reached the authorization step. */
  challenge: Challenge | undefined = undefined
  private recordedDiscovery: OAuthDiscoveryState | undefined = undefined

  override async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return this.recordedDiscovery
  }

  override saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.recordedDiscovery = state
    super.saveDiscoveryState(state)
  }

  override async clientInformation(ctx?: OAuthClientInformationContext): Promise<StoredOAuthClientInformation | undefined> {
    return (await super.clientInformation(ctx)) ?? { client_id: PROBE_CLIENT_ID }
  }

  /**
   * SDK v2 stamps the client it is handed with the authorization server's issuer and saves it
   * back: the placeholder must not become the stored registration the real sign-in then uses.
   */
  override async saveClientInformation(info: StoredOAuthClientInformation, ctx?: OAuthClientInformationContext): Promise<void> {
    if (info.client_id === PROBE_CLIENT_ID) return
    await super.saveClientInformation(info, ctx)
  }

  override async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    if (scope === "all" || scope === "discovery") this.recordedDiscovery = undefined
    await super.invalidateCredentials(scope)
  }

  override async redirectToAuthorization(url: URL): Promise<void> {
    const metadataUrl = this.recordedDiscovery?.resourceMetadataUrl
    this.challenge = {
      scope: url.searchParams.get("scope") ?? undefined,
      resourceMetadataUrl: metadataUrl ? new URL(metadataUrl) : undefined,
      issuer: this.recordedDiscovery?.authorizationServerMetadata?.issuer ?? this.recordedDiscovery?.authorizationServerUrl
    }
    await super.redirectToAuthorization(url)
  }
}

/**
 * The provider of a server whose `oauth.grantType` needs no browser (`client_credentials`,
 * `jwt-bearer`, `cross-app-access`; Grants.ts), or undefined when its settings lack what it needs.
 */
export const clientCredentialsProvider = (server: ResolvedServer): OAuthClientProvider | undefined =>
  grantProvider(remoteConfigOf(server)?.oauth)

/**
 * Whether a server's OAuth is one of the grant modes without a browser.
 */
export const isMachineGrant = (server: ResolvedServer): boolean => {
  const grant = remoteConfigOf(server)?.oauth?.grantType
  return grant !== undefined && grant !== "authorization_code"
}

/**
 * Options of `RemoteAuth.layer`.
 */
export interface RemoteAuthOptions {
  /**
   * Whether a server that needs sign-in may get it inline (then the program retries). With it,
   * providers record each server's challenge for that sign-in; without it they only use and
   * refresh stored tokens, and a server that needs sign-in is reported `needs-auth`.
   */
  readonly inline: boolean
}

/** Builds the service for one run (`RemoteAuth`'s shape). */
export const make = (options: RemoteAuthOptions) =>
  Effect.gen(function*() {
    const { home } = yield* McpConfig
    const { inline } = options
    const last = new Map<string, McpctlOAuthProvider>()
    return {
      inline,
      providerFor: (server: ResolvedServer): OAuthClientProvider | undefined => {
        const remote = remoteConfigOf(server)
        if (!remote || remote.type === "ws") return undefined
        if (isMachineGrant(server)) return clientCredentialsProvider(server)
        const provider = inline
          ? new ChallengeRecordingProvider({
            home,
            serverName: server.name,
            serverUrl: remote.url,
            oauth: remote.oauth,
            clientMetadataUrl: remote.oauth?.clientMetadataUrl,
            fetchFn: proxyFetch()
          })
          : makeProvider(home, server)
        if (provider) last.set(server.name, provider)
        return provider
      },
      needsSignIn: (server: string): boolean => last.get(server)?.needsAuth === true,
      challengeOf: (server: string): Challenge | undefined => {
        const p = last.get(server)
        return p instanceof ChallengeRecordingProvider ? p.challenge : undefined
      }
    }
  })

