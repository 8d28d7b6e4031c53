/**
 * Rules that would silently match nothing, found when the settings load (pure): a deny rule for
 * a server that is not configured (a typo, another case, the name as written before
 * normalization), a rule ending in `__`, a deny that is not a tool name at all. A deny that
 * matches nothing lets the tool it meant run, so each one becomes a settings warning that names
 * the rule and the fix. Misspelled settings keys (`"permission"`, `"denied"`) get a suggestion.
 */
// @ts-nocheck

import type { PermissionRules } from "../../config/ServerConfig.js"

const PREFIX = "mcp__"
const SEPARATOR = "__"

/** Loose form of a server name for suggestions: case and separators do not count. */
const loose = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "")

/** The configured server a rule's server part probably means, when it is not one exactly. */
const likelyServer = (part: string, servers: ReadonlyArray<{ readonly name: string; readonly originalName: string }>) =>
  servers.find((s) => s.originalName === part) ?? servers.find((s) => loose(s.name) === loose(part))

/**
 * Warnings for rules that match nothing, one per rule, naming the list, the rule and what to
 * write instead. `servers` are the configured (and started) servers.
 */
export const ruleWarnings = (
  rules: PermissionRules,
  servers: ReadonlyArray<{ readonly name: string; readonly originalName: string }>
): ReadonlyArray<string> => {
  const warnings: Array<string> = []
  const names = new Set(servers.map((s) => s.name))
  for (const list of ["deny", "ask", "allow"] as const) {
    for (const rule of rules[list]) {
      const at = `permissions.${list} rule "${rule}"`
      if (rule === "*" || (list !== "deny" && !rule.startsWith(PREFIX))) continue
      if (!rule.startsWith(PREFIX)) {
        warnings.push(`${at} matches no tool: tool names start with mcp__ (write "mcp__<server>" or "mcp__<server>__<tool>").`)
        continue
      }
      const rest = rule.slice(PREFIX.length)
      if (rest.endsWith(SEPARATOR) && !rest.slice(0, -SEPARATOR.length).includes(SEPARATOR)) {
        const server = rest.slice(0, -SEPARATOR.length)
        warnings.push(
          list === "deny"
            ? `${at} ends in "__"; it is read as "mcp__${server}" (every tool of ${server}). Write that instead.`
            : `${at} ends in "__" and matches nothing; write "mcp__${server}" for every tool of ${server}.`
        )
      }
      if (list !== "deny") continue
      const at2 = rest.indexOf(SEPARATOR)
      const server = at2 < 0 ? rest : rest.slice(0, at2)
      if (server.includes("*") || server === "" || names.has(server)) continue
      const likely = likelyServer(server, servers)
      warnings.push(
        likely
          ? `${at} names no configured server; the server is "${likely.name}" (denied anyway by a case- and ` +
            `separator-insensitive match). Write "${PREFIX}${likely.name}${at2 < 0 ? "" : rest.slice(at2)}".`
          : `${at} names no configured server (configured: ${[...names].join(", ") || "none"}); it denies nothing ` +
            `until a server of that name is configured. Check the server's name with \`mcpctl servers\`.`
      )
    }
  }
  return warnings
}

/** Edit distance, for suggestions of misspelled keys (small strings only). */
const distance = (a: string, b: string): number => {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const here = row[j]!
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1))
      previous = here
    }
  }
  return row[b.length]!
}

/** The known key an unknown one was probably meant to be (`permission` → `permissions`, `denied` → `deny`). */
export const suggestKey = (key: string, known: ReadonlyArray<string>): string | undefined => {
  const k = key.toLowerCase()
  return known.find((c) => k === c.toLowerCase()) ??
    known.find((c) => k.startsWith(c) || c.startsWith(k)) ??
    known.find((c) => distance(k, c) <= 2) ??
    known.find((c) => c.length >= 3 && k.slice(0, 3) === c.slice(0, 3).toLowerCase())
}
