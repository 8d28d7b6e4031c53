/**
 * Secrets never reach a terminal or a log: settings entries, URLs and OAuth error texts are
 * printed through these, which keep the shape (which keys exist) and hide the values. The one
 * redaction module of the host.
 */
import type { ResolvedServer } from "./config/ServerConfig.js"

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
    ...(c.env ? { env: hideValues(c.env) } : {}),
    ...(c.headers ? { headers: hideValues(c.headers) } : {}),
    ...(typeof c.url === "string" ? { url: redactUrl(c.url) } : {}),
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
