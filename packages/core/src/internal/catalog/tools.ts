/**
 * The catalogue's shared vocabulary, for the listing and calling halves of `ToolRegistry`: the
 * `McpTool` a server's tool becomes, the options and errors of a call, the list a connection
 * remembers. A leaf: the public `catalog/ToolRegistry.ts` names these for users.
 */
import type { Icon, Tool } from "@modelcontextprotocol/client"
import type { ConfigError, PermissionDenied, ServerUnavailable, ToolChanged, ToolTimeout, UsageError } from "../../Errors.js"
import { toolHints } from "./Annotations.js"
import { buildToolName, parseToolName, PREFIX, truncateDescription } from "../Naming.js"
import { definitionHash, type PinState } from "../../catalog/Pins.js"
import { decide, denyMatchesFolded } from "../permission/rules.js"
import * as CacheHints from "../pool/CacheHints.js"
import { ListKey } from "../pool/ConnectionLists.js"
import type { InputRelay } from "../pool/InputRelay.js"
import type { RequestError } from "../pool/RequestErrors.js"

/** One MCP tool as the host sees it: qualified name, annotations mapped to host capabilities. */
export interface McpTool {
  /** `mcp__<server>__<tool>`, at most 64 characters. */
  readonly name: string
  readonly server: string
  /** The tool's name as the server knows it (what `tools/call` sends). */
  readonly tool: string
  /** Display name: `title`, else `annotations.title`, else the tool name. */
  readonly title: string
  readonly description: string
  /** `readOnlyHint`: safe to run without side effects, and so concurrency-safe. */
  readonly readOnly: boolean
  readonly destructive: boolean
  readonly openWorld: boolean
  readonly idempotent: boolean
  readonly concurrencySafe: boolean
  readonly inputSchema: Tool["inputSchema"]
  readonly outputSchema: Tool["outputSchema"] | undefined
  /** sha256 of the definition as the server sent it: what pinning compares (Pins.ts). */
  readonly hash: string
  /**
   * Pinning's verdict (CLI.md, Pinning): `changed` tools are refused until trusted. Absent when
   * the host pins nothing (a registry built without the `Pins` service).
   */
  readonly pin?: PinState | undefined
  /** The server's output-size hint for this tool, in characters (`_meta["anthropic/maxResultSizeChars"]`). */
  readonly maxResultChars?: number | undefined
  /** The icons the server gave the tool (URLs or `data:` URIs, as sent; never fetched by mcpctl). */
  readonly icons?: ReadonlyArray<Icon> | undefined
}

/** A ranked tool of `ToolRegistry.search`. */
export interface SearchResult {
  readonly tool: McpTool
  readonly score: number
}

/** The `_meta` key of a server's output-size hint (characters; Claude Code reads the same key). */
export const RESULT_SIZE_META = "anthropic/maxResultSizeChars"
/** The most a server's hint may raise a tool's output budget to, in characters. */
export const MAX_RESULT_CHARS_HINT = 500_000

const resultSizeHint = (tool: Tool): number | undefined => {
  const v = (tool._meta as Record<string, unknown> | undefined)?.[RESULT_SIZE_META]
  return typeof v === "number" && Number.isFinite(v) && v > 0 ? Math.min(Math.floor(v), MAX_RESULT_CHARS_HINT) : undefined
}

/** A server whose tools could not be listed, as `tools --json` reports it. */
export interface ListError {
  readonly server: string
  readonly status: string
  readonly message: string
}

/** Wraps a server's tool definition as an `McpTool` (pure). */
export const toMcpTool = (server: string, tool: Tool): McpTool => {
  const a = tool.annotations ?? {}
  // A hint the server left out takes the spec's default (destructive, open-world): Annotations.ts.
  const hints = toolHints(a)
  return {
    name: buildToolName(server, tool.name),
    server,
    tool: tool.name,
    title: tool.title ?? a.title ?? tool.name,
    description: truncateDescription(tool.description ?? ""),
    readOnly: hints.readOnly,
    destructive: hints.destructive,
    openWorld: hints.openWorld,
    idempotent: hints.idempotent,
    concurrencySafe: hints.readOnly,
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema,
    hash: definitionHash(tool),
    ...(resultSizeHint(tool) !== undefined ? { maxResultChars: resultSizeHint(tool) } : {}),
    ...(tool.icons !== undefined && tool.icons.length > 0 ? { icons: tool.icons } : {})
  }
}

/** Options of one call. */
export interface CallOptions {
  /** Overrides the per-server `timeout` and `MCP_TOOL_TIMEOUT`, ms. */
  readonly timeoutMs?: number | undefined
  /** Cancels the call, also on the server (`notifications/cancelled`). */
  readonly signal?: AbortSignal | undefined
  readonly onProgress?: ((progress: { progress: number; total?: number; message?: string }) => void) | undefined
  /**
   * A gateway's relay (pool/InputRelay.ts): the server's `input_required` answer is returned as
   * the result instead of being answered here, and this round's answers and state are sent on.
   */
  readonly relay?: InputRelay | undefined
  /**
   * A gateway's client negotiated the tasks extension (true) or did not (false): the request's
   * 2026-07-28 envelope says so to the server instead of the pool's own declaration, so a server
   * answers that client as it would directly (a task, or -32021 for a tool that needs one).
   * Unset: the pool's declaration. The 2025 era has no per-request capabilities.
   */
  readonly tasks?: boolean | undefined
}

export type CallError = ServerUnavailable | RequestError | ToolTimeout | UsageError | PermissionDenied | ConfigError | ToolChanged

/** A server's tools after the name check: the callable ones, and those that share one qualified name. */
export interface IndexedTools {
  readonly tools: ReadonlyArray<McpTool>
  /** Qualified names that two or more of the server's tools map to: none of them is listed or callable. */
  readonly collisions: ReadonlyMap<string, ReadonlyArray<McpTool>>
}

/**
 * Splits a server's tools into callable ones and collisions (pure): `write_file` and
 * `write.file` both become `mcp__fs__write_file`, and routing either name to "the last one
 * listed" would run a tool nobody chose. Both are refused, with an error naming them.
 */
export const indexTools = (listed: ReadonlyArray<McpTool>): IndexedTools => {
  const byName = new Map<string, Array<McpTool>>()
  for (const tool of listed) byName.set(tool.name, [...(byName.get(tool.name) ?? []), tool])
  const collisions = new Map<string, ReadonlyArray<McpTool>>()
  for (const [name, tools] of byName) if (tools.length > 1) collisions.set(name, tools)
  return { tools: listed.filter((t) => !collisions.has(t.name)), collisions }
}

/**
 * Deny rules naming one tool of `server` (no wildcard) that none of its listed tools matches,
 * even folded (pure): the tool they meant may be listed under another name, or not exist. One
 * warning each, with the tools the server does list.
 */
export const unmatchedDenies = (deny: ReadonlyArray<string>, server: string, tools: ReadonlyArray<McpTool>): ReadonlyArray<string> =>
  deny.filter((rule) => {
    const parsed = parseToolName(rule)
    if (!parsed || rule.includes("*") || !denyMatchesFolded(`${PREFIX}${parsed.server}`, { server, tool: "" })) return false
    return !tools.some((t) => decide({ allow: [], ask: [], deny: [rule] }, t.name, t).behavior === "deny")
  }).map((rule) =>
    `permissions.deny rule "${rule}" matches no tool of ${server} (it lists ${
      tools.map((t) => t.name).join(", ") || "none"
    }). Check the tool's name with \`mcpctl tools ${server}\`.`
  )

/** The message for tools that share one qualified name. */
export const collisionMessage = (server: string, name: string, tools: ReadonlyArray<McpTool>): string =>
  `Server "${server}" has tools ${tools.map((t) => JSON.stringify(t.tool)).join(" and ")} that all map to ${name}; ` +
  `none of them is listed or callable, since a call could not say which one it means. Rename them on the server.`

/** A server's tools as listed over one connection (collisions apart), and by name for `call`. */
export interface ToolList extends IndexedTools {
  readonly byName: ReadonlyMap<string, McpTool>
  /** The cache hints of the list's first page (CacheHints.ts). */
  readonly hint?: CacheHints.CacheHint | undefined
}

/**
 * The tools list on a connection (`connection.lists`), dropped by `tools/list_changed`, and
 * fetched again once the server's `ttlMs` is over.
 */
export const toolsList = new ListKey<ToolList>("tools", "tools", (list) => list.hint)

/**
 * The definition handed to the SDK's `callTool`: without `outputSchema`, so the SDK does not check
 * the result on the event loop; `checkStructuredContent` does, bounded (SchemaValidator.ts).
 */
export const toolDefinitionOf = (tool: McpTool): Tool => ({ name: tool.tool, inputSchema: tool.inputSchema })

export const noTools: ToolList = { tools: [], collisions: new Map(), byName: new Map() }
