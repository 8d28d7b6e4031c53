/**
 * The catalogue: every connected server's tools as `McpTool`s named `mcp__<server>__<tool>`, and
 * the one call path (resolve → permission → `tools/call` with its timeout).
 */
import { trackCall } from "../internal/callMetrics.js"
import { UrlElicitationRequiredError, ProtocolErrorCode } from "@modelcontextprotocol/client"
import type { CallToolResult, Icon, Tool } from "@modelcontextprotocol/client"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { McpConfig } from "../config/McpConfig.js"
import { type ResolvedServer, unknownServerMessage } from "../config/ServerConfig.js"
import { xMcpHeaderFault } from "./HeaderParams.js"
import { ListKey } from "../pool/ConnectionLists.js"
import { type Connection, ConnectionPool, request } from "../pool/ConnectionPool.js"
import type { RequestError } from "../pool/RequestErrors.js"
import { checkStructuredContent } from "../pool/SchemaValidator.js"
import {
  type ConfigError,
  type PermissionDenied,
  type ServerUnavailable,
  ToolChanged,
  ToolTimeout,
  UsageError
} from "../Errors.js"
import { didYouMean } from "../Suggest.js"
import { toolHints } from "./Annotations.js"
import { buildToolName, cutServerName, parseToolName, PREFIX, SEPARATOR, truncateDescription } from "./Naming.js"
import { collectPages } from "./Pagination.js"
import { changedMessage, definitionHash, type PinState, Pins } from "./Pins.js"
import { rank } from "./Search.js"
import { hiddenBy, hiddenMessage } from "./ToolFilter.js"
import { decide, denyMatchesFolded, Permission } from "../permission/Permission.js"
import { type InputRelay, relayParams } from "../pool/InputRelay.js"
import * as CacheHints from "../pool/CacheHints.js"
import { Elicitation, type UrlStep } from "../elicitation/Elicitation.js"
import { TASK_RESULT_KEY } from "../internal/pool/hostClient.js"

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

/** Host built-in tools and MCP tools in one pool: built-ins win a name conflict, reported. */
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

/** Effect's own tracer, in place unless a layer installs another (see `tracedCall`). */
const defaultTracer = Effect.runSync(Effect.tracer)

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
}

export type CallError = ServerUnavailable | RequestError | ToolTimeout | UsageError | PermissionDenied | ConfigError | ToolChanged

/** The SDK's own request timer must never fire before ours; this is "no SDK timeout". */
const SDK_NO_TIMEOUT = 2_147_483_647

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
interface ToolList extends IndexedTools {
  readonly byName: ReadonlyMap<string, McpTool>
  /** The cache hints of the list's first page (CacheHints.ts). */
  readonly hint?: CacheHints.CacheHint | undefined
}

/**
 * The tools list on a connection (`connection.lists`), dropped by `tools/list_changed`, and
 * fetched again once the server's `ttlMs` is over.
 */
const toolsList = new ListKey<ToolList>("tools", "tools", (list) => list.hint)

/**
 * The definition handed to the SDK's `callTool`: without `outputSchema`, so the SDK does not check
 * the result on the event loop; `checkStructuredContent` does, bounded (SchemaValidator.ts).
 */
const toolDefinitionOf = (tool: McpTool): Tool => ({ name: tool.tool, inputSchema: tool.inputSchema })

const noTools: ToolList = { tools: [], collisions: new Map(), byName: new Map() }

/**
 * Every tool a server lists, page by page, as it sent them. Each page is its own `tools/list`
 * request: SDK v2's `listTools()` without a cursor walks all pages itself (capped at its own
 * `listMaxPages`) and keeps the result in its response cache, which would bypass the bounds here
 * and the connection's own list cache.
 */
const listAll = (
  connection: Connection,
  onFirstPage?: (page: unknown) => void
): Effect.Effect<ReadonlyArray<Tool>, RequestError> =>
  // Bounded in pages, items and time (Pagination.ts): an endless cursor grew 50 MB/s.
  collectPages(connection.server.name, "tools/list", (cursor) =>
    Effect.map(
      request(connection, "tools/list", (client, signal) =>
        client.request({ method: "tools/list", params: cursor ? { cursor } : undefined }, { signal })),
      (page) => {
        // The first page's `ttlMs` / `cacheScope` speak for the whole list (as SDK v2 keeps them).
        if (cursor === undefined) onFirstPage?.(page)
        return { items: page.tools, nextCursor: page.nextCursor }
      }
    ))

const make = Effect.gen(function*() {
  const pool = yield* ConnectionPool
  const permission = yield* Permission
  const config = yield* McpConfig
  const elicitation = Option.getOrUndefined(yield* Effect.serviceOption(Elicitation))
  const pins = Option.getOrUndefined(yield* Effect.serviceOption(Pins))
  const serverOf = new Map(pool.servers.map((s) => [s.name, s] as const))
  // The definition each catalogue entry was made from, for pin diffs and `trust`.
  const definitions = new WeakMap<McpTool, Tool>()

  // Every listed name → its server: a call is routed by this, never by re-reading the server out
  // of the name (a cut or odd server name would point elsewhere). The tool itself is then taken
  // from that server's current list, so a dropped list is never used.
  const routes = new Map<string, string>()
  // A deny rule for a tool a server does not list is said once per run, not once per listing.
  const warned = new Set<string>()

  // Every listing (the first, and each after a list_changed) goes through the pins and the
  // server's filters before anyone sees it, so no host switches silently to a changed definition.
  const fetchTools = (connection: Connection): Effect.Effect<ToolList, RequestError> =>
    Effect.gen(function*() {
    const server = connection.server
    let hint: CacheHints.CacheHint | undefined
    const listed = yield* listAll(connection, (page) => void (hint = CacheHints.hintOf(page)))
    if (pins) yield* pins.observe(server, listed)
    const tools: Array<McpTool> = []
    for (const t of listed) {
      if (hiddenBy(server.config, t.name)) continue
      // A modern server's tool with broken `x-mcp-header` marks is not offered (SEP-2243).
      const headerFault = connection.era === "modern" ? xMcpHeaderFault(t.inputSchema) : undefined
      if (headerFault !== undefined) {
        const key = `${server.name}\u0000${t.name}`
        if (!warned.has(key)) {
          warned.add(key)
          yield* Effect.logWarning(
            `Server "${server.name}": tool ${JSON.stringify(t.name)} is left out of the catalogue: its input schema ` +
              `has an invalid x-mcp-header (${headerFault}).`
          )
        }
        continue
      }
      const tool = toMcpTool(server.name, t)
      definitions.set(tool, t)
      tools.push(tool)
    }
    // Two tools with one qualified name are both refused; every other name is routed by this list.
    const indexed = indexTools(tools)
    for (const t of indexed.tools) routes.set(t.name, t.server)
    for (const [name, clash] of indexed.collisions) routes.set(name, clash[0]!.server)
    return { ...indexed, byName: new Map(indexed.tools.map((t) => [t.name, t])), hint }
    })

  /** The tool with pinning's current verdict (the store may have changed since it was listed). */
  const withPin = (tool: McpTool): McpTool => {
    const server = pins && serverOf.get(tool.server)
    return server ? { ...tool, pin: pins!.state(server, tool.tool, tool.hash) } : tool
  }

  const listIndexed = (server: string) =>
    pool.run(server, "tools/list", (connection) =>
      connection.capabilities?.tools ? connection.lists.get(toolsList, fetchTools(connection)) : Effect.succeed(noTools))

  const listCached = (server: string) => Effect.map(listIndexed(server), (list) => list.tools)

  /**
   * The tool from the fetched list of a live connection, or undefined (synchronous), so `call`
   * finds its tool without a round through the pool.
   */
  const lookup = (name: string): McpTool | undefined => {
    const server = routes.get(name)
    return server === undefined ? undefined : pool.peek(server)?.lists.peek(toolsList)?.byName.get(name)
  }

  const listServer = (server: string) =>
    pins ? Effect.map(listCached(server), (tools) => tools.map(withPin)) : listCached(server)

  const list = (servers?: ReadonlyArray<string>) =>
    Effect.gen(function*() {
      const names = servers ?? pool.servers.filter((s) => !s.config.disabled).map((s) => s.name)
      const results = yield* Effect.forEach(names, (name) => Effect.either(listIndexed(name)), {
        concurrency: "unbounded"
      })
      const tools: Array<McpTool> = []
      const errors: Array<ListError> = []
      const pending: Array<string> = []
      results.forEach((r, i) => {
        if (r._tag === "Right") {
          tools.push(...(pins ? r.right.tools.map(withPin) : r.right.tools))
          for (const warning of unmatchedDenies(config.permissions.deny, names[i]!, r.right.tools)) pending.push(warning)
          for (const [name, clash] of r.right.collisions) {
            errors.push({ server: names[i]!, status: "collision", message: collisionMessage(names[i]!, name, clash) })
          }
        } else {
          errors.push({
            server: names[i]!,
            status: r.left._tag === "ServerUnavailable" ? r.left.status : "failed",
            message: r.left.message
          })
        }
      })
      for (const warning of pending) {
        if (warned.has(warning)) continue
        warned.add(warning)
        yield* Effect.logWarning(warning)
      }
      return { tools, errors }
    })

  const resolve = (name: string): Effect.Effect<McpTool, UsageError | ServerUnavailable | RequestError> => {
    const known = lookup(name)
    return known ? Effect.succeed(known) : resolveSlow(name)
  }

  // The servers a name can belong to: those whose `mcp__<server>__` (or cut form) starts it.
  // Only their lists are fetched; the tool itself is then found in a list, by its whole name.
  const candidatesOf = (name: string) =>
    pool.servers.filter((s) =>
      name.startsWith(`${PREFIX}${s.name}${SEPARATOR}`) || name.startsWith(`${PREFIX}${cutServerName(s.name)}${SEPARATOR}`)
    )

  const resolveSlow = (name: string) =>
    Effect.gen(function*() {
      const parsed = parseToolName(name)
      if (!parsed) {
        return yield* Effect.fail(
          new UsageError({
            message: `"${name}" is not a tool name. Tool names look like mcp__<server>__<tool>; ` +
              `run \`mcpctl tools\` to list them.`
          })
        )
      }
      const candidates = candidatesOf(name)
      if (candidates.length === 0) {
        return yield* Effect.fail(
          new UsageError({
            message: `${name}: ${unknownServerMessage([parsed.server], pool.servers)}`
          })
        )
      }
      const listed: Array<McpTool> = []
      for (const server of candidates) {
        const indexed = yield* listIndexed(server.name)
        const clash = indexed.collisions.get(name)
        if (clash) return yield* Effect.fail(new UsageError({ message: collisionMessage(server.name, name, clash) }))
        const tool = indexed.tools.find((t) => t.name === name)
        if (tool) return tool
        listed.push(...indexed.tools)
      }
      yield* failIfHidden(candidates[0]!, name)
      return yield* Effect.fail(
        new UsageError({
          message: `Server "${candidates[0]!.name}" has no tool ${name}.${didYouMean(name, listed.map((t) => t.name))} Its tools: ${
            listed.map((t) => t.name).join(", ") || "none"
          }.`
        })
      )
    })

  // Only on the error path: the server's own list, unfiltered, tells a hidden tool from a typo.
  const failIfHidden = (server: ResolvedServer, name: string) =>
    Effect.gen(function*() {
      if (server.config.includeTools === undefined && server.config.excludeTools === undefined) return
      const all = yield* pool.run(server.name, "tools/list", listAll)
      const match = all.find((t) => buildToolName(server.name, t.name) === name)
      const hidden = match && hiddenBy(server.config, match.name)
      if (match && hidden) return yield* Effect.fail(new UsageError({ message: hiddenMessage(server, name, match.name, hidden) }))
    })

  /** Refuses a tool whose definition changed since it was pinned, unless the store says it was trusted meanwhile. */
  const checkPin = (tool: McpTool): Effect.Effect<void, ToolChanged> => {
    const server = pins && serverOf.get(tool.server)
    if (!server || pins!.state(server, tool.tool, tool.hash) !== "changed") return Effect.void
    return Effect.flatMap(pins!.reload, () => {
      if (pins!.state(server, tool.tool, tool.hash) !== "changed") return Effect.void
      const definition = definitions.get(tool)
      const changes = definition ? pins!.changes(server, definition) : []
      return Effect.fail(
        new ToolChanged({
          server: tool.server,
          tool: tool.name,
          changed: changes.map((c) => c.part),
          message: changedMessage(tool.name, server, tool.tool, changes)
        })
      )
    })
  }

  const serverTimeouts = new Map(pool.servers.map((s) => [s.name, s.config.timeout] as const))
  const timeoutFor = (tool: McpTool, options?: CallOptions): number | undefined => {
    if (options?.timeoutMs !== undefined) return options.timeoutMs
    return serverTimeouts.get(tool.server) ?? config.limits.toolTimeoutMs
  }

  // A plain pipeline rather than a generator: this is the per-call hot path (see bench/).
  const call = (name: string, args: Record<string, unknown>, options?: CallOptions) =>
    Effect.flatMap(resolve(name), (tool) =>
      Effect.zipRight(checkPin(tool), permission.authorize({
        tool: tool.name,
        server: tool.server,
        toolName: tool.tool,
        annotations: {
          readOnly: tool.readOnly,
          destructive: tool.destructive,
          openWorld: tool.openWorld,
          title: tool.title
        },
        args
      }).pipe(
        Effect.zipRight(
          Effect.suspend(() => elicitation ? sendWithSteps(tool, args, options) : send(tool, args, options)).pipe(trackCall(tool.server, tool.tool))
        ),
        Effect.map((result) => ({ tool, result }))
      )))

  // A call refused with -32042 names the steps (URLs) the user must complete first; the typed
  // error keeps only the code, so the steps are caught on the way. After the steps the call is
  // sent once more (it was never run: the server refused it).
  const sendWithSteps = (tool: McpTool, args: Record<string, unknown>, options: CallOptions | undefined) => {
    let steps: ReadonlyArray<UrlStep> = []
    return send(tool, args, options, (s) => (steps = s)).pipe(
      Effect.catchIf(
        (error) => error._tag === "McpRequestError" && error.code === ProtocolErrorCode.UrlElicitationRequired && steps.length > 0,
        (error) =>
          Effect.flatMap(elicitation!.urlRequired(tool.server, steps, timeoutFor(tool, options)), (again) =>
            again ? send(tool, args, options) : Effect.fail(error))
      )
    )
  }

  const send = (
    tool: McpTool,
    args: Record<string, unknown>,
    options: CallOptions | undefined,
    onSteps?: (steps: ReadonlyArray<UrlStep>) => void
  ) => {
    const timeoutMs = timeoutFor(tool, options)
    // The result arrived and its structuredContent is being checked (for the timeout's message).
    let checking = false
    const requestOptions = {
      // A call lost with its connection is sent again on a fresh one only when running it twice
      // is harmless; otherwise the error says it may have run.
      idempotent: tool.readOnly || tool.idempotent,
      tool: tool.tool,
      // Cancels the call on the server too; our timeout does the same by interrupting.
      signal: options?.signal
    }
    const sent = pool.run(tool.server, "tools/call", (connection) =>
      request(connection, "tools/call", (client, signal) => {
        const relay = options?.relay
        const params = { name: tool.tool, arguments: args, ...relayParams(connection.era, relay) }
        const answered = client.callTool(params as { name: string; arguments: Record<string, unknown> }, {
          ...(relay !== undefined ? { allowInputRequired: true } : {}),
          // The definition the catalogue holds (the SDK would otherwise look for a listing in its
          // own response cache, which the page-by-page listing above never fills).
          toolDefinition: toolDefinitionOf(tool),
          signal,
          timeout: SDK_NO_TIMEOUT,
          ...(options?.onProgress ? { onprogress: options.onProgress } : {})
        }) as Promise<CallToolResult>
        const schema = tool.outputSchema
        // Against the listed outputSchema, inline when small, else in a worker this call's signal
        // (timeout, cancel) can stop. No step at all for a tool without one (the per-call path).
        const checked = schema === undefined ? answered : answered.then((result) => {
          // A task has no structuredContent yet: its result is checked by nobody here (Tasks.ts).
          if (TASK_RESULT_KEY in result) return result
          checking = true
          return checkStructuredContent(client, tool.tool, tool.server, schema, result, signal)
        })
        return onSteps === undefined ? checked : checked.catch((error: unknown) => {
          if (error instanceof UrlElicitationRequiredError) {
            onSteps(error.elicitations.map((e) => ({ url: e.url, message: e.message, elicitationId: e.elicitationId })))
          }
          throw error
        })
      }, requestOptions), { idempotent: requestOptions.idempotent })
    // On timeout the request is interrupted, which cancels it on the server (the driver).
    return timeoutMs === undefined ? sent : sent.pipe(
      Effect.timeoutFail({
        duration: Duration.millis(timeoutMs),
        onTimeout: () =>
          new ToolTimeout({
            server: tool.server,
            tool: tool.name,
            timeoutMs,
            message: (checking
              ? `${tool.name} answered, but checking its structuredContent against the tool's outputSchema did not ` +
                `finish within ${timeoutMs} ms (the call's timeout); the check was stopped. `
              : `${tool.name} did not answer within ${timeoutMs} ms and was cancelled. `) +
              `Raise it with --timeout MS, the server's "timeout" setting, or MCP_TOOL_TIMEOUT.`
          })
      })
    )
  }

  const search = (query: string, options?: { readonly limit?: number | undefined; readonly servers?: ReadonlyArray<string> | undefined }) =>
    Effect.map(list(options?.servers), ({ errors, tools }) => ({
      results: rank(tools, (t) => ({
        name: t.tool,
        title: t.title,
        description: t.description,
        parameters: Object.keys(t.inputSchema.properties ?? {})
      }), query, options?.limit).map(({ item, score }) => ({ tool: item, score })),
      errors
    }))

  const trust = (name: string, only?: string) =>
    Effect.gen(function*() {
      const server = serverOf.get(name) ?? pool.servers.find((s) => s.originalName === name)
      if (!server) return yield* Effect.fail(new UsageError({ message: unknownServerMessage([name], pool.servers) }))
      if (!pins || server.config.pin === false) {
        return yield* Effect.fail(new UsageError({
          message: `Tool pinning is off for "${server.name}"${server.config.pin === false ? ` ("pin": false in ${server.source})` : ""}: there is nothing to trust.`
        }))
      }
      const tools = yield* listCached(server.name)
      const chosen = only === undefined ? tools : tools.filter((t) => t.tool === only || t.name === only)
      if (only !== undefined && chosen.length === 0) {
        return yield* Effect.fail(new UsageError({
          message: `Server "${server.name}" has no tool "${only}". Its tools: ${tools.map((t) => t.tool).join(", ") || "none"}.`
        }))
      }
      return yield* pins.trust(server, chosen.map((t) => definitions.get(t)!))
    })

  // One span per call, around all of it (resolve, permission, the request); the hot path inside
  // is untraced. Under Effect's default tracer nobody reads spans, and making one was the
  // largest cost mcpctl adds to a call (~13 of ~20 µs in process, bench/): the span is made
  // only when another tracer is installed (OTLP, a test's).
  const tracedCall = (name: string, args: Record<string, unknown>, options?: CallOptions) =>
    Effect.flatMap(Effect.tracer, (tracer) =>
      tracer === defaultTracer ? call(name, args, options) : Effect.withSpan(call(name, args, options), "ToolRegistry.call", {
        captureStackTrace: false,
        attributes: { server: routes.get(name) ?? parseToolName(name)?.server, tool: name }
      }))

  const listStamp = (server: string) => pool.peek(server)?.lists.stamp(toolsList)
  return ToolRegistry.of({ list, listServer, resolve, call: tracedCall, search, trust, listStamp })
})

