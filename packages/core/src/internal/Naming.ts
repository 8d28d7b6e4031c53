/**
 * Fully-qualified tool names (`mcp__<server>__<tool>`) and description limits. Pure functions:
 * the registry, permission rules, `serve` and the CLI must all agree on one spelling, so it lives
 * in exactly one place.
 */
import { createHash } from "node:crypto"

/** Every fully-qualified tool name starts with this, so rules and names can be told apart from other tools. */
export const PREFIX = "mcp__"

/** Separates the server part from the tool part; never occurs inside a normalized server name. */
export const SEPARATOR = "__"

/**
 * Longest fully-qualified name we hand out. Model APIs and many MCP hosts reject tool names above
 * 64 characters, and `serve` re-exports these names, so every name we build must fit.
 */
export const MAX_TOOL_NAME_LENGTH = 64

/** Hex characters of the hash that keeps shortened names unique. */
const HASH_LENGTH = 8

/**
 * Tool names keep their runs of `_` (unlike server names) so that `read__file` and `read_file`
 * stay two tools; anything outside `[A-Za-z0-9_-]` would break rule matching and model APIs.
 */
export const normalizeToolName = (name: string): string => name.replace(/[^A-Za-z0-9_-]/g, "_")

const shortHash = (text: string): string =>
  createHash("sha256").update(text).digest("hex").slice(0, HASH_LENGTH)

/**
 * The one name a tool is known by everywhere (catalogue, rules, `call`, `serve`). Names over 64
 * characters are cut and suffixed with a hash of the full name, so two long names that differ
 * only at their end stay distinct, and the same tool gets the same name on every run. The
 * `mcp__<server>__` prefix is kept whole whenever it leaves room, so server-level rules
 * (`mcp__<server>`, `mcp__<server>__*`) still match shortened names.
 *
 * `server` must already be normalized (`Config.normalizeServerName`, applied when settings load).
 */
export const buildToolName = (server: string, tool: string): string => {
  const full = `${PREFIX}${server}${SEPARATOR}${normalizeToolName(tool)}`
  if (full.length <= MAX_TOOL_NAME_LENGTH) return full
  const suffix = `_${shortHash(full)}`
  const head = `${PREFIX}${server}${SEPARATOR}`
  // Keep the whole server prefix when at least one tool character still fits beside the hash.
  if (head.length + 1 + suffix.length <= MAX_TOOL_NAME_LENGTH) {
    return full.slice(0, MAX_TOOL_NAME_LENGTH - suffix.length) + suffix
  }
  // Pathologically long server name: cut the server part too, still as `mcp__<s>__<hash>`.
  return `${PREFIX}${cutServerName(server)}${SEPARATOR}${shortHash(full)}`
}

/** Room for the server part when a pathologically long server name has to be cut. */
const SERVER_ROOM = MAX_TOOL_NAME_LENGTH - PREFIX.length - SEPARATOR.length - HASH_LENGTH

/**
 * The server part a name of `server` may carry after the 64-character cut (pure): the name itself
 * when it is short, else its first characters. Two servers with one cut name could not be told
 * apart by their tools' names or by rules, so settings that have them are refused.
 */
export const cutServerName = (server: string): string => server.slice(0, SERVER_ROOM).replace(/_+$/, "")

/** The unshortened qualified name (pure): what a rule written from a tool's own name says. */
export const fullToolName = (server: string, tool: string): string => `${PREFIX}${server}${SEPARATOR}${normalizeToolName(tool)}`

/**
 * Splits a fully-qualified name back into its server and tool parts, at the first `__` after
 * `mcp__` (server names never contain `__`). For a shortened name the tool part is the shortened
 * one: resolve it to the server's original tool name through the registry, not through this.
 * Returns undefined for anything that is not `mcp__<server>__<tool>` with both parts non-empty.
 */
export const parseToolName = (fq: string): { readonly server: string; readonly tool: string } | undefined => {
  if (!fq.startsWith(PREFIX)) return undefined
  const rest = fq.slice(PREFIX.length)
  const at = rest.indexOf(SEPARATOR)
  if (at <= 0) return undefined
  const tool = rest.slice(at + SEPARATOR.length)
  if (tool.length === 0) return undefined
  return { server: rest.slice(0, at), tool }
}

/**
 * Servers can ship descriptions of many kilobytes; every one of them lands in a model's context,
 * so the catalogue caps them (docs/CLI.md, Names).
 */
export const MAX_DESCRIPTION_LENGTH = 2048

/** Shows the reader that text is missing; counted within `MAX_DESCRIPTION_LENGTH`. */
export const TRUNCATION_MARKER = "… [truncated]"

/**
 * Cuts a description to `MAX_DESCRIPTION_LENGTH` characters including a visible marker, so a cut
 * description is never mistaken for a complete one. Never splits a surrogate pair.
 */
export const truncateDescription = (text: string): string => {
  if (text.length <= MAX_DESCRIPTION_LENGTH) return text
  let end = MAX_DESCRIPTION_LENGTH - TRUNCATION_MARKER.length
  const last = text.charCodeAt(end - 1)
  if (last >= 0xd800 && last <= 0xdbff) end -= 1
  return text.slice(0, end) + TRUNCATION_MARKER
}
