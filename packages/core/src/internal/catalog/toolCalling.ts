/**
 * The calling half of `ToolRegistry`: resolve → pin check → permission → `tools/call` under the
 * call's timeout (interruption cancels it on the server), with URL elicitation steps when a
 * host provides them.
 */
import type { CallToolResult, Tool } from "@modelcontextprotocol/client"
import { ProtocolErrorCode, UrlElicitationRequiredError } from "@modelcontextprotocol/client"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type { McpConfig } from "../../config/McpConfig.js"
import type { ResolvedServer } from "../../config/ServerConfig.js"
import { ToolChanged, ToolTimeout, type ServerUnavailable, type UsageError } from "../../Errors.js"
import type { Elicitation, UrlStep } from "../../elicitation/Elicitation.js"
import { parseToolName } from "../Naming.js"
import { changedMessage, type Pins } from "../../catalog/Pins.js"
import type { Permission } from "../../permission/Permission.js"
import { type ConnectionPool, request } from "../../pool/ConnectionPool.js"
import { relayParams, requestCapabilities } from "../pool/InputRelay.js"
import type { RequestError } from "../pool/RequestErrors.js"
import { checkStructuredContent } from "../pool/SchemaValidator.js"
import { trackCall } from "../callMetrics.js"
import { TASK_RESULT_KEY } from "../pool/hostClient.js"
import { defaultTracer } from "../traceContext.js"
import { type CallError, type CallOptions, type McpTool, toolDefinitionOf } from "./tools.js"

/** The SDK's own request timer must never fire before ours; this is "no SDK timeout". */
const SDK_NO_TIMEOUT = 2_147_483_647

/** What the calling half needs. */
export interface CallingDeps {
  readonly pool: ConnectionPool["Type"]
  readonly permission: Permission["Type"]
  readonly config: McpConfig["Type"]
  readonly elicitation: Elicitation["Type"] | undefined
  readonly pins: Pins["Type"] | undefined
  /** From the listing half: a tool by name, the definitions pins compare, name → server. */
  readonly resolve: (name: string) => Effect.Effect<McpTool, UsageError | ServerUnavailable | RequestError>
  /** A tool already in a live connection's fetched list, synchronously (undefined: `resolve` it). */
  readonly lookup: (name: string) => McpTool | undefined
  readonly definitions: WeakMap<McpTool, Tool>
  readonly routes: ReadonlyMap<string, string>
  readonly serverOf: ReadonlyMap<string, ResolvedServer>
}

/** Builds the calling half; the result is `ToolRegistry.call`. */
export const makeCalling = ({ config, definitions, elicitation, lookup, permission, pins, pool, resolve, routes, serverOf }: CallingDeps) => {
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

  // The per-call hot path (see bench/): a tool the live connection's list already holds is taken
  // from it synchronously, and when neither the pin check nor the permission check has anything
  // to do (both answer `Effect.void`: not changed, allowed) the call is the request alone, without
  // a fiber step for either. Anything else (a name to resolve, a pin to reload, a prompt, a
  // denial) takes the same checks, in the same order, as steps.
  const call = (name: string, args: Record<string, unknown>, options?: CallOptions) =>
    Effect.suspend(() => {
      const known = lookup(name)
      return known !== undefined ? callTool(known, args, options) : Effect.flatMap(resolve(name), (tool) => callTool(tool, args, options))
    })

  const callTool = (tool: McpTool, args: Record<string, unknown>, options: CallOptions | undefined) => {
    const pinned = checkPin(tool)
    const allowed = permission.authorize({
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
    })
    if (pinned === Effect.void && allowed === Effect.void) return sendTracked(tool, args, options)
    return Effect.zipRight(pinned, Effect.zipRight(allowed, Effect.suspend(() => sendTracked(tool, args, options))))
  }

  const sendTracked = (tool: McpTool, args: Record<string, unknown>, options: CallOptions | undefined) =>
    Effect.map(
      trackCall(tool.server, tool.tool)(elicitation ? sendWithSteps(tool, args, options) : send(tool, args, options)),
      (result) => ({ tool, result })
    )

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
        const capabilities = requestCapabilities(connection.clientCapabilities, relay, options?.tasks)
        const params = { name: tool.tool, arguments: args, ...relayParams(connection.era, relay, capabilities) }
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

  // One span per call, around all of it (resolve, permission, the request); the hot path inside
  // is untraced. Under Effect's default tracer nobody reads spans, and making one was the
  // largest cost mcpctl adds to a call (~13 of ~20 µs in process, bench/): the span is made
  // only when another tracer is installed (OTLP, a test's).
  const tracedCall = (name: string, args: Record<string, unknown>, options?: CallOptions) =>
    Effect.withFiberRuntime<{ readonly tool: McpTool; readonly result: CallToolResult }, CallError>((fiber) =>
      fiber.currentTracer === defaultTracer ? call(name, args, options) : Effect.withSpan(call(name, args, options), "ToolRegistry.call", {
        captureStackTrace: false,
        attributes: { server: routes.get(name) ?? parseToolName(name)?.server, tool: name }
      }))

  return tracedCall
}
