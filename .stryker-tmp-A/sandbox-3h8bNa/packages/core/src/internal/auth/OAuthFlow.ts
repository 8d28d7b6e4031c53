/**
 * OAuth for remote servers: the SDK's `auth()` does discovery, registration, PKCE, refresh and
 * the code exchange; this module supplies what it leaves to the host — where credentials live
 * (`TokenStore`), whether a browser may be opened, and the loopback callback of `mcpctl auth`.
 *
 * Two modes, one provider class: during `servers`/`tools`/`call` nothing may open a browser, so
 * the provider only records that sign-in is needed (the SDK then throws `UnauthorizedError` and
 * the pool reports `needs-auth`); `signIn` runs the interactive authorization-code flow.
 */
// @ts-nocheck

import { auth, extractWWWAuthenticateParams, IssuerMismatchError } from "@modelcontextprotocol/client"
import * as Console from "effect/Console"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import { spawn } from "node:child_process"
import * as fs from "node:fs/promises"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import type { RemoteServerConfig, ResolvedServer } from "../../config/ServerConfig.js"
import { sanitize } from "../Sanitize.js"
import { ConfigError, ServerUnavailable } from "../../Errors.js"
import { clearNeedsAuth, needsAuthKey } from "../pool/NeedsAuthCache.js"
import { displayUrl, redactSecrets } from "../config/Redact.js"
import { networkFailure } from "../transport/TransportErrors.js"
import { proxyFetch } from "../transport/Proxy.js"
import { grantSignIn } from "./Grants.js"
import {
  deleteStored,
  loopbackRedirectUrl,
  McpctlOAuthProvider,
  storeFile
} from "./TokenStore.js"

/** Default bound on waiting for the browser to come back to the callback (5 minutes). */
export const DEFAULT_SIGN_IN_TIMEOUT_MS = 5 * 60 * 1000

/** The remote part of a server's config, or undefined for stdio (OAuth does not apply). */
export const remoteConfigOf = (server: ResolvedServer): RemoteServerConfig | undefined =>
  "url" in server.config ? (server.config as RemoteServerConfig) : undefined

/**
 * The provider the transport of a remote server gets during `servers`/`tools`/`call`: it uses and
 * refreshes stored tokens but never opens a browser (check `needsAuth` after a failed connect).
 */
export const makeProvider = (home: string, server: ResolvedServer): McpctlOAuthProvider | undefined => {
  const remote = remoteConfigOf(server)
  if (!remote || remote.type === "ws") return undefined
  return new McpctlOAuthProvider({ home, serverName: server.name, serverUrl: remote.url, oauth: remote.oauth, fetchFn: proxyFetch() })
}

// ---------------------------------------------------------------------------------------------
// Opening URLs
// ---------------------------------------------------------------------------------------------

/**
 * The opener for a platform when `$BROWSER` is unset: a command and its leading arguments, run
 * without a shell everywhere. On Windows `cmd /c start` would parse the URL as a command line
 * (`&` in a server's URL runs a command): `rundll32 url.dll,FileProtocolHandler` hands the URL to
 * its registered handler as one argument.
 */
export const platformOpener = (platform: NodeJS.Platform = process.platform): ReadonlyArray<string> =>
  platform === "darwin" ? ["open"] : platform === "win32" ? ["rundll32.exe", "url.dll,FileProtocolHandler"] : ["xdg-open"]

/**
 * The command line that opens `url`: `$BROWSER` split on whitespace with the URL appended (the
 * conformance suite sets it to a redirect follower), else the platform opener.
 */
export const openerCommand = (url: string, browser: string | undefined, platform?: NodeJS.Platform): ReadonlyArray<string> => {
  const fromEnv = (browser ?? "").trim().split(/\s+/).filter((s) => s.length > 0)
  return [...(fromEnv.length > 0 ? fromEnv : platformOpener(platform)), url]
}

/** Whether a URL may be handed to a browser, and the normalized form to hand it over as. */
export type UrlVerdict =
  | { readonly ok: true; readonly url: string }
  | { readonly ok: false; readonly reason: string }

const isLoopbackHost = (hostname: string): boolean =>
  hostname === "localhost" || hostname === "[::1]" || /^127(?:\.\d{1,3}){3}$/.test(hostname)

/**
 * The only URLs mcpctl opens (pure): `https:`, and `http:` on a loopback host (local sign-in
 * pages). A server chooses these URLs: a string starting with `-` would reach the browser's
 * command line as an option, and `javascript:`, `file:` or a custom scheme would run or open
 * something on this machine. What is opened is the parsed URL's own serialization.
 */
export const checkUrlToOpen = (text: string): UrlVerdict => {
  if (/^\s*-/.test(text)) return { ok: false, reason: "it starts with \"-\", so a browser would read it as an option" }
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f-\u009f]/.test(text)) return { ok: false, reason: "it contains spaces or control characters" }
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return { ok: false, reason: "it is not a URL" }
  }
  if (url.protocol === "https:") return { ok: true, url: url.href }
  if (url.protocol === "http:" && isLoopbackHost(url.hostname)) return { ok: true, url: url.href }
  return {
    ok: false,
    reason: url.protocol === "http:"
      ? "plain http: is opened only on 127.0.0.1 or localhost"
      : `only https: URLs are opened, not ${url.protocol}`
  }
}

/**
 * Starts the opener detached, output ignored and unref'd: it must not keep mcpctl alive, and it is
 * never killed (a `$BROWSER` redirect follower has to live until it has hit the callback).
 * A missing opener is not an error: the URL is printed anyway. A URL that
 * {@link checkUrlToOpen} refuses is never opened; why is written to stderr.
 */
export const openInBrowser = (url: string): Effect.Effect<void> =>
  Effect.suspend(() => {
    const verdict = checkUrlToOpen(url)
    if (!verdict.ok) return Console.error(`mcpctl: not opening ${sanitize(url, { multiline: false })}: ${verdict.reason}.`)
    return Effect.sync(() => {
      const [command, ...args] = openerCommand(verdict.url, process.env.BROWSER)
      try {
        const child = spawn(command!, args, { detached: true, stdio: "ignore", windowsHide: true, shell: false })
        child.on("error", () => undefined)
        child.unref()
      } catch {
        // no opener: the printed URL is the fallback
      }
    })
  })

// ---------------------------------------------------------------------------------------------
// Loopback callback
// ---------------------------------------------------------------------------------------------

/** What the browser brought back to `/callback`. */
export type CallbackResult =
  | {
    readonly _tag: "Code"
    readonly code: string
    readonly state: string | undefined
    /** RFC 9207 `iss`: which authorization server sent the browser back, checked before the exchange. */
    readonly iss: string | undefined
  }
  | { readonly _tag: "Error"; readonly error: string; readonly description: string | undefined }

/** Reads a callback request URL; undefined when it is not an OAuth answer (favicon, probes). */
export const parseCallback = (requestUrl: string): CallbackResult | undefined => {
  const url = new URL(requestUrl, "http://127.0.0.1")
  if (url.pathname !== "/callback") return undefined
  const error = url.searchParams.get("error")
  if (error !== null) {
    return { _tag: "Error", error, description: url.searchParams.get("error_description") ?? undefined }
  }
  const code = url.searchParams.get("code")
  return code === null
    ? undefined
    : { _tag: "Code", code, state: url.searchParams.get("state") ?? undefined, iss: url.searchParams.get("iss") ?? undefined }
}

const page = (title: string, body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head>` +
  `<body style="font-family:sans-serif;margin:3em"><h1>${title}</h1><p>${body}</p></body></html>`

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** A listening callback server and the first OAuth answer it receives. */
interface CallbackServer {
  readonly port: number
  readonly result: Deferred.Deferred<CallbackResult>
}

const callbackServer = (serverName: string, port: number) =>
  Effect.gen(function*() {
    const result = yield* Deferred.make<CallbackResult>()
    const server = yield* Effect.acquireRelease(
      Effect.async<http.Server, ServerUnavailable>((resume) => {
        const srv = http.createServer((req, res) => {
          const answer = parseCallback(req.url ?? "/")
          if (!answer) {
            res.writeHead(404, { "content-type": "text/plain" }).end("not found")
            return
          }
          const html = answer._tag === "Code"
            ? page("Signed in", `mcpctl is signed in to ${escapeHtml(serverName)}. You can close this tab.`)
            : page("Sign-in failed", escapeHtml(answer.description ?? answer.error))
          res.writeHead(answer._tag === "Code" ? 200 : 400, { "content-type": "text/html; charset=utf-8" }).end(html)
          Deferred.unsafeDone(result, Exit.succeed(answer))
        })
        srv.once("error", (e: NodeJS.ErrnoException) =>
          resume(Effect.fail(
            new ServerUnavailable({
              server: serverName,
              status: "needs-auth",
              message: `cannot listen for the OAuth callback on 127.0.0.1:${port} (${e.code ?? e.message}); ` +
                `free the port or change oauth.callbackPort of ${serverName}`
            })
          )))
        srv.listen(port, "127.0.0.1", () => resume(Effect.succeed(srv)))
      }),
      (srv) =>
        Effect.async<void>((resume) => {
          srv.close(() => resume(Effect.void))
          srv.closeAllConnections()
        })
    )
    return { port: (server.address() as AddressInfo).port, result } satisfies CallbackServer
  })

// ---------------------------------------------------------------------------------------------
// Sign-in and logout
// ---------------------------------------------------------------------------------------------

/** A value a server chose, fit for one line of a message: sanitized, quoted, bounded. */
const quoted = (value: string | undefined): string =>
  value === undefined ? "none" : JSON.stringify(sanitize(value.length > 200 ? `${value.slice(0, 200)}…` : value, { multiline: false }))

/**
 * The refusal of an issuer check (pure): which server, which issuer was expected, which one came.
 * Both checks are mix-up defenses, so the sign-in stops; nothing the callback carried is used.
 */
export const issuerMismatchMessage = (serverName: string, error: IssuerMismatchError): string =>
  error.kind === "metadata"
    ? `OAuth sign-in to ${serverName} refused: the authorization server metadata names issuer ${quoted(error.received)}, ` +
      `but it was fetched for issuer ${quoted(error.expected)} (RFC 8414 §3.3); its endpoints are not used`
    : `OAuth sign-in to ${serverName} refused: the authorization response came back with issuer ${quoted(error.received)}, ` +
      `expected ${quoted(error.expected)} (RFC 9207); the authorization code was not exchanged`

/** Options of `signIn`. */
export interface SignInOptions {
  /** `$MCPCTL_HOME`. */
  readonly home: string
  /** Opens the authorization URL; default `openInBrowser` (`$BROWSER`, else the platform opener). */
  readonly openUrl?: ((url: string) => Effect.Effect<void>) | undefined
  /** Where user-facing lines go (the URL is always printed, for headless use). */
  readonly print: (line: string) => void
  /** Bound on waiting for the browser, ms; default 5 minutes. */
  readonly timeoutMs?: number | undefined
  /** Drop stored tokens first, so a refresh token cannot stand in for a new browser sign-in. */
  readonly force?: boolean | undefined
  /** An HTTPS client ID metadata document URL to offer servers that support SEP-991. */
  readonly clientMetadataUrl?: string | undefined
  /**
   * What a failed request's own challenge asked for (scope, resource metadata URL), when the
   * caller saw it: a step-up `insufficient_scope` on `tools/call` is invisible to the probe,
   * which only replays `initialize`. Given, it replaces the probe.
   */
  readonly challenge?: { readonly scope?: string | undefined; readonly resourceMetadataUrl?: URL | undefined } | undefined
}

/** What probing the server without credentials found: its answer, or why there was none. */
type Probe =
  | {
    readonly _tag: "Answered"
    readonly status: number
    readonly hints: { readonly scope?: string | undefined; readonly resourceMetadataUrl?: URL | undefined }
  }
  | { readonly _tag: "Unreachable"; readonly reason: string }

/**
 * What the server's 401 says (RFC 9728 `resource_metadata`, the scope it wants), so sign-in
 * discovers the same way the transport would; and whether it answered at all, so a refused
 * connection or a DNS failure is said in words instead of surfacing as an OAuth error, naming
 * the host of `shown` (the URL as written: displayUrl).
 */
const probeChallenge = (url: string, sse: boolean, shown: string): Effect.Effect<Probe> =>
  Effect.tryPromise({
    try: async (signal): Promise<Probe> => {
      const res = await proxyFetch()(url, sse
        ? { method: "GET", headers: { accept: "text/event-stream" }, signal }
        : {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 0,
            method: "initialize",
            params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "mcpctl", version: "0" } }
          }),
          signal
        })
      await res.body?.cancel().catch(() => undefined)
      const hints = res.status === 401 || res.status === 403 ? extractWWWAuthenticateParams(res) : {}
      return { _tag: "Answered", status: res.status, hints }
    },
    catch: (cause) => cause
  }).pipe(
    Effect.timeoutFail({ duration: Duration.seconds(10), onTimeout: () => "timeout" as const }),
    Effect.catchAll((cause) => {
      const reason = cause === "timeout" ? `${hostOf(shown)} did not answer within 10 s` : networkFailure(cause, shown)
      return Effect.succeed<Probe>(reason ? { _tag: "Unreachable", reason } : { _tag: "Answered", status: 0, hints: {} })
    })
  )

const hostOf = (url: string) => {
  try {
    return new URL(url).host
  } catch {
    // Never the text itself: a value spliced in from a variable could be anywhere in it.
    return "the server"
  }
}

/** The failure under an Effect wrapper (UnknownException), so its own message is the one shown. */
const unwrap = (error: unknown): unknown =>
  error instanceof Error && error.name === "UnknownException" && error.cause !== undefined ? error.cause : error

/** A stored dynamic registration whose redirect URIs do not include this sign-in's callback. */
const registeredForOtherRedirect = async (provider: McpctlOAuthProvider, redirectUrl: string): Promise<boolean> => {
  if (provider.preRegistered) return false
  const info = await provider.clientInformation()
  const uris = (info as { redirect_uris?: Array<string> } | undefined)?.redirect_uris
  return uris !== undefined && !uris.includes(redirectUrl)
}

/**
 * `mcpctl auth NAME`: refreshes stored tokens when it can, otherwise runs the authorization-code
 * flow through a loopback callback on 127.0.0.1 and the browser. Success clears the server's
 * needs-auth cache entry. Errors never contain a token or secret.
 */
export const signIn = Effect.fn("Auth.signIn")(function*(server: ResolvedServer, options: SignInOptions) {
  const remote = remoteConfigOf(server)
  if (!remote || remote.type === "ws") {
    return yield* new ConfigError({
      message: `${server.name} is a ${remote ? "WebSocket" : "stdio"} server; OAuth sign-in applies to http and sse servers`,
      file: server.source
    })
  }
  const port = remote.oauth?.callbackPort ?? 0
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    return yield* new ConfigError({
      message: `oauth.callbackPort of ${server.name} must be a port number (0-65535), got ${port}`,
      file: server.source,
      path: `mcpServers.${server.originalName}.oauth.callbackPort`
    })
  }
  if (remote.oauth?.grantType !== undefined && remote.oauth.grantType !== "authorization_code") {
    return yield* grantSignIn(server, remote, options.home, options.print)
  }
  const home = options.home
  const openUrl = options.openUrl ?? openInBrowser
  const timeoutMs = options.timeoutMs ?? DEFAULT_SIGN_IN_TIMEOUT_MS

  yield* Effect.scoped(Effect.gen(function*() {
    const callback = yield* callbackServer(server.name, port)
    const redirectUrl = loopbackRedirectUrl(callback.port)
    const opened: Array<URL> = []
    const provider = new McpctlOAuthProvider({
      home,
      serverName: server.name,
      serverUrl: remote.url,
      oauth: remote.oauth,
      redirectUrl,
      clientMetadataUrl: options.clientMetadataUrl,
      onRedirect: async (url) => void opened.push(url)
    })
    const probe: Probe = options.challenge
      ? { _tag: "Answered", status: 401, hints: options.challenge }
      : yield* probeChallenge(remote.url, remote.type === "sse", displayUrl(server))
    if (probe._tag === "Unreachable") {
      return yield* new ServerUnavailable({
        server: server.name,
        status: "failed",
        message: `Cannot sign in to ${server.name}: ${probe.reason}.`
      })
    }
    const fail = (what: string) => (failure: unknown) =>
      Effect.promise(() => provider.secrets()).pipe(
        Effect.flatMap((secrets): Effect.Effect<never, ServerUnavailable | ConfigError> => {
          const error = unwrap(failure)
          const said = error instanceof Error ? error.message : String(error)
          const unreachable = networkFailure(error, displayUrl(server))
          if (unreachable) {
            return new ServerUnavailable({
              server: server.name,
              status: "failed",
              message: `OAuth sign-in to ${server.name} failed while ${what}: ${unreachable}.`
            })
          }
          // It let us in without credentials and has no OAuth metadata: nothing to sign in to.
          if (probe.status >= 200 && probe.status < 300) {
            return new ConfigError({
              message: redactSecrets(
                `${server.name} needs no sign-in: it answered without credentials and offers no OAuth ` +
                  `authorization (${said}). A server that takes an API key gets it in "headers" of its entry in ${server.source}.`,
                secrets
              ),
              file: server.source
            })
          }
          return new ServerUnavailable({
            server: server.name,
            status: "needs-auth",
            message: redactSecrets(
              error instanceof IssuerMismatchError
                ? issuerMismatchMessage(server.name, error)
                : `OAuth sign-in to ${server.name} failed while ${what}: ${said}`,
              secrets
            ),
            cause: error
          })
        })
      )

    if (options.force) {
      yield* Effect.promise(() => provider.invalidateCredentials("tokens"))
    }
    const hints = probe.hints
    const scope = hints.scope ?? remote.oauth?.scopes?.join(" ")
    const base = {
      serverUrl: remote.url,
      ...(scope ? { scope } : {}),
      ...(hints.resourceMetadataUrl ? { resourceMetadataUrl: hints.resourceMetadataUrl } : {})
    }
    const run = (params: Parameters<typeof auth>[1], what: string) =>
      Effect.tryPromise({ try: () => auth(provider, { ...params, fetchFn: proxyFetch() }), catch: (e) => e }).pipe(
        Effect.catchAll(fail(what))
      )
    let first = yield* run(base, "discovering, registering or refreshing")
    // Refresh keeps the registration its token was issued to; only a browser flow needs a client
    // registered for this loopback port, which strict servers compare exactly.
    if (first === "REDIRECT" && (yield* Effect.promise(() => registeredForOtherRedirect(provider, redirectUrl)))) {
      yield* Effect.promise(() => provider.invalidateCredentials("client"))
      first = yield* run(base, "registering")
    }
    if (first === "REDIRECT") {
      const url = opened[opened.length - 1]!.toString()
      // The authorization server chose this URL: only a safe one is shown as a link and opened.
      const verdict = checkUrlToOpen(url)
      if (!verdict.ok) {
        return yield* new ServerUnavailable({
          server: server.name,
          status: "needs-auth",
          message: `the sign-in URL the authorization server of ${server.name} gave is not opened: ${verdict.reason}`
        })
      }
      options.print(`Open this URL to sign in to ${server.name}:\n  ${sanitize(verdict.url)}`)
      yield* openUrl(verdict.url)
      options.print(`Waiting for the browser on ${redirectUrl} …`)
      const answer = yield* Deferred.await(callback.result).pipe(
        Effect.timeoutFail({
          duration: Duration.millis(timeoutMs),
          onTimeout: () =>
            new ServerUnavailable({
              server: server.name,
              status: "needs-auth",
              message: `no answer from the browser within ${Math.round(timeoutMs / 1000)} s; run "mcpctl auth ${server.name}" again`
            })
        })
      )
      if (answer._tag === "Error") {
        return yield* new ServerUnavailable({
          server: server.name,
          status: "needs-auth",
          message: `the authorization server refused the sign-in to ${server.name}: ${
            answer.description ? `${answer.error}: ${answer.description}` : answer.error
          }`
        })
      }
      if (provider.expectedState !== undefined && answer.state !== provider.expectedState) {
        return yield* new ServerUnavailable({
          server: server.name,
          status: "needs-auth",
          message: `the OAuth callback for ${server.name} carried the wrong state (a stale or forged redirect); ` +
            `run "mcpctl auth ${server.name}" again`
        })
      }
      // The SDK compares `iss` with the issuer it discovered (exact string, RFC 9207 §2.4) before
      // the code is sent anywhere; absent `iss` is refused when the server advertises it.
      const second = yield* run(
        { ...base, authorizationCode: answer.code, ...(answer.iss !== undefined ? { iss: answer.iss } : {}) },
        "exchanging the authorization code"
      )
      if (second !== "AUTHORIZED") {
        return yield* new ServerUnavailable({
          server: server.name,
          status: "needs-auth",
          message: `${server.name} asked for another browser sign-in after the code exchange`
        })
      }
    }
    yield* clearNeedsAuth(home, needsAuthKey(server), server.name)
    options.print(`Signed in to ${server.name}.`)
  }))
})

/**
 * `mcpctl logout NAME`: forgets the server's tokens and dynamic registration. True when there
 * was something to forget.
 */
export const logout = Effect.fn("Auth.logout")(function*(home: string, server: ResolvedServer) {
  const remote = remoteConfigOf(server)
  if (!remote) {
    return yield* new ConfigError({ message: `${server.name} is a stdio server; it has no OAuth sign-in`, file: server.source })
  }
  return yield* Effect.promise(async () => {
    const existed = await fs.access(storeFile(home, remote.url)).then(() => true, () => false)
    await deleteStored(home, remote.url)
    return existed
  })
})
