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
import { cachedOnConnection, type Connection, ConnectionPool } from "../pool/ConnectionPool.js"
import { type RequestError } from "../pool/RequestErrors.js"
import {
  type ConfigError,
  type PermissionDenied,
  type ServerUnavailable,
  ToolTimeout,
  UsageError
} from "../Errors.js"
import { didYouMean } from "../Suggest.js"
import { toolHints } from "./Annotations.js"
import { buildToolName, parseToolName, truncateDescription } from "./Naming.js"
import { Permission } from "../permission/Permission.js"
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

const fetchTools = async (connection: Connection, signal: AbortSignal | undefined): Promise<ReadonlyArray<McpTool>> => {
  const tools: Array<McpTool> = []
  let cursor: string | undefined
  do {
    const page = await connection.client.listTools(cursor ? { cursor } : undefined, { signal })
    for (const tool of page.tools) tools.push(toMcpTool(connection.server.name, tool))
    cursor = page.nextCursor
  } while (cursor)
  return tools
}

const make = Effect.gen(function*() {
  const pool = yield* ConnectionPool
  const permission = yield* Permission
  const config = yield* McpConfig
  const elicitation = Option.getOrUndefined(yield* Effect.serviceOption(Elicitation))

  // Tools by name per fetched list, so `call` finds its tool without a round through the pool.
  // Keyed by the cached promise: when the list is dropped (closed, list_changed), so is this.
  const indexes = new WeakMap<Promise<unknown>, ReadonlyMap<string, McpTool>>()

  const listServer = (server: string) =>
    pool.run(server, "tools/list", (connection, signal) => {
      if (!connection.capabilities?.tools) return Promise.resolve([])
      const listed = cachedOnConnection(connection, "tools", signal, fetchTools)
      if (!indexes.has(listed)) {
        listed.then((tools) => indexes.set(listed, new Map(tools.map((t) => [t.name, t]))), () => undefined)
      }
      return listed
    })

  /** The tool from an already fetched list of a live connection, or undefined (synchronous). */
  const lookup = (name: string): McpTool | undefined => {
    const parsed = parseToolName(name)
    const listed = parsed && pool.peek(parsed.server)?.cache.get("tools")
    return listed ? indexes.get(listed)?.get(name) : undefined
  }

  const list = (servers?: ReadonlyArray<string>) =>
    Effect.gen(function*() {
      const names = servers ?? pool.servers.filter((s) => !s.config.disabled).map((s) => s.name)
      const results = yield* Effect.forEach(names, (name) => Effect.either(listServer(name)), {
        concurrency: "unbounded"
      })
      const tools: Array<McpTool> = []
      const errors: Array<ListError> = []
      results.forEach((r, i) => {
        if (r._tag === "Right") tools.push(...r.right)
        else {
          errors.push({
            server: names[i]!,
            status: r.left._tag === "ServerUnavailable" ? r.left.status : "failed",
            message: r.left.message
          })
        }
      })
      return { tools, errors }
    })

  const resolve = (name: string): Effect.Effect<McpTool, UsageError | ServerUnavailable | RequestError> => {
    const known = lookup(name)
    return known ? Effect.succeed(known) : resolveSlow(name)
  }

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
      if (!pool.servers.some((s) => s.name === parsed.server)) {
        return yield* Effect.fail(
          new UsageError({
            message: `${name}: ${unknownServerMessage([parsed.server], pool.servers)}`
          })
        )
      }
      const tools = yield* listServer(parsed.server)
      const tool = tools.find((t) => t.name === name)
      if (!tool) {
        return yield* Effect.fail(
          new UsageError({
            message: `Server "${parsed.server}" has no tool ${name}.${didYouMean(name, tools.map((t) => t.name))} Its tools: ${
              tools.map((t) => t.name).join(", ") || "none"
            }.`
          })
        )
      }
      return tool
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
          Effect.flatMap(elicitation!.urlRequired(tool.server, steps), (again) =>
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

  return ToolRegistry.of({ list, listServer, resolve, call })
})

