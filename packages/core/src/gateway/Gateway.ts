/**
 * One MCP server in front of all configured ones (`mcpctl serve`): a host that speaks MCP only to
 * a single server (an editor, another agent) gets the whole catalogue, with mcpctl's permission
 * rules, timeouts, reconnects and output budget applied to every call.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type Tool
} from "@modelcontextprotocol/sdk/types.js"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Runtime from "effect/Runtime"
import { McpConfig, outputTokensFor } from "../config/McpConfig.js"
import { ConnectionPool } from "../pool/ConnectionPool.js"
import { budgetChars, shapeCallResult } from "../content/Shape.js"
import { parseToolName } from "../catalog/Naming.js"
import { Permission } from "../permission/Permission.js"
import { redactText } from "../Redact.js"
import {
  getPrompt,
  listAllPrompts,
  listAllResources,
  readResource
} from "../catalog/Resources.js"
import { type McpTool, ToolRegistry } from "../catalog/ToolRegistry.js"

/** How the gateway introduces itself. */
export const gatewayInfo = { name: "mcpctl", version: "0.1.0" }

/** A catalogue entry as the gateway lists it: the qualified name, the server's annotations. */
export const toListedTool = (tool: McpTool): Tool => ({
  name: tool.name,
  title: tool.title,
  description: tool.description,
  inputSchema: tool.inputSchema,
  ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
  annotations: {
    title: tool.title,
    readOnlyHint: tool.readOnly,
    destructiveHint: tool.destructive,
    openWorldHint: tool.openWorld,
    idempotentHint: tool.idempotent
  }
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
 * Builds the gateway server. Tools denied by the rules are not listed at all; asks are decided by
 * whatever Prompter the Permission layer was built with (`serve` has no terminal: `--yes` or deny).
 */
export const makeGateway = Effect.gen(function*() {
  const registry = yield* ToolRegistry
  const permission = yield* Permission
  const config = yield* McpConfig
  const pool = yield* ConnectionPool
  const runExit = Runtime.runPromiseExit(yield* Effect.runtime<ConnectionPool>())
  // Runs a handler's effect; its failure is thrown as itself (an McpError keeps its code), and
  // the client cancelling the request (or going away) interrupts it.
  const run = <A, E>(effect: Effect.Effect<A, E, ConnectionPool>, signal?: AbortSignal): Promise<A> =>
    runExit(effect, { signal }).then((exit) => {
      if (Exit.isSuccess(exit)) return exit.value
      throw Cause.squash(exit.cause)
    })
  const server = new Server(gatewayInfo, {
    capabilities: { tools: { listChanged: true }, resources: { listChanged: true }, prompts: { listChanged: true } },
    instructions: "Tools, resources and prompts of every MCP server configured for mcpctl. " +
      "Tool names are mcp__<server>__<tool>; prompt names are <server>__<prompt>."
  })
  // Where a listed resource lives: URIs are the servers' own, so reads are routed by this map.
  const resourceServer = new Map<string, string>()

  server.setRequestHandler(ListToolsRequestSchema, () =>
    run(Effect.map(registry.list(), ({ tools }) => ({
      tools: tools.filter((t) => permission.decide(t.name).behavior !== "deny").map(toListedTool)
    }))))

  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    run(
      // The client's cancellation reaches the server that runs the tool, too.
      registry.call(request.params.name, request.params.arguments ?? {}, { signal: extra.signal }).pipe(
        Effect.map(({ result, tool }): CallToolResult => {
          const shaped = shapeCallResult(result as never, budgetChars(outputTokensFor(config, tool.server)))
          return {
            ...result,
            content: shaped.content as CallToolResult["content"],
            ...(shaped.structuredContent ? { structuredContent: shaped.structuredContent } : {})
          }
        }),
        Effect.catchAll((error) => Effect.succeed(errorResult(error.message)))
      ),
      extra.signal
    ))

  server.setRequestHandler(ListResourcesRequestSchema, () =>
    run(Effect.map(listAllResources(), ({ resources }) => {
      for (const r of resources) resourceServer.set(r.uri, r.server)
      return { resources: resources.map(({ server: _server, ...r }) => r) }
    })))

  server.setRequestHandler(ListResourceTemplatesRequestSchema, () =>
    run(Effect.map(listAllResources(), ({ templates }) => ({
      resourceTemplates: templates.map(({ server: _server, ...t }) => t)
    }))))

  server.setRequestHandler(ReadResourceRequestSchema, (request) =>
    run(Effect.gen(function*() {
      const uri = request.params.uri
      if (!resourceServer.has(uri)) yield* listAllResources()
      const owner = resourceServer.get(uri)
      if (!owner) {
        return yield* Effect.fail(new McpError(ErrorCode.InvalidParams, `No configured server lists the resource ${uri}`))
      }
      return yield* readResource(owner, uri).pipe(
        Effect.mapError((e) => new McpError(ErrorCode.InternalError, e.message))
      )
    })))

  server.setRequestHandler(ListPromptsRequestSchema, () =>
    run(Effect.map(listAllPrompts(), ({ prompts }) => ({
      prompts: prompts.map(({ server: owner, ...p }) => ({ ...p, name: promptName(owner, p.name) }))
    }))))

  server.setRequestHandler(GetPromptRequestSchema, (request) =>
    run(Effect.gen(function*() {
      const target = parsePromptName(request.params.name)
      if (!target) {
        return yield* Effect.fail(new McpError(ErrorCode.InvalidParams, `Unknown prompt ${request.params.name}`))
      }
      return yield* getPrompt(target.server, target.prompt, request.params.arguments ?? {}).pipe(
        Effect.mapError((e) => new McpError(ErrorCode.InternalError, e.message))
      )
    })))

  // A server's catalogue changed (or it went away): tell our client to list again.
  yield* pool.events.subscribe.pipe(
    Effect.flatMap((events) =>
      events.take.pipe(
        Effect.flatMap((event) =>
          Effect.promise(() =>
            (event._tag === "ListChanged" && event.list === "resources"
              ? server.sendResourceListChanged()
              : event._tag === "ListChanged" && event.list === "prompts"
              ? server.sendPromptListChanged()
              : server.sendToolListChanged()).catch(() => undefined)
          )
        ),
        Effect.forever
      )
    ),
    Effect.forkScoped
  )
  return server
})

/** `<server>__<prompt>`: prompt names of different servers cannot collide (pure). */
export const promptName = (server: string, prompt: string): string => `${server}__${prompt}`

/** Splits a gateway prompt name at its first `__` (server names never contain `__`). */
export const parsePromptName = (name: string): { readonly server: string; readonly prompt: string } | undefined => {
  const parsed = parseToolName(`mcp__${name}`)
  return parsed ? { server: parsed.server, prompt: parsed.tool } : undefined
}

