/**
 * Secrets never reach a terminal or a log: settings entries, URLs and OAuth error texts are
 * printed through these, which keep the shape (which keys exist) and hide the values. The one
 * redaction module of the host.
 */
// @ts-nocheck

import type { ResolvedServer } from "../../config/ServerConfig.js"

/** What a hidden value prints as. */
export const REDACTED = "REDACTED"

/** A URL with user info and every query value hidden (`?key=REDACTED`); non-URLs unchanged. */
export const redactUrl = (text: string): string => {
  try {
    const u = new URL(text)
    if (u.username) u.username = REDACTED
    if (u.password) u.password = REDACTED
    for (const key of [...new Set(u.searchParams.keys())]) u.searchParams.set(key, REDACTED)
    return u.toString()
  } catch {
    return text
  }
}

/**
 * Every URL inside a free text (an error message from the SDK or fetch quotes the URL it failed
 * on) with its secrets hidden; the path too, since tokens travel in paths (`/mcp/<token>`).
 */
export const redactText = (text: string): string =>
  text.replace(/\b(?:https?|wss?):\/\/[^\s"'<>]+/gi, (match) => {
    // Sentence punctuation after a URL is not part of it.
    const url = match.replace(/[.,;:!?)\]]+$/, "")
    try {
      const u = new URL(redactUrl(url))
      const shown = u.pathname.length > 1 ? `${u.origin}/${REDACTED}${u.search}` : u.toString()
      return shown + match.slice(url.length)
    } catch {
      return match
    }
  })

/** `${VAR}` / `${VAR:-default}` references in a value as written. */
const REFERENCE = /\$\{[A-Za-z_][A-Za-z0-9_]*(?::-[^}]*)?\}/g

/**
 * A value as written, fit to print: `${VAR}` references stay (they name where the secret comes
 * from, not what it is), so do the words around them that are no secret (`Bearer`); any other
 * literal text, and a reference's default, is hidden (pure).
 */
export const redactValue = (value: string): string => {
  const literal = value.replace(REFERENCE, " ").trim()
  if (!value.includes("${") || !/^(?:(?:Bearer|Basic|Token|Bot)\b)?$/i.test(literal)) return REDACTED
  return value.replace(REFERENCE, (ref) => ref.replace(/:-[^}]*\}$/, `:-${REDACTED}}`))
}

/**
 * A server's URL for a message: the URL as written in the settings (`${VAR}`s unexpanded, so a
 * token that came from a variable never shows), with only what looks secret hidden: a password,
 * a user name, path segment or query value that is a token on its face (long, letters and
 * digits), and the value of a query parameter whose name says secret (`key`, `token`, `sig`, …).
 * `http://127.0.0.1:3998/mcp` shows as written. A URL that does not parse shows only its scheme
 * (`https://REDACTED`), since a value spliced into it could be anywhere. `path: true` (`get`): user
 * info and every query value hidden, the path kept.
 */
export const displayUrl = (server: ResolvedServer, options: { readonly path?: boolean } = {}): string => {
  const written = (server.rawConfig ?? server.config) as { readonly url?: unknown }
  const url = typeof written.url === "string" ? written.url : ""
  try {
    // `get` (`path: true`) shows the entry with user info and every query value hidden.
    const u = new URL(options.path === true ? redactUrl(url) : url)
    return options.path === true ? u.toString() : maskUrlSecrets(url)
  } catch {
    const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:/.exec(url)?.[0]
    return `${scheme ?? ""}${scheme ? "//" : ""}${REDACTED}`
  }
}

/** Query parameter names whose values are secrets. */
const SECRET_PARAM = /key|token|secret|passw|pwd|auth|credential|bearer|cookie|session|sig|jwt|code/i

const decoded = (text: string) => {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/** A value that is a secret on its face: a known token shape, or long with letters and digits. */
const looksSecret = (raw: string): boolean => {
  const value = decoded(raw)
  if (isReference(value) || value === "") return false
  return SECRET_VALUE.test(value) || (value.length >= 20 && /[0-9]/.test(value) && /[A-Za-z]/.test(value))
}

/** A URL's text with only its secret-looking parts hidden (pure; see {@link displayUrl}). */
export const maskUrlSecrets = (url: string): string => {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)(?:([^@/?#]*)@)?([^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?$/.exec(url)
  if (m === null) return url
  const [, scheme, userinfo, host, path, query, hash] = m
  let out = scheme!
  if (userinfo !== undefined) {
    const colon = userinfo.indexOf(":")
    const user = colon < 0 ? userinfo : userinfo.slice(0, colon)
    const password = colon < 0 ? undefined : userinfo.slice(colon + 1)
    out += looksSecret(user) ? REDACTED : user
    if (password !== undefined) out += `:${password === "" || isReference(decoded(password)) ? password : REDACTED}`
    out += "@"
  }
  out += host
  out += path!.split("/").map((segment) => (looksSecret(segment) ? REDACTED : segment)).join("/")
  if (query !== undefined) {
    out += "?" + query.slice(1).split("&").map((pair) => {
      const eq = pair.indexOf("=")
      if (eq < 0) return looksSecret(pair) ? REDACTED : pair
      const key = pair.slice(0, eq)
      const value = pair.slice(eq + 1)
      return value === "" || isReference(decoded(value)) || !(SECRET_PARAM.test(decoded(key)) || looksSecret(value)) ? pair : `${key}=${REDACTED}`
    }).join("&")
  }
  return out + (hash ?? "")
}

/** Secret-looking option names in a command line (`--api-key`, `--token`, `--password`, …). */
const SECRET_FLAG = /^-{1,2}[A-Za-z0-9_-]*(?:key|token|secret|passw(?:or)?d|pwd|auth|credential|bearer|cookie|session)[A-Za-z0-9_-]*$/i

/** Values that are tokens on their face (GitHub, OpenAI/Anthropic, Slack, AWS, JWTs, bearer strings). */
const SECRET_VALUE = /^(?:gh[pousr]_[A-Za-z0-9]{16,}|github_pat_\w{20,}|sk-[A-Za-z0-9_-]{16,}|xox[abposr]-[A-Za-z0-9-]{10,}|AKIA[A-Z0-9]{16}|eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*|Bearer\s+\S+)$/

/** A `${VAR}` reference shows which variable, never a value: kept as written. */
const isReference = (value: string) => /^\$\{[A-Za-z_][A-Za-z0-9_]*(?::-[^}]*)?\}$/.test(value)

/**
 * A command line fit to print (pure): the value of a secret-looking option (`--api-key=…`,
 * `--token …`), a value that is a token on its face, and URL secrets hidden; `${VAR}` references kept.
 */
export const redactArgs = (args: ReadonlyArray<string>): Array<string> =>
  args.map((arg, i) => {
    const eq = arg.indexOf("=")
    if (arg.startsWith("-") && eq > 0 && SECRET_FLAG.test(arg.slice(0, eq))) {
      const value = arg.slice(eq + 1)
      return isReference(value) ? arg : `${arg.slice(0, eq)}=${REDACTED}`
    }
    const previous = args[i - 1]
    if (previous !== undefined && !arg.startsWith("-") && previous.indexOf("=") < 0 && SECRET_FLAG.test(previous) && !isReference(arg)) {
      return REDACTED
    }
    if (SECRET_VALUE.test(arg)) return REDACTED
    return /^[a-z][a-z0-9+.-]*:\/\//i.test(arg) ? redactUrl(arg) : arg
  })

const hideValues = (record: unknown): Record<string, string> | undefined =>
  record && typeof record === "object"
    ? Object.fromEntries(Object.entries(record).map(([k, v]) => [k, typeof v === "string" ? redactValue(v) : REDACTED]))
    : undefined

/** A server entry fit to print: env and header values, URL secrets and the OAuth client secret hidden. */
export const redactServerConfig = (server: ResolvedServer): Record<string, unknown> => {
  // As written: a value that came from `${VAR}` shows as `${VAR}`, not as the secret.
  const c = (server.rawConfig ?? server.config) as Record<string, unknown>
  const oauth = c.oauth as Record<string, unknown> | undefined
  return {
    ...c,
    ...(Array.isArray(c.args) ? { args: redactArgs(c.args as Array<string>) } : {}),
    ...(c.env ? { env: hideValues(c.env) } : {}),
    ...(c.headers ? { headers: hideValues(c.headers) } : {}),
    ...(typeof c.url === "string" ? { url: displayUrl(server, { path: true }) } : {}),
    ...(oauth?.clientSecret ? { oauth: { ...oauth, clientSecret: REDACTED } } : {})
  }
}

/**
 * Replaces every known secret in `text` with `[redacted]`, plus anything that looks like a
 * token field (`"access_token":"…"`, `Bearer …`), because SDK errors may quote raw response
 * bodies and those must not reach a terminal or a log.
 */
export const redactSecrets = (text: string, secrets: ReadonlyArray<string | undefined> = []): string => {
  let out = text
  for (const s of secrets) {
    if (s && s.length >= 4) out = out.split(s).join("[redacted]")
  }
  return out
    .replace(/("?(?:access_token|refresh_token|id_token|client_secret|code_verifier)"?\s*[:=]\s*"?)[^"&\s,}]+/gi, "$1[redacted]")
    .replace(/(Bearer\s+)[A-Za-z0-9._~+/=-]+/g, "$1[redacted]")
}
