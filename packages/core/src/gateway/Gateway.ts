/**
 * One MCP server in front of all configured ones (`mcpctl serve`): a host that speaks MCP only to
 * a single server (an editor, another agent) gets the whole catalogue, with mcpctl's permission
 * rules, timeouts, reconnects and output budget applied to every call.
 *
 * `Gateway.layerStdio` serves it on stdin/stdout, `Gateway.layerHttp` as Streamable HTTP (one
 * gateway per session). This module loads the SDK's server side: hosts that serve only sometimes
 * (the CLI) import it when they do. The implementation is in `internal/gateway/`.
 */
import type { Server, Tool } from "@modelcontextprotocol/server"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import type { McpTool } from "../catalog/ToolRegistry.js"
import type { UsageError } from "../Errors.js"
import type { CatalogNotify, HttpServeOptions } from "../internal/gateway/gatewayHttp.js"
import * as internal from "../internal/gateway/GatewayServer.js"
import { serveGatewayHttp, serveStdio } from "../internal/gateway/gatewayServe.js"

/**
 * How the gateway introduces itself.
 * @since 0.1.0
 */
export const gatewayInfo: { readonly name: string; readonly version: string } = internal.gatewayInfo

/**
 * A catalogue entry as the gateway lists it: the qualified name (or `name`, the server's own with
 * `--names upstream`), the server's annotations, every hint explicit.
 * @since 0.1.0
 */
export const toListedTool: (tool: McpTool, name?: string) => Tool = internal.toListedTool

/**
 * What a gateway lists: `toolSearch`, the deferred catalogue (`search_tools` and `call_tool` plus
 * the tools of servers with `"alwaysLoad": true`); `names: "upstream"`, with exactly one enabled
 * server, its tools and prompts under the server's own names (with several, the prefixed names
 * stay, so two servers' names can never clash).
 * @since 0.1.0
 */
export type GatewayOptions = internal.GatewayOptions

/**
 * Whether a gateway with `options` serves the one enabled server under its own names (pure).
 * @since 0.1.0
 */
export const servesUpstreamNames: (options: GatewayOptions, enabledServers: number) => boolean = internal.servesUpstreamNames

/**
 * What building a gateway needs: the host's services.
 * @since 0.1.0
 */
export type GatewayRequirements = internal.GatewayRequirements

/**
 * Builds the gateway server. Tools denied by the rules are not listed at all, nor tools whose
 * definition changed since it was pinned (until trusted); asks are decided by whatever Prompter
 * the Permission layer was built with (`serve` has no terminal: `--yes` or deny).
 * @since 0.1.0
 */
export const makeGateway: (options?: GatewayOptions) => Effect.Effect<Server, never, GatewayRequirements | Scope.Scope> =
  internal.makeGateway

/**
 * Calls `notify` whenever the catalogue may have changed, while the scope lasts: a server's list
 * changed (or it went away), or a tool was trusted from another process (`mcpctl trust`).
 * @since 0.1.0
 */
export const watchCatalog: (notify: CatalogNotify) => Effect.Effect<void, never, GatewayRequirements | Scope.Scope> =
  internal.watchCatalog

/**
 * Options of `Gateway.layerHttp`: `[host:]port` (0 picks a free one; off loopback a shared
 * `token` is required) or a Unix `socket`, the bearer `token` (default: a random one per run on a
 * port, none on a socket), `--allowed-host` names, the drain's grace period, readiness, and the
 * session cap, idle time and body limit.
 * @since 0.1.0
 */
export type HttpOptions = HttpServeOptions

/**
 * A gateway being served; it stops when the layer's scope closes.
 * @since 0.1.0
 */
export class Gateway extends Context.Tag("@mcpctl/core/Gateway")<
  Gateway,
  {
    /** Where clients reach it: `stdio`, or the URL of the Streamable HTTP endpoint. */
    readonly address: string
    /** Completes when the client side is gone for good: stdin closed (stdio); never for HTTP. */
    readonly closed: Effect.Effect<void>
    /** The bearer token every HTTP request must carry (`Authorization: Bearer …`); none on stdio or a socket. */
    readonly token?: string | undefined
  }
>() {
  /** Serves on stdin/stdout until the client closes stdin. Logs must not go to stdout. */
  static readonly layerStdio: Layer.Layer<Gateway, never, GatewayRequirements> = Layer.scoped(
    this,
    Effect.map(serveStdio({}), (served) => Gateway.of(served))
  )

  /** `layerStdio` with options (the deferred catalogue of `--tool-search`). */
  static readonly layerStdioWith = (options: GatewayOptions): Layer.Layer<Gateway, never, GatewayRequirements> =>
    Layer.scoped(this, Effect.map(serveStdio(options), (served) => Gateway.of(served)))

  /**
   * Serves Streamable HTTP at exactly `/mcp`, on 127.0.0.1 (loopback Host and Origin only, plus
   * `allowedHosts`), another address for replicas behind a balancer, or a 0600 Unix socket: every
   * request carries the bearer token (`token`), bodies are limited, sessions capped and closed when
   * idle, and a dropped response cancels its calls. SIGTERM's scope close drains (docs/serve.md).
   * A port or socket that cannot be bound is a `UsageError`.
   */
  static readonly layerHttp = (options: HttpOptions & GatewayOptions): Layer.Layer<Gateway, UsageError, GatewayRequirements> =>
    Layer.scoped(
      this,
      Effect.map(serveGatewayHttp(options), ({ address, token }) => Gateway.of({ address, token, closed: Effect.never }))
    )
}
