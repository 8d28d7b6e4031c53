/**
 * The catalogue: every connected server's tools as `McpTool`s named `mcp__<server>__<tool>`, and
 * the one call path (resolve → permission → `tools/call` with its timeout). The service is built
 * from two halves: listing (`internal/catalog/toolListing.ts`) and calling (`toolCalling.ts`).
 */
// @ts-nocheck

import type { CallToolResult } from "@modelcontextprotocol/client"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { McpConfig } from "../config/McpConfig.js"
import type { ConfigError, ServerUnavailable, UsageError } from "../Errors.js"
import { Elicitation } from "../elicitation/Elicitation.js"
import { makeCalling } from "../internal/catalog/toolCalling.js"
import { makeListing } from "../internal/catalog/toolListing.js"
import * as Tools from "../internal/catalog/tools.js"
import { Permission } from "../permission/Permission.js"
import * as CacheHints from "../internal/pool/CacheHints.js"
import { ConnectionPool } from "../pool/ConnectionPool.js"
import type { RequestError } from "../internal/pool/RequestErrors.js"
import { Pins } from "./Pins.js"

/**
 * One MCP tool as the host sees it: qualified name, annotations mapped to host capabilities.
 * @since 0.1.0
 */
export type McpTool = Tools.McpTool
/**
 * A ranked tool of `ToolRegistry.search`.
 * @since 0.1.0
 */
export type SearchResult = Tools.SearchResult
/**
 * A server whose tools could not be listed, as `tools --json` reports it.
 * @since 0.1.0
 */
export type ListError = Tools.ListError
/**
 * Options of one call.
 * @since 0.1.0
 */
export type CallOptions = Tools.CallOptions
/**
 * What a call can fail with.
 * @since 0.1.0
 */
export type CallError = Tools.CallError
/**
 * A server's tools after the name check: the callable ones, and those that share one qualified name.
 * @since 0.1.0
 */
export type IndexedTools = Tools.IndexedTools

/**
 * The `_meta` key of a server's output-size hint (characters; Claude Code reads the same key).
 * @since 0.1.0
 */
export const RESULT_SIZE_META = Tools.RESULT_SIZE_META
/**
 * The most a server's hint may raise a tool's output budget to, in characters.
 * @since 0.1.0
 */
export const MAX_RESULT_CHARS_HINT = Tools.MAX_RESULT_CHARS_HINT
/**
 * Wraps a server's tool definition as an `McpTool` (pure).
 * @since 0.1.0
 */
export const toMcpTool = Tools.toMcpTool
/**
 * Splits a server's tools into callable ones and collisions (pure); see `indexTools` in the catalogue.
 * @since 0.1.0
 */
export const indexTools = Tools.indexTools
/**
 * Deny rules naming one tool of a server that none of its listed tools matches (pure).
 * @since 0.1.0
 */
export const unmatchedDenies = Tools.unmatchedDenies
/**
 * The message for tools that share one qualified name.
 * @since 0.1.0
 */
export const collisionMessage = Tools.collisionMessage

/**
 * Host built-in tools and MCP tools in one pool: built-ins win a name conflict, reported.
 * @since 0.1.0
 */
export const mergeToolPools = <B extends { readonly name: string }>(
  builtins: ReadonlyArray<B>,
  mcpTools: ReadonlyArray<McpTool>
): { readonly tools: ReadonlyArray<B | McpTool>; readonly conflicts: ReadonlyArray<string> } => {
  const taken = new Set(builtins.map((b) => b.name))
  const conflicts: Array<string> = []
  const kept: Array<McpTool> = []
  for (const tool of mcpTools) {
    if (taken.has(tool.name)) conflicts.push(tool.name)
    else {
      taken.add(tool.name)
      kept.push(tool)
    }
  }
  return { tools: [...builtins, ...kept], conflicts }
}

/** @since 0.1.0 */
export class ToolRegistry extends Context.Tag("@mcpctl/core/ToolRegistry")<
  ToolRegistry,
  {
    /** Tools of the given servers (default: all enabled), with one error entry per unusable server. */
    readonly list: (servers?: ReadonlyArray<string>) => Effect.Effect<{
      readonly tools: ReadonlyArray<McpTool>
      readonly errors: ReadonlyArray<ListError>
    }>
    /**
     * Tools of one server; cached on its connection until it closes or the list changes. Tools
     * hidden by the server's `includeTools`/`excludeTools` are not there.
     */
    readonly listServer: (server: string) => Effect.Effect<ReadonlyArray<McpTool>, ServerUnavailable | RequestError>
    /** Finds a tool by its qualified name. */
    readonly resolve: (name: string) => Effect.Effect<McpTool, UsageError | ServerUnavailable | RequestError>
    /**
     * Resolves, authorizes and runs a tool. With an `Elicitation` service in the context, a call
     * refused with -32042 (URL elicitation required) is sent once more after the service has
     * had the user complete the steps (when its policy opens URLs).
     */
    readonly call: (
      name: string,
      args: Record<string, unknown>,
      options?: CallOptions
    ) => Effect.Effect<{ readonly tool: McpTool; readonly result: CallToolResult }, CallError>
    /**
     * The tools of the given servers (default: all enabled) ranked for a plain-words query
     * (Search.ts: BM25F over name, title, description and parameter names), best first.
     */
    readonly search: (query: string, options?: {
      readonly limit?: number | undefined
      readonly servers?: ReadonlyArray<string> | undefined
    }) => Effect.Effect<{ readonly results: ReadonlyArray<SearchResult>; readonly errors: ReadonlyArray<ListError> }>
    /**
     * Accepts the current definitions of a server's tools (or of one, by its own or qualified
     * name) as pinned: `changed` tools run again, `new` ones lose the mark. The names trusted.
     */
    readonly trust: (server: string, tool?: string) => Effect.Effect<
      ReadonlyArray<string>,
      UsageError | ConfigError | ServerUnavailable | RequestError
    >
    /**
     * When the tools list a server's live connection holds arrived, and the server's cache hints
     * on it (`CacheHints.freshness` tells fresh from stale); undefined: no list held.
     */
    readonly listStamp: (server: string) => CacheHints.Stamp | undefined
  }
>() {
  /** The catalogue over the pool; uses `Elicitation` when the context has one (it is optional). */
  static readonly layer: Layer.Layer<ToolRegistry, never, ConnectionPool | Permission | McpConfig> = Layer.effect(
    ToolRegistry,
    Effect.suspend(() => make)
  )
}

const make = Effect.gen(function*() {
  const pool = yield* ConnectionPool
  const permission = yield* Permission
  const config = yield* McpConfig
  const elicitation = Option.getOrUndefined(yield* Effect.serviceOption(Elicitation))
  const pins = Option.getOrUndefined(yield* Effect.serviceOption(Pins))
  const listing = makeListing({ pool, config, pins })
  const call = makeCalling({ pool, permission, config, elicitation, pins, ...listing })
  return ToolRegistry.of({
    list: listing.list,
    listServer: listing.listServer,
    resolve: listing.resolve,
    call,
    search: listing.search,
    trust: listing.trust,
    listStamp: (server: string) => pool.peek(server)?.lists.stamp(Tools.toolsList)
  })
})
