/**
 * What a tool's annotations mean when a server leaves them out. The MCP spec gives each hint a
 * default, and the defaults are the cautious ones: a tool that says nothing may destroy data and
 * may reach the outside world. The catalogue (`tools`, the permission prompt) and the gateway
 * (`serve` re-advertising tools to its clients) both read hints through this module, so a missing
 * hint is never shown or passed on as "safe".
 */
// @ts-nocheck

import type { ToolAnnotations } from "@modelcontextprotocol/client"

/** The spec's defaults for a hint the server did not send (MCP 2025-06-18, ToolAnnotations). */
export const HINT_DEFAULTS = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true
} as const

/** A tool's behaviour hints with the spec's defaults applied. */
export interface ToolHints {
  readonly readOnly: boolean
  /** Meaningful only when not read-only: a read-only tool destroys nothing. */
  readonly destructive: boolean
  readonly idempotent: boolean
  readonly openWorld: boolean
}

const hint = (value: unknown, fallback: boolean): boolean => (typeof value === "boolean" ? value : fallback)

/** The hints of a tool's `annotations` (possibly missing, possibly partial), defaults applied (pure). */
export const toolHints = (annotations: Partial<ToolAnnotations> | undefined): ToolHints => {
  const a = annotations ?? {}
  const readOnly = hint(a.readOnlyHint, HINT_DEFAULTS.readOnlyHint)
  return {
    readOnly,
    destructive: readOnly ? false : hint(a.destructiveHint, HINT_DEFAULTS.destructiveHint),
    idempotent: hint(a.idempotentHint, HINT_DEFAULTS.idempotentHint),
    openWorld: hint(a.openWorldHint, HINT_DEFAULTS.openWorldHint)
  }
}

/** The hints as wire `annotations`, every one explicit, for clients that do not apply defaults (pure). */
export const toAnnotations = (hints: ToolHints, title?: string): ToolAnnotations => ({
  ...(title === undefined ? {} : { title }),
  readOnlyHint: hints.readOnly,
  destructiveHint: hints.destructive,
  idempotentHint: hints.idempotent,
  openWorldHint: hints.openWorld
})
