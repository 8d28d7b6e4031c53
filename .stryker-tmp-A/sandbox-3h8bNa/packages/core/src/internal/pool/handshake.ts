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
 * probes and the verdict is written for the next run. A remembered verdict that fails to connect
 * is dropped for a probe, whose verdict replaces it.
 *
 * The probe's wait (`probeTimeoutMs`) is mcpctl's own (handshakeProbe.ts): it starts when a stdio
 * server is ready to read, and a probe it cuts short decides nothing by itself. `initialize` goes
 * out next; a late `server/discover` answer offering 2026-07-28, or a refusal of `initialize`,
 * still ends in the modern era; a legacy connection after a cut-short probe is not remembered
 * and says so (`eraByTimeout`).
 */
// @ts-nocheck

import {
  type Client,
  type Implementation,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  type Transport as SdkTransport
} from "@modelcontextprotocol/client"
import * as Effect from "effect/Effect"
import * as ExecutionStrategy from "effect/ExecutionStrategy"
import * as Exit from "effect/Exit"
import * as Scope from "effect/Scope"
import type { Readable } from "node:stream"
import type { Protocol, ResolvedServer } from "../../config/ServerConfig.js"
import { ServerUnavailable } from "../../Errors.js"
import type { ConcreteKind } from "../transport/OpenedTransport.js"
import { candidateKinds, type Transport } from "../../transport/Transport.js"
import { type Era, eraKey, readVerdict, writeVerdict } from "./EraCache.js"
import { classifyConnectError, isVersionError } from "./RequestErrors.js"
import { isAuthError } from "../transport/TransportErrors.js"
import { makeSchemaValidator } from "./SchemaValidator.js"
import { HostClient } from "./hostClient.js"
import { readyToRead, watchProbe } from "./handshakeProbe.js"

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
   * The era is legacy only because the probe got no answer within its wait (a slow or silent
   * server): not remembered, and `servers` says so.
   */
  readonly eraByTimeout: boolean
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
  /** How long `auto`'s probe waits for an answer, from the server being ready to read. */
  readonly probeTimeoutMs?: number | undefined
  /**
   * A stdio server counts as ready to read at its first output, or this long after its spawn
   * (`MCPCTL_STARTUP_GRACE`), whichever comes first. Default {@link DEFAULT_STARTUP_GRACE_MS}.
   */
  readonly startupGraceMs?: number | undefined
  /** Rounds of `input_required` answered for one request before it fails (SEP-2322). */
  readonly inputRounds?: number | undefined
}

/** The 2026-07-28 revision `modern` pins. */
export const MODERN_PROTOCOL_VERSION = "2026-07-28"

/** What one attempt asks of the SDK: a fixed era, or its probe. */
type Plan = Era | "auto"

/** How long after its spawn a silent stdio server counts as ready to read. */
export const DEFAULT_STARTUP_GRACE_MS = 10_000

/**
 * SDK v2's negotiation options for a plan. The SDK's probe timer (`backstopMs`) only backs up
 * mcpctl's own wait (handshakeProbe.ts).
 */
const negotiation = (plan: Plan, version: string | undefined, backstopMs: number) =>
  plan === "legacy"
    ? { mode: "legacy" as const }
    : plan === "modern"
    ? { mode: { pin: version ?? MODERN_PROTOCOL_VERSION } }
    : { mode: "auto" as const, probe: { timeoutMs: backstopMs } }

type Failure = {
  readonly cause: unknown
  readonly diagnostics: string | undefined
  /** The probe went unanswered within its wait (and `initialize` went out after it). */
  readonly probeTimedOut?: boolean
}

/** One connected attempt, with what its probe saw and how to undo it. */
interface Attempted {
  readonly handshake: Handshake
  /** A late `server/discover` answer's modern version. */
  readonly lateModern: string | undefined
  /** Closes this attempt's client and transport (to start over in another era). */
  readonly close: Effect.Effect<void>
}

const attempt = (
  transport: Transport["Type"],
  server: ResolvedServer,
  kind: ConcreteKind,
  options: HandshakeOptions,
  connectionScope: Scope.Scope,
  plan: Plan,
  pinned: string | undefined
): Effect.Effect<Attempted, ServerUnavailable | Failure> =>
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
        versionNegotiation: negotiation(plan, pinned, options.sdkTimeoutMs),
        // input_required rounds are answered by the `elicitation/create` handler the host
        // registered (configureClient), as legacy elicitations are.
        inputRequired: { maxRounds: options.inputRounds ?? DEFAULT_INPUT_ROUNDS }
      })
      options.configureClient?.(client, server)
      let closed = false
      client.onclose = () => void (closed = true)
      yield* Scope.addFinalizer(scope, Effect.promise(() => client.close().catch(() => undefined)))
      const probing = plan === "auto" && options.probeTimeoutMs !== undefined
      const readiness = probing && kind === "stdio"
        ? readyToRead((opened.transport as { readonly stderr?: Readable | null }).stderr, options.startupGraceMs ?? DEFAULT_STARTUP_GRACE_MS)
        : { ready: Promise.resolve(), cancel: () => {} }
      const watch = probing
        ? watchProbe(opened.transport, { waitMs: options.probeTimeoutMs!, ready: readiness.ready, modern: MODERN_PROTOCOL_VERSION })
        : undefined
      yield* Effect.tryPromise({
        try: () => client.connect(opened.transport, { timeout: options.sdkTimeoutMs }),
        catch: (cause): Failure => ({ cause, diagnostics: opened.diagnostics(), probeTimedOut: watch?.timedOut() === true })
      }).pipe(Effect.ensuring(Effect.sync(() => {
        readiness.cancel()
        watch?.stop()
      })))
      const pid = (opened.transport as { readonly pid?: unknown }).pid
      const era = client.getProtocolEra() ?? "legacy"
      return {
        handshake: {
          client,
          kind,
          transport: opened.transport,
          pid: typeof pid === "number" ? pid : undefined,
          era,
          protocolVersion: client.getNegotiatedProtocolVersion(),
          eraByTimeout: era === "legacy" && watch?.timedOut() === true,
          closedEarly: () => closed
        },
        lateModern: watch?.lateModern(),
        close: Scope.close(scope, Exit.void)
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
      if (result._tag === "Left" && plan === "auto" && refusedAfterTimeout(result.left)) {
        // The probe went unanswered in its wait, and `initialize` was refused: a modern-only
        // server that was slow to answer. Its era, with the connect timeout to answer in.
        yield* Effect.logDebug(`era probe unanswered in time and initialize refused (${messageOf(result.left.cause)}): trying 2026-07-28`)
          .pipe(Effect.annotateLogs({ server: server.name }))
        result = yield* Effect.either(attempt(transport, server, kind, options, connectionScope, "modern", undefined))
      }
      if (result._tag === "Right" && result.right.lateModern !== undefined) {
        // The server answered the probe after all, offering 2026-07-28: it is modern. Start over
        // in that era (the legacy connection, if `initialize` was answered too, is closed).
        yield* Effect.logDebug(`era probe answered late (${result.right.lateModern}): connecting in the modern era`)
          .pipe(Effect.annotateLogs({ server: server.name }))
        yield* result.right.close
        result = yield* Effect.either(attempt(transport, server, kind, options, connectionScope, "modern", result.right.lateModern))
      }
      if (result._tag === "Left" && protocol === "auto" && answeredModernToInitialize(result.left)) {
        // The 2025 handshake (after a probe that got no answer in time, or from a remembered
        // legacy verdict) was answered with a 2026-07-28 version: the server is modern.
        result = yield* Effect.either(attempt(transport, server, kind, options, connectionScope, "modern", undefined))
      }
      if (result._tag === "Right") {
        const opened = result.right.handshake
        if (opened.eraByTimeout) {
          yield* Effect.logWarning(
            `no answer to the era probe within ${options.probeTimeoutMs} ms: using the 2025 era, not remembered ` +
              `(raise MCP_TIMEOUT or MCPCTL_STARTUP_GRACE, or set "protocol")`
          ).pipe(Effect.annotateLogs({ server: server.name }))
        } else if (home !== undefined && key !== undefined && !legacyOnly(kind)) {
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
 * After a probe cut short by its wait, the server answered `initialize` with an error: a
 * version error, or any JSON-RPC error (a modern-only server's refusal).
 */
const refusedAfterTimeout = (failure: ServerUnavailable | Failure): boolean =>
  !(failure instanceof ServerUnavailable) && failure.probeTimedOut === true && !isAuthError(failure.cause) &&
  (isVersionError(failure.cause) || ProtocolError.isInstance(failure.cause) || httpClientError(failure.cause))

/** An HTTP 4xx answer (a modern-only server's refusal of `initialize` over Streamable HTTP). */
const httpClientError = (cause: unknown): boolean => {
  const status = SdkHttpError.isInstance(cause) ? (cause.data as { status?: unknown } | undefined)?.status : undefined
  return typeof status === "number" && status >= 400 && status < 500
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
