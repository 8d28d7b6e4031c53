/**
 * A small OAuth authorization server + protected resource on 127.0.0.1 for the auth tests: RFC 9728
 * resource metadata, RFC 8414 metadata, dynamic registration, PKCE authorization code, refresh,
 * and the knobs the 2026-07-28 rules need: the `iss` of the authorization response (RFC 9207), the
 * metadata's `issuer`, the authorization servers the resource names (a move), `offline_access`,
 * DPoP proofs and nonces (RFC 9449), the jwt-bearer grant (RFC 7523) and an IdP token exchange
 * for cross-app access (RFC 8693).
 */
// @ts-nocheck

import * as Effect from "effect/Effect"
import { createHash } from "node:crypto"
import * as http from "node:http"
import type { AddressInfo } from "node:net"

export const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer"
export const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange"

/** The parts of a compact JWS (a DPoP proof), decoded, unverified. */
export const decodeJwt = (jwt: string): { header: Record<string, any>; payload: Record<string, any> } => {
  const [h, p] = jwt.split(".")
  return { header: JSON.parse(Buffer.from(h!, "base64url").toString()), payload: JSON.parse(Buffer.from(p!, "base64url").toString()) }
}

export interface FakeAsOptions {
  /** `issuer` of the metadata; default the server's own base URL. */
  issuer?: string | undefined
  /** `authorization_response_iss_parameter_supported`. */
  issSupported?: boolean
  /** `iss` on the redirect: the issuer (default), omitted, or this exact string. */
  issInRedirect?: "issuer" | "omit" | ((issuer: string) => string)
  /** Authorization servers the resource metadata names; default this server. */
  authorizationServers?: ReadonlyArray<string> | undefined
  /** Advertise `offline_access` in `scopes_supported`. */
  offlineAccess?: boolean
  /** Require DPoP proofs at /token (and issue `token_type: DPoP`); with a nonce challenge first. */
  dpop?: false | "proof" | "nonce"
  /** Make /authorize answer with error=access_denied. */
  deny?: boolean
  /** Make /token fail with a 500 whose body quotes the current tokens. */
  breakToken?: boolean
  /** Make a refresh fail with invalid_grant. */
  refuseRefresh?: boolean
  /** `expires_in` of issued tokens (default 1 s: every stored token is "expiring"). */
  expiresIn?: number
}

export interface FakeAs {
  readonly base: string
  readonly mcpUrl: string
  readonly counts: Record<string, number>
  readonly options: FakeAsOptions
  /** Every access and refresh token issued, in order. */
  readonly issued: Array<string>
  /** The client IDs registered here. */
  readonly registered: Array<string>
  /** Every /token request: its form and headers. */
  readonly tokenRequests: Array<{ form: URLSearchParams; headers: http.IncomingHttpHeaders }>
  /** Every /authorize request's query. */
  readonly authorizeRequests: Array<URLSearchParams>
  /** Every /idp/token request (cross-app access token exchange). */
  readonly idpRequests: Array<URLSearchParams>
  /** The headers of every request to the resource (/mcp). */
  readonly resourceRequests: Array<http.IncomingHttpHeaders>
  readonly close: () => Promise<void>
}

const body = (req: http.IncomingMessage) =>
  new Promise<string>((r) => {
    let s = ""
    req.on("data", (c) => (s += c))
    req.on("end", () => r(s))
  })

const json = (res: http.ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}) =>
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(value))

export const startFakeAs = (options: FakeAsOptions = {}): Promise<FakeAs> =>
  new Promise((resolve) => {
    const counts: Record<string, number> = {}
    const challenges = new Map<string, { challenge: string; redirect: string }>()
    const refreshTokens = new Set<string>()
    const issued: Array<string> = []
    const registered: Array<string> = []
    const tokenRequests: FakeAs["tokenRequests"] = []
    const authorizeRequests: Array<URLSearchParams> = []
    const idpRequests: Array<URLSearchParams> = []
    const resourceRequests: Array<http.IncomingHttpHeaders> = []
    const nonce = "nonce-1"
    let n = 0
    let base = ""
    const issuer = () => options.issuer ?? base
    const server = http.createServer(async (req, res) => {
      const url = new URL(req.url ?? "/", base)
      const key = url.pathname.startsWith("/.well-known/oauth-protected-resource") ? "prm" : url.pathname
      counts[key] = (counts[key] ?? 0) + 1
      if (key === "prm") {
        return json(res, 200, {
          resource: `${base}/mcp`,
          authorization_servers: options.authorizationServers ?? [base],
          scopes_supported: ["mcp"]
        })
      }
      if (url.pathname === "/.well-known/oauth-authorization-server") {
        return json(res, 200, {
          issuer: issuer(),
          authorization_endpoint: `${base}/authorize`,
          token_endpoint: `${base}/token`,
          registration_endpoint: `${base}/register`,
          response_types_supported: ["code"],
          grant_types_supported: ["authorization_code", "refresh_token", JWT_BEARER],
          code_challenge_methods_supported: ["S256"],
          token_endpoint_auth_methods_supported: ["none", "client_secret_basic"],
          ...(options.offlineAccess ? { scopes_supported: ["mcp", "offline_access"] } : {}),
          ...(options.issSupported !== undefined ? { authorization_response_iss_parameter_supported: options.issSupported } : {}),
          ...(options.dpop ? { dpop_signing_alg_values_supported: ["ES256"] } : {})
        })
      }
      if (url.pathname === "/mcp") {
        resourceRequests.push(req.headers)
        res.writeHead(401, {
          "www-authenticate": `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp", scope="mcp"`
        }).end()
        return
      }
      if (url.pathname === "/register") {
        const meta = JSON.parse(await body(req))
        const clientId = `client-${registered.length + 1}@${new URL(base).port}`
        registered.push(clientId)
        return json(res, 201, { ...meta, client_id: clientId, client_id_issued_at: 1 })
      }
      if (url.pathname === "/authorize") {
        authorizeRequests.push(url.searchParams)
        const redirect = url.searchParams.get("redirect_uri")!
        const target = new URL(redirect)
        if (options.deny) {
          target.searchParams.set("error", "access_denied")
          target.searchParams.set("error_description", "the user said no")
        } else {
          const code = `code-${++n}`
          challenges.set(code, { challenge: url.searchParams.get("code_challenge")!, redirect })
          target.searchParams.set("code", code)
        }
        const st = url.searchParams.get("state")
        if (st) target.searchParams.set("state", st)
        const iss = options.issInRedirect ?? "issuer"
        if (iss !== "omit") target.searchParams.set("iss", iss === "issuer" ? issuer() : iss(issuer()))
        res.writeHead(302, { location: target.toString() }).end()
        return
      }
      if (url.pathname === "/idp/token") {
        const form = new URLSearchParams(await body(req))
        idpRequests.push(form)
        if (form.get("grant_type") !== TOKEN_EXCHANGE || !form.get("subject_token")) return json(res, 400, { error: "invalid_request" })
        return json(res, 200, {
          issued_token_type: "urn:ietf:params:oauth:token-type:id-jag",
          access_token: `ID-JAG-for-${form.get("subject_token")}`,
          token_type: "N_A",
          expires_in: 300
        })
      }
      if (url.pathname === "/token") {
        const form = new URLSearchParams(await body(req))
        tokenRequests.push({ form, headers: req.headers })
        const grant = form.get("grant_type")
        counts[`token:${grant}`] = (counts[`token:${grant}`] ?? 0) + 1
        if (options.breakToken) {
          return res.writeHead(500).end(`internal error; last tokens were ${issued.join(" ")}`)
        }
        if (options.dpop) {
          const proof = req.headers["dpop"]
          if (typeof proof !== "string") return json(res, 400, { error: "invalid_dpop_proof", error_description: "no DPoP proof" })
          if (options.dpop === "nonce" && decodeJwt(proof).payload.nonce !== nonce) {
            return json(res, 400, { error: "use_dpop_nonce" }, { "dpop-nonce": nonce })
          }
        }
        const issue = () => {
          const access = `AT-${++n}-s3cr3t`
          const refresh = `RT-${n}-s3cr3t`
          refreshTokens.add(refresh)
          issued.push(access, refresh)
          return json(res, 200, {
            access_token: access,
            token_type: options.dpop ? "DPoP" : "Bearer",
            expires_in: options.expiresIn ?? 1,
            refresh_token: refresh,
            ...(form.get("scope") ? { scope: form.get("scope") } : {})
          })
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
        if (grant === "refresh_token" && !options.refuseRefresh && refreshTokens.has(form.get("refresh_token") ?? "")) {
          refreshTokens.delete(form.get("refresh_token")!)
          return issue()
        }
        if (grant === JWT_BEARER && form.get("assertion")) return issue()
        return json(res, 400, { error: "invalid_grant" })
      }
      res.writeHead(404).end()
    })
    server.listen(0, "127.0.0.1", () => {
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      resolve({
        get base() {
          return base
        },
        get mcpUrl() {
          return `${base}/mcp`
        },
        counts,
        options,
        issued,
        registered,
        tokenRequests,
        authorizeRequests,
        idpRequests,
        resourceRequests,
        close: () =>
          new Promise((r) => {
            server.close(() => r())
            server.closeAllConnections()
          })
      })
    })
  })

/** The fixture as a scoped resource. */
export const fakeAs = (options: FakeAsOptions = {}) =>
  Effect.acquireRelease(Effect.promise(() => startFakeAs(options)), (as) => Effect.promise(as.close))
