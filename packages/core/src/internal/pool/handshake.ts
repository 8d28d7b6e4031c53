/**
 * Opening one server for the pool: each candidate transport kind in turn (`auto`: Streamable
 * HTTP, then SSE on a 4xx), then the handshake of the server's protocol era (`server/discover`
 * for 2026-07-28, `initialize` for the 2025 era, or SDK v2's probe deciding between them). Each
 * attempt runs in a child scope of the connection's scope, closed if the attempt fails, so a
 * failed Streamable HTTP attempt is gone before SSE is tried. Failures come out classified
 * (RequestErrors.classifyConnectError).
 *
 * The era (`"protocol"` setting, `--protocol`): `legacy` and `modern` are SDK v2's `legacy` mode
 * and `{ pin: "2026-07-28" }`. `auto` uses the verdict remembered in `$MCPCTL_HOME/eras.json`
 * (EraCache.ts) when there is one, so a known server gets no probe; otherwise SDK v2's `auto`
 * probes (bounded by `probeTimeoutMs`) and the verdict is written for the next run. A remembered
 * verdict that fails to connect is dropped for a probe, whose verdict replaces it.
 */
import {
  type Client,
  type Implementation,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  type Transport as SdkTransport
} from "@modelcontextprotocol/client"
import * as Effect from "effect/Effect"
import * as ExecutionStrategy from "effect/ExecutionStrategy"
import * as Exit from "effect/Exit"
import * as Scope from "effect/Scope"
import type { Protocol, ResolvedServer } from "../../config/ServerConfig.js"
import { ServerUnavailable } from "../../Errors.js"
import type { ConcreteKind } from "../../transport/OpenedTransport.js"
import { candidateKinds, type Transport } from "../../transport/Transport.js"
import { type Era, eraKey, readVerdict, writeVerdict } from "../../pool/EraCache.js"
import { classifyConnectError, isVersionError } from "../../pool/RequestErrors.js"
import { isAuthError } from "../../transport/TransportErrors.js"
import { makeSchemaValidator } from "../../pool/SchemaValidator.js"
import { HostClient } from "./hostClient.js"

/** An initialized client, not yet taken over by the pool. */
export interface Handshake {
  readonly client: Client
  readonly kind: ConcreteKind
  readonly transport: SdkTransport
  /** The server's process id (stdio only). */
  readonly pid: number | undefined
  /** The era the connection speaks, and the protocol version negotiated. */
  readonly era: Era
  readonly protocolVersion: string | undefined
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
  /** The era asked for a server (its `protocol` setting, or `--protocol` over it); default `auto`. */
  readonly protocolOf?: ((server: ResolvedServer) => Protocol) | undefined
  /** Where era verdicts are remembered (`$MCPCTL_HOME`); undefined: nothing is remembered. */
  readonly home?: string | undefined
  /** How long `auto`'s probe waits for an answer (stdio: silence means legacy). */
  readonly probeTimeoutMs?: number | undefined
  /** Rounds of `input_required` answered for one request before it fails (SEP-2322). */
  readonly inputRounds?: number | undefined
}

/** The 2026-07-28 revision `modern` pins. */
export const MODERN_PROTOCOL_VERSION = "2026-07-28"

/** What one attempt asks of the SDK: a fixed era, or its probe. */
type Plan = Era | "auto"

/** SDK v2's negotiation options for a plan. */
const negotiation = (plan: Plan, version: string | undefined, probeTimeoutMs: number | undefined) =>
  plan === "legacy"
    ? { mode: "legacy" as const }
    : plan === "modern"
    ? { mode: { pin: version ?? MODERN_PROTOCOL_VERSION } }
    : { mode: "auto" as const, ...(probeTimeoutMs === undefined ? {} : { probe: { timeoutMs: probeTimeoutMs } }) }

type Failure = { readonly cause: unknown; readonly diagnostics: string | undefined }

const attempt = (
  transport: Transport["Type"],
  server: ResolvedServer,
  kind: ConcreteKind,
  options: HandshakeOptions,
  connectionScope: Scope.Scope,
  plan: Plan,
  pinned: string | undefined
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
        jsonSchemaValidator: makeSchemaValidator(),
        versionNegotiation: negotiation(plan, pinned, options.probeTimeoutMs),
        // input_required rounds are answered by the `elicitation/create` handler the host
        // registered (configureClient), as legacy elicitations are.
        inputRequired: { maxRounds: options.inputRounds ?? DEFAULT_INPUT_ROUNDS }
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
        era: client.getProtocolEra() ?? "legacy",
        protocolVersion: client.getNegotiatedProtocolVersion(),
        closedEarly: () => closed
      }
    }).pipe(Effect.onExit((exit) => (Exit.isSuccess(exit) ? Effect.void : Scope.close(scope, exit))))
  })

/** Rounds of `input_required` one request may take by default. */
export const DEFAULT_INPUT_ROUNDS = 8

/** SSE and WebSocket predate 2026-07-28: `auto` speaks the 2025 era over them without probing. */
const legacyOnly = (kind: ConcreteKind) => kind === "sse" || kind === "ws"

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
    const protocol = options.protocolOf?.(server) ?? "auto"
    const home = protocol === "auto" ? options.home : undefined
    const key = home === undefined ? undefined : eraKey(server)
    const known = home === undefined || key === undefined ? undefined : yield* readVerdict(home, key)
    let last: Failure | undefined
    for (const [i, kind] of kinds.entries()) {
      const plan: Plan = protocol !== "auto" ? protocol : legacyOnly(kind) ? "legacy" : known?.era ?? "auto"
      let result = yield* Effect.either(attempt(transport, server, kind, options, connectionScope, plan, known?.protocolVersion))
      if (result._tag === "Left" && known !== undefined && plan === known.era && disagrees(result.left)) {
        // The remembered era no longer works (an upgraded or replaced server): probe afresh.
        yield* Effect.logDebug(`the remembered ${plan} era failed (${messageOf(result.left.cause)}): probing again`).pipe(
          Effect.annotateLogs({ server: server.name })
        )
        result = yield* Effect.either(attempt(transport, server, kind, options, connectionScope, "auto", undefined))
      }
      if (result._tag === "Left" && plan === "auto" && probeGotNoAnswer(result.left, kind)) {
        // A stdio server that exits on the probe (SDKs that stop on any request before
        // `initialize`) is a legacy server: SDK v2 says so for its own stdio transport, which
        // probes on a sibling process; mcpctl's probes in place, so it starts the server once
        // more. An HTTP server that leaves the probe unanswered (SDK v2 calls that an outage) gets
        // `initialize` too: 2025-era servers that hold an unknown request open exist (the 0.1
        // conformance servers), and one that is really down fails that as well.
        yield* Effect.logDebug(`era probe: ${messageOf(result.left.cause)}; trying the 2025 era`).pipe(
          Effect.annotateLogs({ server: server.name })
        )
        result = yield* Effect.either(attempt(transport, server, kind, options, connectionScope, "legacy", undefined))
      }
      if (result._tag === "Left" && protocol === "auto" && answeredModernToInitialize(result.left)) {
        // The 2025 handshake (after a probe that got no answer in time, or from a remembered
        // legacy verdict) was answered with a 2026-07-28 version: the server is modern.
        result = yield* Effect.either(attempt(transport, server, kind, options, connectionScope, "modern", undefined))
      }
      if (result._tag === "Right") {
        const opened = result.right
        if (home !== undefined && key !== undefined && !legacyOnly(kind)) {
          yield* writeVerdict(home, key, opened.era, opened.protocolVersion)
        }
        return opened
      }
      if (result.left instanceof ServerUnavailable) return yield* Effect.fail(result.left)
      last = result.left
      const canFallBack = i < kinds.length - 1 && classifyConnectError(server, last).fallback
      if (!canFallBack) break
    }
    return yield* Effect.fail(classifyConnectError(server, last!, protocol).error)
  })

/**
 * The server is there but refused the era asked for (a version error, or any JSON-RPC error to
 * the opening request): a remembered verdict that gets this is stale. A server that is down,
 * fails to start or needs a sign-in is not probed again for it.
 */
const disagrees = (failure: ServerUnavailable | Failure): boolean =>
  !(failure instanceof ServerUnavailable) && !isAuthError(failure.cause) &&
  (isVersionError(failure.cause) || ProtocolError.isInstance(failure.cause))

/** SDK v2's refusal of an `initialize` result that names a modern (2026-07-28 or later) version. */
const answeredModernToInitialize = (failure: ServerUnavailable | Failure): boolean => {
  if (failure instanceof ServerUnavailable || !(failure.cause instanceof Error)) return false
  const m = /protocol version is not supported: (\d{4}-\d{2}-\d{2})/.exec(failure.cause.message)
  return m !== null && m[1]! >= MODERN_PROTOCOL_VERSION
}

/**
 * The probe got no usable answer: on stdio the server closed while it waited (SDK v2's
 * `EraNegotiationFailed`), on HTTP it timed out.
 */
const probeGotNoAnswer = (failure: ServerUnavailable | Failure, kind: ConcreteKind): failure is Failure =>
  !(failure instanceof ServerUnavailable) && SdkError.isInstance(failure.cause) &&
  (kind === "stdio"
    ? failure.cause.code === SdkErrorCode.EraNegotiationFailed
    : failure.cause.code === SdkErrorCode.RequestTimeout && /probe/i.test(failure.cause.message))

const messageOf = (cause: unknown) => (cause instanceof Error ? cause.message : String(cause))
