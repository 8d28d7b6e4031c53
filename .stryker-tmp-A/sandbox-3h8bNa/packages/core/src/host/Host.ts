/**
 * The one composition of the core services (settings → transport → pool → permission →
 * registry), used by the CLI and by `@mcpctl/testing`: what varies between hosts — where
 * settings come from, how servers are opened, who answers asks and elicitations, where "always"
 * answers go, whether sign-in may happen inline, where server logs go — are options.
 *
 * Beside it, the runtime pieces a host program installs once: `layerLogger` (Effect's logs on
 * stderr, never stdout) and `layerTracing` (spans to an OTLP collector when
 * `OTEL_EXPORTER_OTLP_ENDPOINT` is set; the exporter is loaded only then).
 */
// @ts-nocheck

import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import * as HashSet from "effect/HashSet"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as EffectLogLevel from "effect/LogLevel"
import * as Option from "effect/Option"
import { Pins } from "../catalog/Pins.js"
import { forwardServerLogs, type LogLevel, type ServerLog } from "../catalog/Resources.js"
import { ServerNotices } from "../internal/catalog/ServerNotices.js"
import { ToolRegistry } from "../catalog/ToolRegistry.js"
import { sanitize } from "../internal/Sanitize.js"
import { McpConfig } from "../config/McpConfig.js"
import { Elicitation } from "../elicitation/Elicitation.js"
import * as ElicitationModule from "../elicitation/Elicitation.js"
import { Permission, Prompter, RuleWriter } from "../permission/Permission.js"
import { ConnectionPool, type PoolOptions } from "../pool/ConnectionPool.js"
import { RemoteAuth, type RemoteAuthOptions } from "../auth/SignIn.js"
import * as ProcessGroups from "../internal/transport/ProcessGroups.js"
import { Transport } from "../transport/Transport.js"
import { parseTraceparent } from "../internal/traceContext.js"
import * as Path from "node:path"

/**
 * What a host chooses; everything but the settings has a default fit for tests and scripts.
 * @since 0.1.0
 */
export interface HostOptions<E = never> {
  /** The settings: `McpConfig.layer(...)` (settings files) or `McpConfig.layerStatic(...)` (code). */
  readonly config: Layer.Layer<McpConfig, E>
  /**
   * How servers are opened. Default: the real transports, with the OAuth providers of
   * `RemoteAuth` for remote servers. Tests pass in-memory or faulty transports.
   */
  readonly transport?: Layer.Layer<Transport> | undefined
  /** Who answers permission asks. Default `Prompter.layerNone`: an ask fails naming the rule to add. */
  readonly prompter?: Layer.Layer<Prompter> | undefined
  /** Where "always" answers go. Default `RuleWriter.layerNoop` (this session only). */
  readonly ruleWriter?: Layer.Layer<RuleWriter, never, McpConfig> | undefined
  /**
   * How servers' elicitations are answered (`Elicitation.layerTerminal`, `layerDefaults`,
   * `layerDecline`). Given, the capability is declared and refused calls (-32042) can be
   * retried; default none: the capability is not declared.
   */
  readonly elicitation?: Layer.Layer<Elicitation> | undefined
  /** Inline sign-in of remote servers. Default `{ inline: false }`: stored tokens only. */
  readonly signIn?: RemoteAuthOptions | undefined
  /** Server log notifications at `threshold` and above go to `write`. Default: dropped. */
  readonly serverLogs?: {
    readonly threshold: LogLevel
    readonly write: (log: ServerLog) => void
  } | undefined
  /**
   * More pool options: idle time to live, extra client capabilities, a `configureClient` run
   * after the host's own (log forwarding, elicitation handlers).
   */
  readonly pool?: PoolOptions | undefined
  /**
   * Where tool definitions are pinned (docs/CLI.md, Catalogue): `Pins.layer`
   * (`$MCPCTL_HOME/pins/`), `Pins.layerMemory` (this run only) or `false` (nothing). Default:
   * `Pins.layer` with the real transports; with a `transport` given, `Pins.layerMemory`, since a
   * server's command or URL then says nothing about what answers (tests, in-memory servers).
   */
  readonly pins?: Layer.Layer<Pins, never, McpConfig> | false | undefined
}

/**
 * The services a host provides (and `Pins`, unless `pins: false`).
 * @since 0.1.0
 */
export type HostServices = ToolRegistry | ConnectionPool | Permission | McpConfig | RemoteAuth | ServerNotices

/**
 * Every core service over the options. Settings are read once, when the layer builds; the pool
 * and its connections live as long as the layer's scope.
 * @since 0.1.0
 */
export const layer = <E>(options: HostOptions<E>): Layer.Layer<HostServices, E> => {
  const remoteAuth = RemoteAuth.layer(options.signIn ?? { inline: false })
  // The real transports hold every server to the response size limit, and record stdio servers'
  // process groups under $MCPCTL_HOME, where this run first reaps those of dead runs.
  const transport = options.transport ??
    Layer.unwrapEffect(Effect.map(Effect.all([RemoteAuth, McpConfig]), ([auth, config]) => {
      const ledgerDir = Path.join(config.home, "processes")
      ProcessGroups.reap(ledgerDir)
      return Transport.layerWith({ authProviderFor: auth.providerFor, maxResponseBytes: config.limits.maxResponseBytes, ledgerDir })
    }))
  // An absent elicitation layer adds nothing: the pool and the registry look the service up.
  const elicitation: Layer.Layer<never> = options.elicitation ?? Layer.empty
  const pool = Layer.unwrapEffect(
    Effect.map(
      Effect.all([Effect.serviceOption(Elicitation), ServerNotices]),
      ([found, notices]) => ConnectionPool.layerWith(poolOptions(options, Option.getOrUndefined(found), notices))
    )
  ).pipe(Layer.provide(transport))
  const permission = Permission.layer.pipe(
    Layer.provide(Layer.merge(options.prompter ?? Prompter.layerNone, options.ruleWriter ?? RuleWriter.layerNoop))
  )
  const pins: Layer.Layer<never, never, McpConfig> = options.pins === false
    ? Layer.empty
    : options.pins ?? (options.transport ? Pins.layerMemory : Pins.layer)
  return ToolRegistry.layer.pipe(
    Layer.provideMerge(Layer.mergeAll(pool, permission, pins)),
    Layer.provideMerge(Layer.mergeAll(remoteAuth, elicitation, logSettings, ServerNotices.layer)),
    Layer.provideMerge(options.config)
  )
}

/** What the settings resolved to, for `--log-level debug`: each server and where it is defined. */
const logSettings = Layer.effectDiscard(Effect.flatMap(McpConfig, (config) =>
  Effect.logDebug(
    `settings: ${config.servers.length} server${config.servers.length === 1 ? "" : "s"}` +
      config.servers.map((s) => `\n  ${s.name} (${s.transport}${s.config.disabled ? ", disabled" : ""}) from ${s.scope}: ${s.source}`).join("")
  )))

/** The pool's options: the host's client handlers first, then the caller's. */
const poolOptions = (
  options: HostOptions<unknown>,
  elicitation: Elicitation["Type"] | undefined,
  notices: ServerNotices["Type"]
): PoolOptions => {
  const extra = options.pool ?? {}
  const serverLogs = options.serverLogs
  // Every log taken goes to the host's writer and to whoever listens (serve's clients).
  const logs = serverLogs ? forwardServerLogs(serverLogs.threshold, (log) => (serverLogs.write(log), notices.log(log))) : undefined
  const configure = [logs, notices.configureClient, elicitation?.configureClient, extra.configureClient].filter((f) => f !== undefined)
  return {
    ...extra,
    ...(elicitation
      ? {
        capabilities: {
          ...extra.capabilities,
          capabilities: { ...extra.capabilities?.capabilities, ...ElicitationModule.capabilities }
        }
      }
      : {}),
    ...(configure.length > 0
      ? { configureClient: (client, server) => configure.forEach((f) => f(client, server)) }
      : {})
  }
}

// ---------------------------------------------------------------------------------------------
// Logs
// ---------------------------------------------------------------------------------------------

/**
 * Effect's log level for an MCP log level (`--log-level`): notice is info, the gravest are fatal (pure).
 * @since 0.1.0
 */
export const effectLogLevel = (level: LogLevel): EffectLogLevel.LogLevel => {
  switch (level) {
    case "debug":
      return EffectLogLevel.Debug
    case "info":
    case "notice":
      return EffectLogLevel.Info
    case "warning":
      return EffectLogLevel.Warning
    case "error":
      return EffectLogLevel.Error
    default:
      return EffectLogLevel.Fatal
  }
}

const sanitizeLogInput = (input: unknown): unknown =>
  typeof input === "string" ? sanitize(input) : Array.isArray(input) ? input.map(sanitizeLogInput) : input

/**
 * Effect's logs on stderr at `level` and above: the default and the pretty logger (both write to
 * stdout, where `--json` documents and a stdio gateway's JSON-RPC stream go) are replaced.
 * Messages go through the `Console` service's `error`, so a swapped console receives them.
 * @since 0.1.0
 */
export const layerLogger = (level: EffectLogLevel.LogLevel): Layer.Layer<never> =>
  // One layer, both references set on the fiber that builds it (a merge would set them on
  // forked fibers, and a merged-back logger set outlives the layer's scope).
  Layer.scopedDiscard(Effect.zipRight(
    Effect.locallyScopedWith(FiberRef.currentLoggers, (loggers) =>
      loggers.pipe(
        HashSet.remove(Logger.defaultLogger),
        HashSet.remove(Logger.prettyLoggerDefault),
        // Log messages quote servers and files (names, errors): sanitized like every terminal line.
        HashSet.add(Logger.mapInput(Logger.prettyLogger({ stderr: true, colors: process.stderr.isTTY === true }), sanitizeLogInput))
      )),
    Effect.locallyScoped(FiberRef.currentMinimumLogLevel, level)
  ))

// ---------------------------------------------------------------------------------------------
// Traces
// ---------------------------------------------------------------------------------------------

/**
 * Where spans go, from the standard OpenTelemetry variables; undefined when tracing is off.
 * @since 0.1.0
 */
export interface TracingSettings {
  /** The traces endpoint itself. */
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly serviceName: string
  /** The trace this run belongs to, from `TRACEPARENT` (and `TRACESTATE`); absent when unset or malformed. */
  readonly parent?: { readonly traceparent: string; readonly tracestate?: string }
}

/**
 * `k=v,k2=v2` (values percent-encoded) as headers; malformed pairs are skipped (pure).
 * @since 0.1.0
 */
export const parseOtlpHeaders = (text: string | undefined): Record<string, string> => {
  const headers: Record<string, string> = {}
  for (const pair of (text ?? "").split(",")) {
    const eq = pair.indexOf("=")
    if (eq <= 0) continue
    try {
      headers[decodeURIComponent(pair.slice(0, eq).trim())] = decodeURIComponent(pair.slice(eq + 1).trim())
    } catch {
      // not percent-decodable: skipped, like other malformed pairs
    }
  }
  return headers
}

/**
 * The OpenTelemetry variables a host honours (pure): `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (used
 * as is) or `OTEL_EXPORTER_OTLP_ENDPOINT` (+ `/v1/traces`), `OTEL_EXPORTER_OTLP_HEADERS` and
 * `…_TRACES_HEADERS`, `OTEL_SERVICE_NAME`; `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none`
 * turns tracing off. `TRACEPARENT` / `TRACESTATE` (W3C values) make the run's spans part of the
 * caller's trace.
 * @since 0.1.0
 */
export const tracingSettings = (env: Readonly<Record<string, string | undefined>>): TracingSettings | undefined => {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return undefined
  if (env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === "none") return undefined
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim()
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim()
  const url = traces ? traces : base ? `${base.replace(/\/+$/, "")}/v1/traces` : undefined
  if (url === undefined) return undefined
  return {
    url,
    headers: {
      ...parseOtlpHeaders(env.OTEL_EXPORTER_OTLP_HEADERS),
      ...parseOtlpHeaders(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS)
    },
    serviceName: env.OTEL_SERVICE_NAME?.trim() || "mcpctl",
    ...(env.TRACEPARENT !== undefined && parseTraceparent(env.TRACEPARENT) !== undefined
      ? { parent: { traceparent: env.TRACEPARENT.trim(), ...(env.TRACESTATE?.trim() ? { tracestate: env.TRACESTATE.trim() } : {}) } }
      : {})
  }
}

const tracingVariables = [
  "OTEL_SDK_DISABLED",
  "OTEL_TRACES_EXPORTER",
  "OTEL_EXPORTER_OTLP_ENDPOINT",
  "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
  "OTEL_EXPORTER_OTLP_HEADERS",
  "OTEL_EXPORTER_OTLP_TRACES_HEADERS",
  "OTEL_SERVICE_NAME",
  "TRACEPARENT",
  "TRACESTATE"
] as const

/** The tracing variables from Effect's `ConfigProvider` (the environment by default). */
const readTracingSettings = Effect.map(
  Config.all(Object.fromEntries(tracingVariables.map((name) => [name, Config.option(Config.string(name))]))),
  (values) => tracingSettings(Object.fromEntries(Object.entries(values).map(([k, v]) => [k, Option.getOrUndefined(v)])))
).pipe(Effect.orElseSucceed(() => undefined))

/**
 * The Prometheus text endpoint (`GET /metrics`: tool calls, failed calls and their duration, by
 * server and tool) on `host:port` while the scope lasts; succeeds with its URL. The exporter
 * (OpenTelemetry's `PrometheusExporter`) is loaded only here.
 * @since 0.1.0
 */
export const serveMetrics = (options: { readonly host: string; readonly port: number; readonly serviceVersion?: string }) =>
  Effect.flatMap(
    Effect.promise(() => import("../internal/metricsExport.js")),
    (metrics) => metrics.serve({ host: options.host, port: options.port, serviceVersion: options.serviceVersion ?? "0.1.0" })
  )

/**
 * Spans exported over OTLP/HTTP (JSON) when the OpenTelemetry variables name an endpoint; else
 * nothing at all: the exporter module is imported only when tracing is on. The last spans are
 * sent when the layer's scope closes (at most 1 s). Failed exports are dropped.
 * @since 0.1.0
 */
export const layerTracing = (options: { readonly serviceVersion?: string } = {}): Layer.Layer<never> =>
  Layer.unwrapEffect(Effect.gen(function*() {
    const settings = yield* readTracingSettings
    if (settings === undefined) return Layer.empty
    const otlp = yield* Effect.promise(() => import("../internal/otlp.js"))
    return otlp.layer({ ...settings, serviceVersion: options.serviceVersion ?? "0.1.0" })
  }))
