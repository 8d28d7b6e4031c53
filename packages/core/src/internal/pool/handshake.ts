/**
 * Opening one server for the pool: each candidate transport kind in turn (`auto`: Streamable
 * HTTP, then SSE on a 4xx), then `initialize`. Each attempt runs in a child scope of the
 * connection's scope, closed if the attempt fails, so a failed Streamable HTTP attempt is gone
 * before SSE is tried. Failures come out classified (RequestErrors.classifyConnectError).
 */
import type { Client, Implementation, Transport as SdkTransport } from "@modelcontextprotocol/client"
import * as Effect from "effect/Effect"
import * as ExecutionStrategy from "effect/ExecutionStrategy"
import * as Exit from "effect/Exit"
import * as Scope from "effect/Scope"
import type { ResolvedServer } from "../../config/ServerConfig.js"
import { ServerUnavailable } from "../../Errors.js"
import type { ConcreteKind } from "../../transport/OpenedTransport.js"
import { candidateKinds, type Transport } from "../../transport/Transport.js"
import { classifyConnectError } from "../../pool/RequestErrors.js"
import { makeSchemaValidator } from "../../pool/SchemaValidator.js"
import { HostClient } from "./hostClient.js"

/** An initialized client, not yet taken over by the pool. */
export interface Handshake {
  readonly client: Client
  readonly kind: ConcreteKind
  readonly transport: SdkTransport
  /** The server's process id (stdio only). */
  readonly pid: number | undefined
  /**
   * The client closed after `initialize` and before the pool set its own `onclose`: the pool
   * treats it as closed at once.
   */
  readonly closedEarly: () => boolean
}

/** How clients are made. */
export interface HandshakeOptions {
  readonly clientInfo: Implementation
  readonly capabilities: ConstructorParameters<typeof Client>[1] | undefined
  readonly configureClient: ((client: Client, server: ResolvedServer) => void) | undefined
  /** The SDK's own `initialize` timer, which only backs up the pool's connect timeout. */
  readonly sdkTimeoutMs: number
  /** Every transport opened and not yet closed goes here, so the pool can close them all at once. */
  readonly open?: Set<SdkTransport> | undefined
}

type Failure = { readonly cause: unknown; readonly diagnostics: string | undefined }

const attempt = (
  transport: Transport["Type"],
  server: ResolvedServer,
  kind: ConcreteKind,
  options: HandshakeOptions,
  connectionScope: Scope.Scope
): Effect.Effect<Handshake, ServerUnavailable | Failure> =>
  Effect.gen(function*() {
    const scope = yield* Scope.fork(connectionScope, ExecutionStrategy.sequential)
    return yield* Effect.gen(function*() {
      const opened = yield* transport.open(server, kind).pipe(Scope.extend(scope))
      const open = options.open
      if (open !== undefined) {
        open.add(opened.transport)
        yield* Scope.addFinalizer(scope, Effect.sync(() => open.delete(opened.transport)))
      }
      const client = new HostClient(options.clientInfo, {
        ...(options.capabilities ?? { capabilities: {} }),
        // Server-chosen `pattern`s run in linear time (SchemaValidator.ts).
        jsonSchemaValidator: makeSchemaValidator()
      })
      options.configureClient?.(client, server)
      let closed = false
      client.onclose = () => void (closed = true)
      yield* Scope.addFinalizer(scope, Effect.promise(() => client.close().catch(() => undefined)))
      yield* Effect.tryPromise({
        try: () => client.connect(opened.transport, { timeout: options.sdkTimeoutMs }),
        catch: (cause): Failure => ({ cause, diagnostics: opened.diagnostics() })
      })
      const pid = (opened.transport as { readonly pid?: unknown }).pid
      return {
        client,
        kind,
        transport: opened.transport,
        pid: typeof pid === "number" ? pid : undefined,
        closedEarly: () => closed
      }
    }).pipe(Effect.onExit((exit) => (Exit.isSuccess(exit) ? Effect.void : Scope.close(scope, exit))))
  })

/**
 * Connects `server` over the first kind that works; the transport and client live in
 * `connectionScope`. Fails with the classified error of the last attempt.
 */
export const handshake = (
  transport: Transport["Type"],
  server: ResolvedServer,
  options: HandshakeOptions,
  connectionScope: Scope.Scope
): Effect.Effect<Handshake, ServerUnavailable> =>
  Effect.gen(function*() {
    const kinds = candidateKinds(server)
    let last: Failure | undefined
    for (const [i, kind] of kinds.entries()) {
      const result = yield* Effect.either(attempt(transport, server, kind, options, connectionScope))
      if (result._tag === "Right") return result.right
      if (result.left instanceof ServerUnavailable) return yield* Effect.fail(result.left)
      last = result.left
      const canFallBack = i < kinds.length - 1 && classifyConnectError(server, last).fallback
      if (!canFallBack) break
    }
    return yield* Effect.fail(classifyConnectError(server, last!).error)
  })
