/**
 * How much of one tool's result a reader gets (CLI.md, Output budget), and the full text of a
 * result that was cut. The budget of a call is, from the most specific: the settings entry
 * `mcpServers.<server>.tools.<tool>.maxOutputTokens`, the server's own hint for that tool
 * (`_meta["anthropic/maxResultSizeChars"]` in `tools/list`, at most 500,000 characters), the
 * server's `maxOutputTokens`, then `MAX_MCP_OUTPUT_TOKENS`. The truncation marker names the
 * setting that decided, so the reader knows what to raise. Pure.
 */
// @ts-nocheck

import type { Settings } from "../../config/ServerConfig.js"
import type { ContentItem, ShapeInput } from "../../content/ContentItem.js"
import { budgetChars, DEFAULT_HINT } from "./Shape.js"

/** The budget of one tool's calls, in characters, and the advice its marker gives. */
export interface OutputBudget {
  readonly chars: number
  /** What decided it: the tool's setting, the server's hint, the server's setting, the global limit. */
  readonly source: "tool" | "hint" | "server" | "global"
  /** The marker's advice ("raise … to see more"). */
  readonly hint: string
}

/**
 * The budget of a call to `tool` (the server's own tool name) of `server`; `hintChars` is the
 * server's output-size hint for it, when it sent one.
 */
export const outputBudget = (settings: Settings, server: string, tool: string, hintChars?: number): OutputBudget => {
  const entry = settings.servers.find((s) => s.name === server)
  const at = `mcpServers.${entry?.originalName ?? server}`
  const own = entry?.config.tools?.[tool]?.maxOutputTokens
  if (own !== undefined) return { chars: budgetChars(own), source: "tool", hint: `raise ${at}.tools.${tool}.maxOutputTokens to see more` }
  if (hintChars !== undefined) {
    return { chars: hintChars, source: "hint", hint: `the server sizes this tool's output; set ${at}.tools.${tool}.maxOutputTokens to change it` }
  }
  const forServer = entry?.config.maxOutputTokens
  if (forServer !== undefined) return { chars: budgetChars(forServer), source: "server", hint: `raise ${at}.maxOutputTokens to see more` }
  return { chars: budgetChars(settings.limits.maxOutputTokens), source: "global", hint: DEFAULT_HINT }
}

/** The advice of a marker once the full text is saved: where it is. */
export const savedHint = (path: string, chars: number): string =>
  `the full text (${String(chars).replace(/\B(?=(\d{3})+(?!\d))/g, ",")} characters) is in ${path}`

const textOf = (item: ContentItem): string | undefined =>
  item.type === "text" ? item.text : item.type === "resource" && "text" in item.resource ? item.resource.text : undefined

/**
 * The whole text of a result before any cut: its text items and inline text resources in order,
 * then `structuredContent` as indented JSON, separated by blank lines; undefined when there is none.
 */
export const fullText = (result: ShapeInput): string | undefined => {
  const parts = (result.content ?? []).map(textOf).filter((t): t is string => t !== undefined)
  if (result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent, null, 2))
  return parts.length === 0 ? undefined : parts.join("\n\n")
}
