/**
 * The gateway's MCP server (`mcpctl serve`): one `Server` that lists the whole catalogue and
 * forwards every call through mcpctl's permission rules, timeouts and output budget, and the
 * catalogue watch that tells its clients of changes. The public face is `gateway/Gateway.ts`;
 * serving it on stdio or HTTP is `gatewayServe.ts`.
 */
import { Server } from "@modelcontextprotocol/server"
import type { CallToolResult, Tool } from "@modelcontextprotocol/server"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Runtime from "effect/Runtime"
import * as Option from "effect/Option"
import { McpConfig } from "../../config/McpConfig.js"
import { ConnectionPool } from "../../pool/ConnectionPool.js"
import { outputBudget } from "../content/Budget.js"
import { shapeCallResult } from "../content/Shape.js"
import { toAnnotations } from "../catalog/Annotations.js"
import { Pins } from "../../catalog/Pins.js"
import { ServerNotices } from "../catalog/ServerNotices.js"
import { CALL_TOOL, metaTools, SEARCH_TOOLS, searchLimit, searchResult } from "./ToolSearch.js"
import { Permission } from "../../permission/Permission.js"
import { redactText } from "../config/Redact.js"
import {
  getPrompt,
  listAllPrompts,
  listAllResources
} from "../../catalog/Resources.js"
import {
  completeRouted,
  JsonRpc,
  protocolError,
  readRouted,
  toProtocolError
} from "./GatewayRequests.js"
import { type McpTool, ToolRegistry } from "../../catalog/ToolRegistry.js"
import type { CatalogNotify } from "./gatewayHttp.js"
import { indexPrompts, indexResources, promptName, upstreamPromptName } from "./GatewayCatalog.js"
import { askerOf, asOurs, refusalMessage, relayOf } from "./GatewayRelay.js"
import { makeGatewayNotices, type NoticeContext } from "./GatewayNotices.js"
import { LOCAL_SETTINGS_FILE } from "../permission/permission.js"
import * as Path from "node:path"
import { type Asker, Elicitation } from "../../elicitation/Elicitation.js"
import { type InputRelay, isInputRequired } from "../pool/InputRelay.js"
import { isTaskAnswer, makeGatewayTasks, negotiatesTasks, TASK_METHODS, TASKS_EXTENSION } from "./GatewayTasks.js"

/**
 * How the gateway introduces itself.
 * @since 0.1.0
 */
export const gatewayInfo = { name: "mcpctl", version: "0.1.0" }

/**
 * A catalogue entry as the gateway lists it: the qualified name (or `name`, the server's own with
 * `--names upstream`), the server's annotations.
 * @since 0.1.0
 */
export const toListedTool = (tool: McpTool, name: string = tool.name): Tool => ({
  name,
  title: tool.title,
  description: tool.description,
  inputSchema: tool.inputSchema,
  ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
  // Every hint explicit, defaults applied (Annotations.ts): a client that reads a missing hint as
  // "safe" must not learn that from us.
  annotations: toAnnotations(tool, tool.title)
})

/**
 * A failure of a tool call as a tool result, so the calling model reads why (denied, timed out,
 * server down) instead of the client seeing a bare protocol error.
 */
const errorResult = (message: string): CallToolResult => ({
  isError: true,
  content: [{ type: "text", text: redactText(message) }]
})

/**
 * What a gateway lists.
 * @since 0.1.0
 */
export interface GatewayOptions {
  /**
   * The deferred catalogue (ToolSearch.ts): `tools/list` gives `search_tools` and `call_tool`
   * plus the tools of servers with `"alwaysLoad": true`, instead of every tool.
   */
  readonly toolSearch?: boolean | undefined
  /**
   * `upstream`: with exactly one enabled server, its tools and prompts under the server's own
   * names (a drop-in proxy for a client that expects them). With several, the prefixed names
   * stay (`mcpctl`, the default), so two servers' names can never clash.
   */
  readonly names?: "mcpctl" | "upstream" | undefined
}

/**
 * Whether a gateway with `options` serves the one enabled server under its own names (pure).
 * @since 0.1.0
 */
export const servesUpstreamNames = (options: GatewayOptions, enabledServers: number): boolean =>
  options.names === "upstream" && enabledServers === 1

/** How one gateway server is built: whether it tells its client of catalogue changes itself. */
interface GatewayBuild extends GatewayOptions {
  /**
   * Default true: the server sends `list_changed` on its connection (a legacy session, a stdio
   * connection, or a modern stdio connection's `subscriptions/listen`). A stateless HTTP
   * request's server answers one request; its clients hear of changes on the endpoint's
   * subscription streams instead (`watchCatalog`).
   */
  readonly pushChanges?: boolean | undefined
}

/**
 * Builds the gateway server. Tools denied by the rules are not listed at all, nor tools whose
 * definition changed since it was pinned (until trusted); asks are decided by whatever Prompter
 * the Permission layer was built with (`serve` has no terminal: `--yes` or deny).
 * @since 0.1.0
 */
export const makeGateway = (options: GatewayBuild = {}) => Effect.gen(function*() {
  const registry = yield* ToolRegistry
  const permission = yield* Permission
  const config = yield* McpConfig
  const runExit = Runtime.runPromiseExit(yield* Effect.runtime<ConnectionPool>())
  // Runs a handler's effect; its failure is thrown as a JSON-RPC error (the upstream code kept,
  // one clean message), and the client cancelling the request (or going away) interrupts it.
  const run = <A, E>(effect: Effect.Effect<A, E, ConnectionPool>, signal?: AbortSignal): Promise<A> =>
    runExit(effect, { signal }).then((exit) => {
      if (Exit.isSuccess(exit)) return exit.value
      throw toProtocolError(Cause.squash(exit.cause))
    })
  const toolSearch = options.toolSearch === true
  const localSettings = Path.resolve(LOCAL_SETTINGS_FILE)
  const elicitation = Option.getOrUndefined(yield* Effect.serviceOption(Elicitation))
  // A 2025-era server asks in the middle of a request (elicitation/create): while a request of our
  // client runs on it, our client is asked, when it can be (GatewayRelay.askerOf).
  const asking = <A, E, R>(
    owner: Effect.Effect<{ readonly server: string }, unknown, R>,
    ask: Asker | undefined,
    effect: Effect.Effect<A, E, R>
  ): Effect.Effect<A, E, R> =>
    elicitation === undefined || ask === undefined ? effect : Effect.flatMap(Effect.option(owner), (found) =>
      Option.isNone(found) ? effect : Effect.scoped(Effect.zipRight(elicitation.relayTo(found.value.server, ask), effect)))
  const upstreamNames = servesUpstreamNames(options, config.servers.filter((s) => !s.config.disabled).length)
  const naming = upstreamNames ? upstreamPromptName : promptName
  const listedName = (tool: McpTool) => (upstreamNames ? tool.tool : tool.name)
  // A name our client sends, as the registry knows it: with upstream names, the one server's
  // tool of that name (an unknown name is left as is: the registry says it is unknown).
  const qualify = (name: string) =>
    upstreamNames
      ? Effect.map(registry.list(), ({ tools }) => tools.find((t) => t.tool === name)?.name ?? name)
      : Effect.succeed(name)
  const server = new Server(gatewayInfo, {
    capabilities: {
      tools: { listChanged: true },
      // Subscriptions go to the server that owns the URI (GatewayRequests.subscribeRouted).
      resources: { listChanged: true, subscribe: true },
      prompts: { listChanged: true },
      // Routed to the server that offers the prompt or template (GatewayRequests.ts).
      completions: {},
      // Passed on to every server that logs.
      logging: {},
      // Tasks passed through to a client that negotiated them (GatewayTasks.ts).
      extensions: { [TASKS_EXTENSION]: {} }
    },
    instructions: "Tools, resources and prompts of every MCP server configured for mcpctl. " +
      (upstreamNames
        ? "Tool and prompt names are the server's own."
        : "Tool names are mcp__<server>__<tool>; prompt names are <server>__<prompt>.") +
      (toolSearch ? ` Most tools are not listed: find them with ${SEARCH_TOOLS} and run them with ${CALL_TOOL}.` : "")
  })
  const alwaysLoad = new Set(config.servers.filter((s) => s.config.alwaysLoad === true && !s.config.disabled).map((s) => s.name))
  /** Offered to the client: not denied, and not changed since pinned. */
  const offered = (t: McpTool) => t.pin !== "changed" && permission.decide(t.name, t).behavior !== "deny"
  // A server under a server-level deny offers nothing: no tools, resources or prompts.
  const denied = (server: string) => permission.serverDenied(server) !== undefined
  // Log lines and resource updates for this client (GatewayNotices.ts).
  const notices = yield* makeGatewayNotices(server, denied, options.pushChanges !== false)
  const tasks = yield* makeGatewayTasks(config.servers.filter((s) => !s.config.disabled).map((s) => s.name), denied)
  const resourceIndex = Effect.map(listAllResources(), (all) => ({
    ...indexResources(all.resources, denied),
    templates: all.templates.filter((t) => !denied(t.server))
  }))

  server.setRequestHandler("tools/list", () =>
    run(Effect.map(toolSearch ? registry.list([...alwaysLoad]) : registry.list(), ({ tools }) => {
      const listed = tools.filter(offered).map((t) => toListedTool(t, listedName(t)))
      return { tools: toolSearch ? [...metaTools, ...listed] : listed }
    })))

  // The client's cancellation reaches the server that runs the tool, too; its progress reaches
  // the client, under the token the client sent.
  const callTool = (name: string, args: Record<string, unknown>, extra: CallExtra) =>
    Effect.flatMap(qualify(name), (qualified) => notices.during(registry.resolve(qualified), extra.notice, asking(registry.resolve(qualified), extra.ask, registry.call(qualified, args, {
      signal: extra.signal,
      onProgress: progressTo(extra._meta?.progressToken, extra.sendNotification),
      relay: extra.relay,
      // The server hears our client's own negotiation (2026-07-28): a task only for a client that can take one.
      tasks: extra.tasks
    }).pipe(
      Effect.flatMap(({ result, tool }) => Effect.map(tasks.settle(tool.server, result, extra.tasks), (settled) => ({ result: settled, tool }))),
      Effect.map(({ result: theirs, tool }): CallToolResult => {
        const result = asOurs(theirs)
        // The server asks our client (relayed), or made a task of the call: sent back as they came.
        if (isInputRequired(result) || isTaskAnswer(result)) return result
        const budget = outputBudget(config, tool.server, tool.tool, tool.maxResultChars)
        const shaped = shapeCallResult(result as never, budget.chars, budget.hint)
        return {
          ...result,
          content: shaped.content as CallToolResult["content"],
          ...(shaped.structuredContent ? { structuredContent: shaped.structuredContent } : {})
        }
      }),
      // The server's own JSON-RPC error (a missing client capability, an unknown tool) reaches our
      // client as that error, code and data kept; what went wrong on our side (denied, timed out,
      // server down) is a tool result the calling model can read.
      Effect.catchAll((error) =>
        error._tag === "McpRequestError" && error.fromServer === true
          ? Effect.fail(error)
          : Effect.succeed(errorResult(refusalMessage(name, error, localSettings)))
      )
    ))))

  const searchTools = (args: Record<string, unknown>) =>
    typeof args.query !== "string" || args.query.trim() === ""
      ? Effect.succeed(errorResult(`${SEARCH_TOOLS} needs a "query": what the tool should do, in plain words.`))
      : Effect.map(registry.search(args.query), ({ results }) =>
        searchResult(results.map((r) => r.tool).filter(offered).slice(0, searchLimit(args.limit))))

  server.setRequestHandler("tools/call", (request, ctx) => {
    const { arguments: args = {}, name } = request.params
    const callExtra: CallExtra = {
      signal: ctx.mcpReq.signal,
      _meta: ctx.mcpReq._meta,
      sendNotification: ctx.mcpReq.notify,
      relay: relayOf(ctx.mcpReq, server.getClientCapabilities()),
      ask: askerOf(ctx.mcpReq, server.getClientCapabilities()),
      notice: ctx.mcpReq,
      tasks: negotiatesTasks(ctx.mcpReq.envelope, request.params._meta, server.getClientCapabilities())
    }
    if (toolSearch && name === SEARCH_TOOLS) return run(searchTools(args))
    if (toolSearch && name === CALL_TOOL) {
      const inner = args.arguments
      return run(
        typeof args.name !== "string"
          ? Effect.succeed(errorResult(`${CALL_TOOL} needs a "name": a tool name from ${SEARCH_TOOLS}.`))
          : callTool(args.name, inner && typeof inner === "object" && !Array.isArray(inner) ? inner as Record<string, unknown> : {}, callExtra),
        ctx.mcpReq.signal
      )
    }
    return run(callTool(name, args, callExtra), ctx.mcpReq.signal)
  })

  server.setRequestHandler("resources/list", () =>
    run(Effect.map(resourceIndex, ({ listed }) => ({ resources: listed.map(({ server: _server, ...r }) => r) }))))

  server.setRequestHandler("resources/templates/list", () =>
    run(Effect.map(resourceIndex, ({ templates }) => ({
      resourceTemplates: templates.map(({ server: _server, ...t }) => t)
    }))))

  // Reads go to the one server that owns the URI (GatewayRequests.readRouted): it lists it, or its
  // template matches, or it alone can read it; listings are cached on the connections, so a read
  // need not follow a listing. A URI two servers claim is served by neither.
  server.setRequestHandler("resources/read", (request, ctx) =>
    run(Effect.map(readRouted(request.params.uri, denied, relayOf(ctx.mcpReq, server.getClientCapabilities())), asOurs), ctx.mcpReq.signal))

  // Passed on to the server that owns the URI while any client is subscribed (GatewayNotices.ts).
  server.setRequestHandler("resources/subscribe", (request, ctx) => run(notices.subscribe(request.params.uri, true), ctx.mcpReq.signal))
  server.setRequestHandler("resources/unsubscribe", (request, ctx) => run(notices.subscribe(request.params.uri, false), ctx.mcpReq.signal))

  const promptIndex = Effect.map(listAllPrompts(), ({ prompts }) => indexPrompts(prompts, denied, naming))

  server.setRequestHandler("prompts/list", () =>
    run(Effect.map(promptIndex, (prompts) => ({
      prompts: [...prompts].map(([name, { server: _owner, ...p }]) => ({ ...p, name }))
    }))))

  server.setRequestHandler("prompts/get", (request, ctx) =>
    run(Effect.gen(function*() {
      const target = (yield* promptIndex).get(request.params.name)
      if (!target) {
        return yield* Effect.fail(protocolError(JsonRpc.InvalidParams, `Unknown prompt ${request.params.name}`))
      }
      const relay = relayOf(ctx.mcpReq, server.getClientCapabilities())
      const got = getPrompt(target.server, target.name, request.params.arguments ?? {}, relay)
      return asOurs(yield* notices.during(Effect.succeed(target), ctx.mcpReq, asking(Effect.succeed(target), askerOf(ctx.mcpReq, server.getClientCapabilities()), got)))
    }), ctx.mcpReq.signal))

  server.setRequestHandler("completion/complete", (request, ctx) => run(completeRouted(request.params, denied, naming), ctx.mcpReq.signal))

  // To the server that owns the task (GatewayTasks.ts).
  for (const method of TASK_METHODS) {
    server.setRequestHandler(method, anyParams, (raw, ctx) => {
      // The SDK hands a request's inputResponses (tasks/update) to the context, not the params.
      const answers = ctx.mcpReq.inputResponses
      const params: Record<string, unknown> = { ...(raw ?? {}) as Record<string, unknown>, ...(answers !== undefined ? { inputResponses: answers } : {}) }
      return run(tasks.forward(method, params, negotiatesTasks(ctx.mcpReq.envelope, params._meta as object | undefined, server.getClientCapabilities())), ctx.mcpReq.signal)
    })
  }

  // Remembered for this client's log lines; the servers are told the most verbose level asked.
  server.setRequestHandler("logging/setLevel", (request) => run(Effect.as(notices.setLevel(request.params.level), {})))

  // A server's catalogue changed (or it went away): tell our client to list again.
  if (options.pushChanges !== false) {
    const push = (send: () => Promise<void>) => () => void send().catch(() => undefined)
    yield* watchCatalog({
      tools: push(() => server.sendToolListChanged()),
      resources: push(() => server.sendResourceListChanged()),
      prompts: push(() => server.sendPromptListChanged())
    })
  }
  return server
})

/**
 * Calls `notify` whenever the catalogue may have changed, while the scope lasts: a server's list
 * changed (or it went away), or a tool was trusted from another process (`mcpctl trust`).
 * @since 0.1.0
 */
export const watchCatalog = (notify: CatalogNotify) => Effect.gen(function*() {
  const pool = yield* ConnectionPool
  yield* pool.events.subscribe.pipe(
    Effect.flatMap((events) =>
      events.take.pipe(
        Effect.map((event) =>
          event._tag === "ListChanged" && event.list === "resources"
            ? notify.resources()
            : event._tag === "ListChanged" && event.list === "prompts"
            ? notify.prompts()
            : notify.tools()
        ),
        Effect.forever
      )
    ),
    Effect.forkScoped
  )
  const pins = yield* Effect.serviceOption(Pins)
  if (Option.isSome(pins)) yield* pins.value.watch(Effect.sync(() => notify.tools()))
  const notices = yield* Effect.serviceOption(ServerNotices)
  const updated = notify.resourceUpdated
  if (Option.isSome(notices) && updated !== undefined) yield* notices.value.onResourceUpdated((u) => updated(u.uri))
})

/** What a forwarded call needs of its request: cancellation, the progress token, a way to notify. */
interface CallExtra {
  readonly signal: AbortSignal
  readonly _meta?: { readonly progressToken?: string | number | undefined } | undefined
  readonly sendNotification: Parameters<typeof progressTo>[1]
  /** What our client can answer of the server's questions, and this round's answers. */
  readonly relay: InputRelay | undefined
  /** How a 2025-era server's `elicitation/create` reaches our client, when it can. */
  readonly ask: Asker | undefined
  /** Where the server's log lines during the call go, and at which level the request asks. */
  readonly notice: NoticeContext
  /** Whether our client negotiated tasks: a task the server makes goes to it as a task. */
  readonly tasks: boolean
}

/** The params of a method the SDK has no schema for, checked by its handler. */
const anyParams = {
  params: { "~standard": { version: 1, vendor: "mcpctl", validate: (value: unknown) => ({ value }) } }
} as const

/**
 * Progress of a forwarded call, passed back to our client under the token it sent (none asked
 * for, none sent).
 */
const progressTo = (
  token: string | number | undefined,
  send: (notification: { method: "notifications/progress"; params: { progressToken: string | number; progress: number; total?: number; message?: string } }) => Promise<void>
) =>
  token === undefined
    ? undefined
    : (p: { progress: number; total?: number; message?: string }) =>
      void send({ method: "notifications/progress", params: { progressToken: token, ...p } }).catch(() => undefined)

/**
 * What building a gateway needs: the host's services.
 * @since 0.1.0
 */
export type GatewayRequirements = ToolRegistry | Permission | McpConfig | ConnectionPool
