/**
 * Corporate proxies: `HTTPS_PROXY`, `HTTP_PROXY` and `NO_PROXY` (lower-case spellings first, as
 * curl reads them) for every HTTP request mcpctl makes itself: remote servers (Streamable HTTP,
 * SSE) and OAuth endpoints. Node 20's `fetch` ignores these variables; a `dispatcher` from
 * undici's `EnvHttpProxyAgent` (undici 7, whose dispatchers Node 20's bundled undici 6 `fetch`
 * accepts) routes each request through the proxy its URL calls for, CONNECT for `https:`.
 * undici is loaded only when a proxy variable is set. stdio servers never inherit these
 * variables (ChildEnvironment.ts: their URLs often carry credentials); WebSocket servers connect
 * directly. Loopback targets (127.0.0.0/8, `localhost`, `*.localhost`, `::1`) never go through a
 * proxy, whatever `NO_PROXY` says: a local server or a sign-in callback on this machine is not
 * something a corporate proxy can reach, and sending it there would hand it local traffic.
 */
// @ts-nocheck

import type { FetchLike } from "@modelcontextprotocol/client"
import type { Env } from "../../config/ServerConfig.js"

/** The proxy variables in force, or undefined when no proxy is configured (pure). */
export interface ProxySettings {
  readonly httpProxy: string | undefined
  readonly httpsProxy: string | undefined
  readonly noProxy: string
}

const first = (env: Env, names: ReadonlyArray<string>): string | undefined => {
  for (const n of names) {
    const v = env[n]?.trim()
    if (v) return v
  }
  return undefined
}

/** Reads `http_proxy`/`HTTP_PROXY`, `https_proxy`/`HTTPS_PROXY` and `no_proxy`/`NO_PROXY` (pure). */
export function proxySettings(env: Env): ProxySettings | undefined {
  const httpProxy = first(env, ["http_proxy", "HTTP_PROXY"])
  const httpsProxy = first(env, ["https_proxy", "HTTPS_PROXY"])
  if (httpProxy === undefined && httpsProxy === undefined) return undefined
  return { httpProxy, httpsProxy, noProxy: first(env, ["no_proxy", "NO_PROXY"]) ?? "" }
}

/** Dispatchers made so far, one per distinct setting (normally one per process). */
const dispatchers = new Map<string, Promise<unknown>>()

const dispatcherFor = (settings: ProxySettings): Promise<unknown> => {
  const key = JSON.stringify(settings)
  let made = dispatchers.get(key)
  if (!made) {
    made = import("undici").then(({ EnvHttpProxyAgent }) =>
      new EnvHttpProxyAgent({
        // Set explicitly so the agent follows `env`, not whatever process.env holds later;
        // an https: URL without HTTPS_PROXY goes through HTTP_PROXY, as undici does.
        ...(settings.httpProxy !== undefined ? { httpProxy: settings.httpProxy } : {}),
        ...(settings.httpsProxy !== undefined ? { httpsProxy: settings.httpsProxy } : {}),
        noProxy: settings.noProxy
      })
    )
    dispatchers.set(key, made)
  }
  return made
}

/** Whether a request's target is this machine (pure): such requests never use a proxy. */
export const isLoopbackTarget = (input: string | URL | { readonly url: string }): boolean => {
  let host: string
  try {
    host = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url).hostname.toLowerCase()
  } catch {
    return false
  }
  return host === "localhost" || host.endsWith(".localhost") || host === "[::1]" || /^127(?:\.\d{1,3}){3}$/.test(host)
}

/** Whether NO_PROXY exempts a host (pure): `*`, or an entry equal to the host or a domain it is in. */
const exempt = (noProxy: string, host: string, port: string): boolean =>
  noProxy.split(/[\s,]+/).filter(Boolean).some((raw) => {
    const entry = raw.toLowerCase()
    if (entry === "*") return true
    const [name, entryPort] = entry.replace(/^\*?\./, ".").split(/:(?=\d+$)/)
    if (entryPort !== undefined && entryPort !== port) return false
    return name!.startsWith(".") ? host.endsWith(name!) || host === name!.slice(1) : host === name || host.endsWith(`.${name}`)
  })

/**
 * The proxy a request to `url` goes through under `env`, and the variable that named it; undefined
 * when it goes direct (no proxy variable, a loopback target, NO_PROXY). Messages use it to blame
 * the proxy rather than the server when the proxy is what refused.
 */
export const proxyFor = (url: string, env: Env = process.env): { readonly proxy: string; readonly variable: string } | undefined => {
  const settings = proxySettings(env)
  if (settings === undefined || isLoopbackTarget(url)) return undefined
  let target: URL
  try {
    target = new URL(url)
  } catch {
    return undefined
  }
  const secure = target.protocol === "https:" || target.protocol === "wss:"
  if (exempt(settings.noProxy, target.hostname.toLowerCase(), target.port || (secure ? "443" : "80"))) return undefined
  if (secure && settings.httpsProxy !== undefined) return { proxy: settings.httpsProxy, variable: "HTTPS_PROXY" }
  return settings.httpProxy !== undefined ? { proxy: settings.httpProxy, variable: "HTTP_PROXY" } : undefined
}

/**
 * A `fetch` that honours the proxy variables of `env` (read at each request, so a test or a
 * long-lived host sees changes); without any, it is the global `fetch` untouched.
 */
export const proxyFetch = (env: Env = process.env, baseFetch: typeof fetch = fetch): FetchLike => async (input, init) => {
  const settings = proxySettings(env)
  if (settings === undefined || isLoopbackTarget(input)) return baseFetch(input, init)
  const dispatcher = await dispatcherFor(settings)
  return baseFetch(input, { ...init, dispatcher } as RequestInit)
}
