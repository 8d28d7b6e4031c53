/**
 * Server config → a live SDK `Transport`, as a scoped resource: closing the scope closes the
 * transport and, for stdio, ends the whole process group. The pool never constructs transports
 * itself, so tests swap this one layer for in-memory or faulty transports.
 */
// @ts-nocheck

import type { OAuthClientProvider } from "@modelcontextprotocol/client"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import type { ResolvedServer } from "../config/ServerConfig.js"
import { ServerUnavailable } from "../Errors.js"
import { openRemote } from "../internal/transport/Http.js"
import type { ConcreteKind, OpenedTransport } from "../internal/transport/OpenedTransport.js"
import { openStdio } from "../internal/transport/Stdio.js"

/**
 * Knobs of the real transports that do not come from the settings file.
 * @since 0.1.0
 */
export interface TransportOptions {
  /** The OAuth provider for a remote server, if it has one (internal/auth/OAuthFlow.ts builds it). */
  readonly authProviderFor?: ((server: ResolvedServer) => OAuthClientProvider | undefined) | undefined
  /** Time to response headers per HTTP request, ms (default `DEFAULT_REQUEST_TIMEOUT_MS`). */
  readonly requestTimeoutMs?: number | undefined
  /** The largest message a server may send, bytes (default 32 MiB, `MessageSize.ts`). */
  readonly maxResponseBytes?: number | undefined
  /** Where stdio servers' process groups are recorded for later runs to reap (`ProcessGroups.ts`). */
  readonly ledgerDir?: string | undefined
}

/**
 * The real `open`: stdio in its own process group, everything else over the network. A kind that
 * does not fit the entry (a `url` entry opened as stdio) is a `ServerUnavailable`, not a crash.
 * @since 0.1.0
 */
export const make = (
  options: TransportOptions = {}
): Context.Tag.Service<Transport> => ({
  open: (server, kind) => {
    const config = server.config
    if (kind === "stdio") {
      return "command" in config
        ? openStdio(server, config, { maxMessageBytes: options.maxResponseBytes, ledgerDir: options.ledgerDir })
        : Effect.fail(mismatch(server, kind))
    }
    return "url" in config
      ? openRemote(server, config, kind, {
        authProvider: options.authProviderFor?.(server),
        requestTimeoutMs: options.requestTimeoutMs,
        maxMessageBytes: options.maxResponseBytes
      })
      : Effect.fail(mismatch(server, kind))
  }
})

const mismatch = (server: ResolvedServer, kind: ConcreteKind) =>
  new ServerUnavailable({
    server: server.name,
    status: "failed",
    message: `Server "${server.name}" cannot be opened as ${kind}: its entry in ${server.source} has ${
      kind === "stdio" ? "no \"command\"" : "no \"url\""
    }.`
  })

/**
 * Opens transports for servers. Tests swap `layer` for in-memory or faulty transports.
 * @since 0.1.0
 */
export class Transport extends Context.Tag("@mcpctl/core/Transport")<
  Transport,
  {
    readonly open: (
      server: ResolvedServer,
      kind: ConcreteKind
    ) => Effect.Effect<OpenedTransport, ServerUnavailable, Scope.Scope>
  }
>() {
  /** The real transports with default options (no OAuth, 60 s per request). */
  static layer = Layer.succeed(this, make())
  /** The real transports with OAuth providers and a request timeout. */
  static layerWith = (options: TransportOptions) => Layer.succeed(this, make(options))
}

/**
 * The kinds to try for a server, in order: `auto` is Streamable HTTP, then SSE on a 4xx.
 * @since 0.1.0
 */
export const candidateKinds = (server: ResolvedServer): ReadonlyArray<ConcreteKind> =>
  server.transport === "auto" ? ["http", "sse"] : [server.transport]
