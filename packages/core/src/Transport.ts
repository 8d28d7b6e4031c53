/**
 * Server config → a live SDK `Transport`, as a scoped resource: closing the scope closes the
 * transport and, for stdio, ends the whole process group. The pool never constructs transports
 * itself, so tests swap this one layer for in-memory or faulty transports.
 */
import type { Transport as SdkTransport } from "@modelcontextprotocol/sdk/shared/transport.js"
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import type { ResolvedServer } from "./Config.js"
import type { ServerUnavailable } from "./Errors.js"

/** A concrete way to reach a server; `auto` in the config is resolved to `http` then `sse`. */
export type ConcreteKind = "stdio" | "http" | "sse" | "ws"

/** An opened, not yet started transport (the SDK `Client.connect` starts it). */
export interface OpenedTransport {
  readonly kind: ConcreteKind
  readonly transport: SdkTransport
  /**
   * What the server said before it failed (the tail of a stdio server's stderr), to put into the
   * error when connecting fails. Undefined when there is nothing to add.
   */
  readonly diagnostics: () => string | undefined
}

/** Opens transports for servers. */
export class Transport extends Context.Tag("@mcpctl/core/Transport")<
  Transport,
  {
    readonly open: (
      server: ResolvedServer,
      kind: ConcreteKind
    ) => Effect.Effect<OpenedTransport, ServerUnavailable, Scope.Scope>
  }
>() {}

/** The kinds to try for a server, in order: `auto` is Streamable HTTP, then SSE on a 4xx. */
export const candidateKinds = (server: ResolvedServer): ReadonlyArray<ConcreteKind> =>
  server.transport === "auto" ? ["http", "sse"] : [server.transport]
