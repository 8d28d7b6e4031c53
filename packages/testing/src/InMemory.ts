/**
 * The Transport layer swapped for in-memory servers: each connect builds a fresh server from its
 * factory and links it to the client with the SDK's in-memory pair. No processes, no sockets;
 * the rest of the host (pool, registry, permissions) runs unchanged.
 */
import { ServerUnavailable } from "@mcpctl/core/Errors"
import { Transport } from "@mcpctl/core/Transport"
import { InMemoryTransport, ProtocolError, Server as LowLevelServer, ProtocolErrorCode } from "@modelcontextprotocol/server"
import type { McpServer, Server, CallToolResult, Tool } from "@modelcontextprotocol/server"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

/** Builds one server instance per connection. */
export type ServerFactory = () => McpServer | Server

/** A Transport layer whose servers live in this process, keyed by (normalized) server name. */
export const layer = (servers: Record<string, ServerFactory>): Layer.Layer<Transport> =>
  Layer.succeed(Transport, {
    open: (server, kind) =>
      Effect.gen(function*() {
        const factory = servers[server.name]
        if (!factory) {
          return yield* Effect.fail(
            new ServerUnavailable({
              server: server.name,
              status: "failed",
              message: `No in-memory server named "${server.name}"`
            })
          )
        }
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
        const instance = factory()
        yield* Effect.acquireRelease(
          Effect.promise(() => instance.connect(serverSide)),
          () => Effect.promise(() => instance.close().catch(() => undefined))
        )
        return { kind, transport: clientSide, diagnostics: () => undefined }
      })
  })

/** One tool of a scripted server: its definition and what a call answers. */
export interface ScriptedTool {
  readonly name: string
  readonly description?: string
  readonly title?: string
  readonly annotations?: Tool["annotations"]
  readonly inputSchema?: Tool["inputSchema"]
  /** Listed as is: the host checks a result's `structuredContent` against it. */
  readonly outputSchema?: Tool["outputSchema"]
  /**
   * `request.signal` aborts when the client cancels the call (`notifications/cancelled`);
   * `request.requestId` is the call's JSON-RPC id.
   */
  readonly call: (
    args: Record<string, unknown>,
    request: { readonly signal: AbortSignal; readonly requestId: string | number }
  ) => CallToolResult | Promise<CallToolResult>
}

/** A server from a list of tools, with plain JSON Schemas (no zod needed by tests). */
export const scriptedServer = (
  tools: ReadonlyArray<ScriptedTool>,
  info: {
    readonly name?: string
    readonly version?: string
    /** Observes every request the server receives (count listings, detect a call in flight; its params, `_meta` included). */
    readonly onRequest?: (method: string, params: Readonly<Record<string, unknown>> | undefined) => void
  } = {}
): ServerFactory =>
() => {
  const server = new LowLevelServer(
    { name: info.name ?? "scripted", version: info.version ?? "1.0.0" },
    { capabilities: { tools: { listChanged: true } } }
  )
  server.setRequestHandler("tools/list", (request) => {
    info.onRequest?.("tools/list", request.params)
    return {
    tools: tools.map((t) => ({
      name: t.name,
      description: t.description,
      title: t.title,
      annotations: t.annotations,
      inputSchema: t.inputSchema ?? { type: "object", properties: {} },
      ...(t.outputSchema !== undefined ? { outputSchema: t.outputSchema } : {})
    }))
    }
  })
  server.setRequestHandler("tools/call", async (request, ctx) => {
    info.onRequest?.("tools/call", request.params)
    const tool = tools.find((t) => t.name === request.params.name)
    if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool ${request.params.name}`)
    return tool.call(request.params.arguments ?? {}, { signal: ctx.mcpReq.signal, requestId: ctx.mcpReq.id })
  })
  return server
}

/** Text content in one line. */
export const text = (value: string, isError = false): CallToolResult => ({
  content: [{ type: "text", text: value }],
  ...(isError ? { isError: true } : {})
})
