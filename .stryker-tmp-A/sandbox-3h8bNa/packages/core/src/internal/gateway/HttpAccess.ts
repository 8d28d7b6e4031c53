/**
 * Who may use `serve --http`, and how much they may send: the gateway runs the user's tools with
 * the user's rights, and 127.0.0.1 is reachable by every local user (and, through DNS
 * rebinding, by web pages). So every request carries a bearer token that only the user has —
 * random per run, printed once and written 0600 under `$MCPCTL_HOME/run/`, or read from a
 * `--token-file` only its owner can read — or the gateway listens on a Unix socket of mode 0600
 * instead of a port. Bodies are read up to one limit, and only the exact endpoint path is served.
 */
// @ts-nocheck

import { randomBytes, timingSafeEqual } from "node:crypto"
import * as fs from "node:fs/promises"
import type { IncomingMessage } from "node:http"
import * as Path from "node:path"
import { privateDir, writeFileAtomic } from "../files.js"

/** The one path the gateway serves. */
export const ENDPOINT_PATH = "/mcp"

/** Largest request body read, in bytes (the SDK's own default, applied to every body). */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024

/** A fresh bearer token: 32 random bytes, base64url. */
export const newToken = (): string => randomBytes(32).toString("base64url")

/** Whether a request's path is exactly the endpoint (no prefix matches, no trailing `/`), query aside (pure). */
export const isEndpoint = (url: string | undefined): boolean => {
  if (url === undefined) return false
  const path = url.split(/[?#]/, 1)[0]!
  return path === ENDPOINT_PATH
}

/** Where `serve --http` listens: a host (default 127.0.0.1) and a port. */
export interface ListenAddress {
  readonly host: string
  readonly port: number
}

/**
 * Parses `[HOST:]PORT` (`8080`, `0.0.0.0:8080`, `[::]:8080`, `localhost:0`) (pure); a message
 * saying what is wrong otherwise.
 */
export const parseListen = (text: string): ListenAddress | string => {
  const m = /^(?:(\[[0-9A-Fa-f:.]+\]|[^:[\]]+):)?(\d{1,5})$/.exec(text.trim())
  const port = m ? Number(m[2]) : NaN
  if (!m || port > 65535) return `"${text}" is not [HOST:]PORT (a port is a number from 0 to 65535; 0: any free port)`
  const host = m[1] === undefined ? "127.0.0.1" : m[1].replace(/^\[(.*)\]$/, "$1")
  return { host, port }
}

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "::1", "[::1]"])

/** Whether a host name or address is loopback: `localhost`, `127.x.x.x`, `::1` (pure). */
export const isLoopbackHost = (host: string): boolean => {
  const h = host.toLowerCase()
  return LOOPBACK_NAMES.has(h) || /^127(\.\d{1,3}){3}$/.test(h) || h === "::ffff:127.0.0.1"
}

/** The host name of a `Host` header or an origin's authority, without its port, lower case (pure). */
const hostName = (authority: string): string => {
  const a = authority.toLowerCase()
  if (a.startsWith("[")) return a.slice(0, a.indexOf("]") + 1)
  const colon = a.lastIndexOf(":")
  return colon === -1 ? a : a.slice(0, colon)
}

const isIpLiteral = (name: string): boolean => /^\d{1,3}(\.\d{1,3}){3}$/.test(name) || name.startsWith("[")

/** Which Host (and Origin) names a listener answers. */
export interface HostPolicy {
  /** The listener is on a loopback address (the default 127.0.0.1). */
  readonly loopback: boolean
  /** `--allowed-host`: names a proxy presents (`mcp.example.com`, or `mcp.example.com:8443` for that port only). */
  readonly allowedHosts?: ReadonlyArray<string> | undefined
}

/** Whether one authority (`name[:port]`) passes the policy (pure). */
const authorityAllowed = (authority: string, policy: HostPolicy): boolean => {
  const name = hostName(authority)
  for (const allowed of policy.allowedHosts ?? []) {
    const a = allowed.toLowerCase()
    if (a === authority.toLowerCase() || (!a.includes(":") || a.endsWith("]")) && a === name) return true
  }
  // A loopback name on any port: what a client on this machine (or a port forward) sends. A
  // DNS-rebinding page sends its own host name, never one of these.
  if (policy.loopback) return isLoopbackHost(name)
  // Off loopback (a token is required there) a client may also name the machine by address:
  // a rebinding page always has a DNS name.
  return isLoopbackHost(name) || isIpLiteral(name)
}

/**
 * Whether a request's Host (and Origin, when there is one) may be answered (pure): anything
 * else may be a web page reaching the listener through DNS rebinding.
 */
export const isAllowedRequest = (host: string | undefined, origin: string | undefined, policy: HostPolicy): boolean => {
  if (host === undefined || host === "" || !authorityAllowed(host, policy)) return false
  if (origin === undefined) return true
  const m = /^https?:\/\/([^/]+)$/i.exec(origin)
  return m !== null && authorityAllowed(m[1]!, policy)
}

/** Whether an `Authorization` header carries `token` as a bearer token, compared in constant time (pure). */
export const hasBearer = (header: string | undefined, token: string): boolean => {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "")
  if (!m) return false
  const given = Buffer.from(m[1]!), wanted = Buffer.from(token)
  return given.length === wanted.length && timingSafeEqual(given, wanted)
}

/** The body of a request, or why it was refused. */
export type Body =
  | { readonly _tag: "Json"; readonly value: unknown }
  | { readonly _tag: "Invalid" }
  | { readonly _tag: "TooLarge" }

/**
 * Reads a request body up to `maxBytes`: a declared `Content-Length` over the limit is refused
 * before reading, and reading stops (the request is drained no further) once the limit is passed,
 * so a client cannot make the gateway hold more than one limit per request.
 */
export const readBody = (req: IncomingMessage, maxBytes: number): Promise<Body> =>
  new Promise((resolve) => {
    if (Number(req.headers["content-length"]) > maxBytes) return resolve({ _tag: "TooLarge" })
    const chunks: Array<Buffer> = []
    let size = 0
    let done = false
    const finish = (body: Body) => {
      if (done) return
      done = true
      resolve(body)
    }
    req.on("data", (c: Buffer) => {
      size += c.length
      if (size > maxBytes) {
        req.pause()
        req.removeAllListeners("data")
        return finish({ _tag: "TooLarge" })
      }
      chunks.push(c)
    })
    req.on("end", () => {
      try {
        finish({ _tag: "Json", value: JSON.parse(Buffer.concat(chunks).toString("utf8")) })
      } catch {
        finish({ _tag: "Invalid" })
      }
    })
    req.on("error", () => finish({ _tag: "Invalid" }))
  })

/** The JSON-RPC request ids of a body (a message or a batch): what closing its response cancels (pure). */
export const requestIds = (body: unknown): ReadonlyArray<string | number> =>
  (Array.isArray(body) ? body : [body]).flatMap((m) => {
    const id = (m as { id?: unknown; method?: unknown } | null)?.id
    return typeof (m as { method?: unknown } | null)?.method === "string" && (typeof id === "string" || typeof id === "number")
      ? [id]
      : []
  })

/** Where `serve --http PORT` writes its token: `$MCPCTL_HOME/run/serve-<port>.token`. */
export const runTokenFile = (home: string, port: number): string => Path.join(home, "run", `serve-${port}.token`)

/** Writes the run's token 0600 under `$MCPCTL_HOME/run/` (a private directory, no symlink followed). */
export const writeRunToken = async (home: string, port: number, token: string): Promise<string> => {
  const file = runTokenFile(home, port)
  await privateDir(home, "run")
  await writeFileAtomic(file, token + "\n")
  return file
}

/**
 * Reads a `--token-file`: refused, like ssh refuses a private key, when group or others may read
 * it, and when the token is too short to guess at.
 */
export const readTokenFile = async (file: string): Promise<string> => {
  const stat = await fs.stat(file)
  if (process.platform !== "win32" && (stat.mode & 0o077) !== 0) {
    throw new Error(
      `${file} is readable or writable by others (mode ${(stat.mode & 0o777).toString(8)}); ` +
        `a token file must be private to you. Run \`chmod 600 ${file}\`.`
    )
  }
  const token = (await fs.readFile(file, "utf8")).trim()
  if (token.length < 16 || /\s/.test(token)) {
    throw new Error(`${file} must hold one token of at least 16 characters (no spaces).`)
  }
  return token
}
