/**
 * The implementation of `permission/Permission.ts`'s rule logic (pure): one rule against one
 * tool name, deny rules against folded names, the documented precedence, and the deny rule that
 * covers a whole server.
 */
import type { PermissionRules } from "../../config/ServerConfig.js"
import { fullToolName, PREFIX, SEPARATOR } from "../Naming.js"
import { foldedEquals, foldedStartsWith } from "./NameFold.js"

/**
 * What happens to a call; `ask` is also the answer when no rule matches.
 */
export type Behavior = "allow" | "ask" | "deny"

/**
 * A behavior and the rule that produced it, so messages and `tools --json` can name the rule.
 */
export interface Decision {
  readonly behavior: Behavior
  /** The matching rule; undefined when no rule matched (the default ask). */
  readonly rule: string | undefined
}

/**
 * One rule against one fully-qualified tool name. Supports the three documented forms
 * (`mcp__<server>`, `mcp__<server>__*`, `mcp__<server>__<tool>`) plus a trailing `*` that matches
 * any rest of the name (`mcp__fs__read*`). Matching is exact otherwise: rules are written by
 * people, and a rule that silently matched more than it says would be a security surprise.
 */
export const ruleMatches = (rule: string, toolName: string): boolean => {
  if (rule.endsWith("*")) return toolName.startsWith(rule.slice(0, -1))
  if (rule === toolName) return true
  // `mcp__<server>`: a rule without a tool part covers every tool of that server.
  if (rule.startsWith(PREFIX) && rule.length > PREFIX.length && !rule.slice(PREFIX.length).includes(SEPARATOR)) {
    return toolName.startsWith(rule + SEPARATOR)
  }
  return false
}

/**
 * Which tool a name stands for: its server and the tool's own name, as the server spells it.
 */
export interface ToolIdentity {
  readonly server: string
  readonly tool: string
}

/**
 * A deny rule against a tool by folded names (`NameFold`): case, separators, invisible
 * characters and look-alike letters do not escape it. `mcp__fs__` (a trailing `__`) denies the
 * whole server, as its writer meant.
 */
export const denyMatchesFolded = (rule: string, identity: ToolIdentity): boolean => {
  if (!rule.startsWith(PREFIX)) return false
  const rest = rule.slice(PREFIX.length)
  const wildcard = rest.endsWith("*")
  const body = wildcard ? rest.slice(0, -1) : rest
  const at = body.indexOf(SEPARATOR)
  if (at < 0) {
    // `mcp__<server>` (whole server) or `mcp__<prefix>*` (servers by prefix)
    return wildcard ? foldedStartsWith(identity.server, body) : foldedEquals(body, identity.server)
  }
  const server = body.slice(0, at), tool = body.slice(at + SEPARATOR.length)
  if (!foldedEquals(server, identity.server)) return false
  if (tool === "") return true
  return wildcard ? foldedStartsWith(identity.tool, tool) : foldedEquals(tool, identity.tool)
}

/** The `<server>` of `mcp__<server>__<tool>`, if the name has that form. */
const serverOf = (toolName: string): string | undefined => {
  if (!toolName.startsWith(PREFIX)) return undefined
  const at = toolName.indexOf(SEPARATOR, PREFIX.length)
  return at < 0 ? undefined : toolName.slice(PREFIX.length, at)
}

/**
 * The documented precedence: any matching deny beats any matching ask beats any matching allow,
 * whatever scope each came from; no match means ask. Order within a list does not matter. A
 * project's own allow rules (`projectAllow`) approve only the project's servers.
 *
 * With the tool's identity, rules also match its full unshortened name (a rule written from a
 * 70-character name still matches the 64-character one), and deny rules match look-alikes.
 */
export const decide = (rules: PermissionRules, toolName: string, identity?: ToolIdentity): Decision => {
  const names = identity ? [toolName, fullToolName(identity.server, identity.tool)] : [toolName]
  const matches = (rule: string) => names.some((name) => ruleMatches(rule, name))
  const deny = rules.deny.find((rule) => matches(rule) || (identity !== undefined && denyMatchesFolded(rule, identity)))
  if (deny !== undefined) return { behavior: "deny", rule: deny }
  const ask = rules.ask.find(matches)
  if (ask !== undefined) return { behavior: "ask", rule: ask }
  const server = identity?.server ?? serverOf(toolName)
  const projectServer = server !== undefined && rules.projectServers?.includes(server) === true
  const allow = rules.allow.find((rule) => matches(rule) && (projectServer || rules.projectAllow?.includes(rule) !== true))
  if (allow !== undefined) return { behavior: "allow", rule: allow }
  return { behavior: "ask", rule: undefined }
}

/**
 * The deny rule that covers every tool of `server`, if one does (`mcp__<server>`,
 * `mcp__<server>__*`, `mcp__*`, look-alikes folded): such a server's resources and prompts are
 * not used either.
 */
export const serverDenyRule = (rules: PermissionRules, server: string): string | undefined =>
  rules.deny.find((rule) => coversServer(rule, server))

const coversServer = (rule: string, server: string): boolean => {
  if (rule === "*") return true
  if (!rule.startsWith(PREFIX)) return false
  const rest = rule.slice(PREFIX.length)
  if (rest.endsWith("*")) {
    const body = rest.slice(0, -1)
    const at = body.indexOf(SEPARATOR)
    // `mcp__*`, `mcp__f*`: every server whose name starts so
    if (at < 0) return foldedStartsWith(server, body)
    // `mcp__fs__*`: the whole server only when nothing follows the separator
    return body.slice(at + SEPARATOR.length) === "" && foldedEquals(body.slice(0, at), server)
  }
  const body = rest.endsWith(SEPARATOR) ? rest.slice(0, -SEPARATOR.length) : rest
  return !body.includes(SEPARATOR) && foldedEquals(body, server)
}
