/**
 * The catalogue: every connected server's tools as `McpTool`s named `mcp__<server>__<tool>`, and
 * the one call path (resolve → permission → `tools/call` with its timeout).
 */
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js"
import { CallToolResultSchema, ErrorCode, UrlElicitationRequiredError } from "@modelcontextprotocol/sdk/types.js"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { McpConfig } from "../config/McpConfig.js"
import { unknownServerMessage } from "../config/ServerConfig.js"
import { ListKey } from "../pool/ConnectionLists.js"
import { type Connection, ConnectionPool } from "../pool/ConnectionPool.js"
import { type RequestError } from "../pool/RequestErrors.js"
import {
  type ConfigError,
  type PermissionDenied,
  type ServerUnavailable,
  ToolTimeout,
  UsageError
} from "../Errors.js"
import { buildToolName, cutServerName, parseToolName, PREFIX, SEPARATOR, truncateDescription } from "./Naming.js"
import { decide, denyMatchesFolded, Permission } from "../permission/Permission.js"
import { Elicitation, type UrlStep } from "../elicitation/Elicitation.js"

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
  const readOnly = a.readOnlyHint === true
  return {
    name: buildToolName(server, tool.name),
    server,
    tool: tool.name,
    title: tool.title ?? a.title ?? tool.name,
    description: truncateDescription(tool.description ?? ""),
    readOnly,
    // The spec's default for destructiveHint is true only when not read-only; we report what
    // the server says and treat a missing hint as "not known to be destructive".
    destructive: a.destructiveHint === true,
    openWorld: a.openWorldHint === true,
    idempotent: a.idempotentHint === true,
    concurrencySafe: readOnly,
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema
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

/** Options of one call. */
export interface CallOptions {
  /** Overrides the per-server `timeout` and `MCP_TOOL_TIMEOUT`, ms. */
  readonly timeoutMs?: number | undefined
  /** Cancels the call, also on the server (`notifications/cancelled`). */
  readonly signal?: AbortSignal | undefined
  readonly onProgress?: ((progress: { progress: number; total?: number; message?: string }) => void) | undefined
}

export type CallError = ServerUnavailable | RequestError | ToolTimeout | UsageError | PermissionDenied | ConfigError

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
    /** Tools of one server; cached on its connection until it closes or the list changes. */
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
  }
>() {
  /** The catalogue over the pool; uses `Elicitation` when the context has one (it is optional). */
  static readonly layer: Layer.Layer<ToolRegistry, never, ConnectionPool | Permission | McpConfig> = Layer.effect(
    ToolRegistry,
    Effect.suspend(() => make)
  )
}

/** A server's tools as listed over one connection (collisions apart), and by name for `call`. */
interface ToolList extends IndexedTools {
  readonly byName: ReadonlyMap<string, McpTool>
}

/** The tools list on a connection (`connection.lists`), dropped by `tools/list_changed`. */
const toolsList = new ListKey<ToolList>("tools", "tools")

const noTools: ToolList = { tools: [], collisions: new Map(), byName: new Map() }

const fetchTools = async (connection: Connection, signal: AbortSignal | undefined): Promise<ToolList> => {
  const tools: Array<McpTool> = []
  let cursor: string | undefined
  do {
    const page = await connection.client.listTools(cursor ? { cursor } : undefined, { signal })
    for (const tool of page.tools) tools.push(toMcpTool(connection.server.name, tool))
    cursor = page.nextCursor
  } while (cursor)
  const indexed = indexTools(tools)
  return { ...indexed, byName: new Map(indexed.tools.map((t) => [t.name, t])) }
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

const make = Effect.gen(function*() {
  const pool = yield* ConnectionPool
  const permission = yield* Permission
  const config = yield* McpConfig
  const elicitation = Option.getOrUndefined(yield* Effect.serviceOption(Elicitation))

  // Every listed name → its server: a call is routed by this, never by re-reading the server out
  // of the name (a cut or odd server name would point elsewhere). The tool itself is then taken
  // from that server's current list, so a dropped list is never used.
  const routes = new Map<string, string>()

  const listIndexed = (server: string) =>
    pool.run(server, "tools/list", (connection, signal) =>
      connection.capabilities?.tools
        ? connection.lists.get(toolsList, () =>
          fetchTools(connection, signal).then((list) => {
            for (const t of list.tools) routes.set(t.name, t.server)
            for (const [name, clash] of list.collisions) routes.set(name, clash[0]!.server)
            return list
          }))
        : Promise.resolve(noTools))

  const listServer = (server: string) => Effect.map(listIndexed(server), (list) => list.tools)

  // A deny rule for a tool a server does not list is said once per run, not once per listing.
  const warned = new Set<string>()

  /**
   * The tool from the fetched list of a live connection, or undefined (synchronous), so `call`
   * finds its tool without a round through the pool.
   */
  const lookup = (name: string): McpTool | undefined => {
    const server = routes.get(name)
    return server === undefined ? undefined : pool.peek(server)?.lists.peek(toolsList)?.byName.get(name)
  }

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
          tools.push(...r.right.tools)
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
      return yield* Effect.fail(
        new UsageError({
          message: `Server "${candidates[0]!.name}" has no tool ${name}. Its tools: ${
            listed.map((t) => t.name).join(", ") || "none"
          }.`
        })
      )
    })

  const serverTimeouts = new Map(pool.servers.map((s) => [s.name, s.config.timeout] as const))
  const timeoutFor = (tool: McpTool, options?: CallOptions): number | undefined => {
    if (options?.timeoutMs !== undefined) return options.timeoutMs
    return serverTimeouts.get(tool.server) ?? config.limits.toolTimeoutMs
  }

  // A plain pipeline rather than a generator: this is the per-call hot path (see bench/).
  const call = (name: string, args: Record<string, unknown>, options?: CallOptions) =>
    Effect.flatMap(resolve(name), (tool) =>
      permission.authorize({
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
        Effect.zipRight(Effect.suspend(() => elicitation ? sendWithSteps(tool, args, options) : send(tool, args, options))),
        Effect.map((result) => ({ tool, result }))
      ))

  // A call refused with -32042 names the steps (URLs) the user must complete first; the typed
  // error keeps only the code, so the steps are caught on the way. After the steps the call is
  // sent once more (it was never run: the server refused it).
  const sendWithSteps = (tool: McpTool, args: Record<string, unknown>, options: CallOptions | undefined) => {
    let steps: ReadonlyArray<UrlStep> = []
    return send(tool, args, options, (s) => (steps = s)).pipe(
      Effect.catchIf(
        (error) => error._tag === "McpRequestError" && error.code === ErrorCode.UrlElicitationRequired && steps.length > 0,
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
    // Cancelling tells the server (notifications/cancelled): on our timeout, or the caller's signal.
    const controller = timeoutMs === undefined ? undefined : new AbortController()
    // A caller's signal is never handed to the SDK itself: the SDK adds a listener per request
    // and never removes it, so a long-lived signal would collect one per call. A signal derived
    // per call is dropped with the call.
    const signal = options?.signal
      ? AbortSignal.any(controller ? [controller.signal, options.signal] : [options.signal])
      : controller?.signal
    const request = pool.run(tool.server, "tools/call", (connection, signal) => {
      const sent = connection.client.callTool({ name: tool.tool, arguments: args }, CallToolResultSchema, {
        signal,
        timeout: SDK_NO_TIMEOUT,
        ...(options?.onProgress ? { onprogress: options.onProgress } : {})
      }) as Promise<CallToolResult>
      return onSteps === undefined ? sent : sent.catch((error: unknown) => {
        if (error instanceof UrlElicitationRequiredError) {
          onSteps(error.elicitations.map((e) => ({ url: e.url, message: e.message, elicitationId: e.elicitationId })))
        }
        throw error
      })
    }, {
      // A call lost with its connection is sent again on a fresh one only when running it twice
      // is harmless; otherwise the error says it may have run.
      idempotent: tool.readOnly || tool.idempotent,
      signal
    })
    return timeoutMs === undefined ? request : request.pipe(
      Effect.timeoutFail({
        duration: Duration.millis(timeoutMs),
        onTimeout: () => {
          controller!.abort()
          return new ToolTimeout({
            server: tool.server,
            tool: tool.name,
            timeoutMs,
            message: `${tool.name} did not answer within ${timeoutMs} ms and was cancelled. ` +
              `Raise it with --timeout MS, the server's "timeout" setting, or MCP_TOOL_TIMEOUT.`
          })
        }
      })
    )
  }

  // One span per call, around all of it (resolve, permission, the request); the hot path inside
  // is untraced.
  const tracedCall = (name: string, args: Record<string, unknown>, options?: CallOptions) =>
    Effect.withSpan(call(name, args, options), "ToolRegistry.call", {
      captureStackTrace: false,
      attributes: { server: parseToolName(name)?.server, tool: name }
    })

  return ToolRegistry.of({ list, listServer, resolve, call: tracedCall })
})

