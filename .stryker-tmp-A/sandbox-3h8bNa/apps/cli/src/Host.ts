/**
 * The host a command runs on: `@mcpctl/core/Host` composed from the command line (settings
 * scopes, how to ask for permission and answer elicitations, inline sign-in), and the one place
 * that turns failures into messages and exit codes.
 */
// @ts-nocheck

import { type ConfigError, exitCodeOf, type McpctlError, UsageError } from "@mcpctl/core/Errors"
import { Elicitation } from "@mcpctl/core/Elicitation"
import * as CoreHost from "@mcpctl/core/Host"
import { McpConfig } from "@mcpctl/core/McpConfig"
import { Prompter, RuleWriter } from "@mcpctl/core/Permission"
import { askTrustOnTerminal } from "@mcpctl/core/internal/config/ProjectTrust"
import { redactText } from "@mcpctl/core/internal/config/Redact"
import { type PoolOptions } from "@mcpctl/core/ConnectionPool"
import { levelAtLeast, type LogLevel, type ServerLog } from "@mcpctl/core/Resources"
import { sanitize } from "@mcpctl/core/internal/Sanitize"
import { type ServerConfig } from "@mcpctl/core/ServerConfig"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { statSync } from "node:fs"
import * as Path from "node:path"
import { askInputOnTerminal } from "./InputPrompt.js"
import { err, json } from "./Render.js"
import { type Run, RunState } from "./RunState.js"
import { shellWords } from "./ShellWords.js"

/** The version `--version` prints and spans carry. */
export const VERSION = "0.1.0"

/** Flags every command takes. */
export interface GlobalFlags {
  readonly json: boolean
  readonly config: ReadonlyArray<string>
  readonly cwd: Option.Option<string>
}

/** What the host needs beyond the global flags. */
export interface HostOptions extends GlobalFlags {
  /** `--yes`: approve asks (never denies). */
  readonly yes?: boolean
  /** Never ask on the terminal, even when there is one (`serve`: stdin is the MCP stream). */
  readonly noPrompt?: boolean
  /** `--log-level`: server log messages at this level and above go to stderr (default warning). */
  readonly logLevel?: LogLevel
  /** `--auth`: sign in inline when a remote server needs it (implied on a terminal). */
  readonly auth?: boolean
  /** `--url`/`--stdio` and friends: a server for this run only. */
  readonly url?: Option.Option<string>
  readonly transport?: Option.Option<"http" | "sse" | "ws">
  readonly header?: ReadonlyArray<string>
  readonly stdio?: Option.Option<string>
  readonly adhocName?: string
  /** `--protocol`: every server's era for this run. */
  readonly protocol?: Option.Option<"auto" | "modern" | "legacy">
  /** Keep cached lists current on modern servers (`subscriptions/listen`); for long-lived commands. */
  readonly watchCatalog?: boolean
  /** Connect again to a server whose connect failed, on its next use (`serve`); else one attempt per run. */
  readonly retryConnects?: boolean
  /** Declare the tasks extension to servers (default); `serve` does not, its clients get results. */
  readonly tasks?: boolean
  /**
   * Take server log messages at every level (`serve`: its clients ask for their own levels);
   * stderr still gets only `logLevel` and above.
   */
  readonly relayServerLogs?: boolean
}

/** Splits `--stdio "COMMAND ARGS"` like a shell would for quotes and backslashes, nothing more (pure). */
export const splitCommandLine = (line: string): Array<string> => {
  const { words, last } = shellWords(line)
  return last === undefined ? words : [...words, last]
}

/**
 * The ad-hoc server of `--url`/`--stdio` as a settings entry, or nothing. Wrong combinations are
 * usage errors that say which flag to drop (pure).
 */
export const adhocServers = (
  options: HostOptions
): ReadonlyArray<{ readonly name: string; readonly config: ServerConfig }> | UsageError => {
  const url = options.url ? Option.getOrUndefined(options.url) : undefined
  const stdio = options.stdio ? Option.getOrUndefined(options.stdio) : undefined
  const transport = options.transport ? Option.getOrUndefined(options.transport) : undefined
  const headers = options.header ?? []
  const name = options.adhocName ?? "adhoc"
  if (url !== undefined && stdio !== undefined) {
    return new UsageError({ message: "Give either --url or --stdio, not both." })
  }
  if (stdio !== undefined) {
    if (transport !== undefined || headers.length > 0) {
      return new UsageError({ message: "--transport and --header apply to --url servers, not --stdio." })
    }
    const [command, ...args] = splitCommandLine(stdio)
    if (!command) return new UsageError({ message: `--stdio needs a command line, like --stdio "npx -y my-server".` })
    return [{ name, config: { command, args } }]
  }
  if (url === undefined) {
    return transport !== undefined || headers.length > 0
      ? new UsageError({ message: "--transport and --header need --url URL." })
      : []
  }
  const record: Record<string, string> = {}
  for (const h of headers) {
    const colon = h.indexOf(":")
    if (colon <= 0) return new UsageError({ message: `--header "${h}" is not K:V. Example: --header "Authorization: Bearer \${TOKEN}"` })
    record[h.slice(0, colon).trim()] = h.slice(colon + 1).trim()
  }
  return [{
    name,
    config: { url, ...(transport ? { type: transport } : {}), ...(headers.length > 0 ? { headers: record } : {}) }
  }]
}

/** Sign in inline? With `--auth`, or when a person is at a terminal to see the browser open. */
export const inlineAuth = (options: HostOptions): boolean => options.auth === true || interactive(options)

/** One server log message as a stderr line; on a terminal it first clears a progress line. */
const logLine = ({ data, level, logger, server }: ServerLog) => {
  const text = typeof data === "string" ? data : JSON.stringify(data)
  const clear = process.stderr.isTTY ? "\r\x1b[K" : ""
  // The server chose every part of this line but its name: sanitized.
  const line = sanitize(`[${server}${logger ? `/${logger}` : ""}] ${level}: ${text}`)
  process.stderr.write(`${clear}${line}\n`)
}

/** Can we ask a person? Only with a terminal on both ends, and never in `--json` mode. */
export const interactive = (flags: GlobalFlags & { readonly noPrompt?: boolean | undefined }): boolean =>
  !flags.json && !flags.noPrompt && Boolean(process.stdin.isTTY) && Boolean(process.stderr.isTTY)

/**
 * The project directory of `--cwd DIR` (absolute), else the current directory. A directory that
 * does not exist is a usage error: settings would silently be read from nowhere.
 */
export const projectDirOf = (cwd: Option.Option<string>): string | UsageError => {
  if (Option.isNone(cwd)) return process.cwd()
  const dir = Path.resolve(cwd.value)
  try {
    if (statSync(dir).isDirectory()) return dir
    return new UsageError({ message: `--cwd ${cwd.value}: not a directory. Give the project directory.` })
  } catch {
    return new UsageError({ message: `--cwd ${cwd.value}: no such directory. Give an existing project directory.` })
  }
}

/**
 * Every core service, built from the flags. Settings are read once, when the layer builds. `pool`
 * adds pool options, and overrides those the flags imply (the daemon's warm hosts: an idle time
 * to live, and `listen`).
 */
export const hostLayer = (options: HostOptions, pool: PoolOptions = {}) => {
  const adhoc = adhocServers(options)
  const projectDir = projectDirOf(options.cwd)
  const config: Layer.Layer<McpConfig, ConfigError | UsageError> = adhoc instanceof UsageError
    ? Layer.fail(adhoc)
    : projectDir instanceof UsageError
    ? Layer.fail(projectDir)
    : McpConfig.layer({
      cwd: projectDir,
      configFiles: options.config,
      env: process.env,
      adhoc,
      askInput: interactive(options) ? askInputOnTerminal : undefined,
      // A project's own servers and rules need the user's trust; asked only with a person there.
      askTrust: interactive(options) ? (request) => askTrustOnTerminal(request) : undefined
    }).pipe(Layer.tap((ctx) =>
      // Once per run, on stderr: unknown fields, misspelled keys, rules that match nothing, and the
      // fields of other hosts' files that mcpctl cannot honour.
      Effect.forEach(Context.get(ctx, McpConfig).warnings, (warning) => Effect.logWarning(warning), { discard: true })
    ))
  const ask = interactive(options)
  return CoreHost.layer({
    config,
    prompter: options.yes ? Prompter.layerYes : ask ? Prompter.layerTerminal : Prompter.layerNone,
    ruleWriter: RuleWriter.layerLocalSettings,
    // URLs a server chose are opened only after a person said yes on a terminal; `--yes` alone
    // accepts forms with their defaults and never opens a page.
    elicitation: ask
      ? (options.yes ? Elicitation.layerDefaultsOnTerminal : Elicitation.layerTerminal)
      : options.yes
      ? Elicitation.layerDefaults
      : Elicitation.layerDecline,
    signIn: { inline: inlineAuth(options) },
    // Server log notifications never reach stdout, so `--json` stays one clean document.
    serverLogs: options.relayServerLogs === true
      ? { threshold: "debug", write: (log) => levelAtLeast(log.level, options.logLevel ?? "warning") && logLine(log) }
      : { threshold: options.logLevel ?? "warning", write: logLine },
    // A command connects to each server once: listing after a failed connect reports that failure
    // instead of waiting out MCP_TIMEOUT a second time.
    pool: {
      rememberFailedConnects: options.retryConnects !== true,
      protocol: options.protocol ? Option.getOrUndefined(options.protocol) : undefined,
      // A one-shot command's lists end with it: no change stream to open (and pay for) per server.
      listen: options.watchCatalog === true,
      tasks: options.tasks !== false,
      // The caller's options win (the daemon's warm hosts keep their lists current: listen).
      ...pool
    }
  })
}

/** Services a command handler may use. */
export type Host = CoreHost.HostServices

/**
 * How a command gets its services: the default builds them for the run; the daemon's warm host
 * (daemon/WarmHosts.ts) keeps them, servers connected, from one command to the next.
 */
export type HostProvider = <A, E>(
  options: HostOptions,
  program: Effect.Effect<A, E, Host>
) => Effect.Effect<A, E | ConfigError | UsageError>

/** Builds the host for the run, and closes it with the run. */
const perRun: HostProvider = (options, program) => Effect.provide(program, hostLayer(options))

/**
 * The `HostProvider` of the running command: a run of its own builds its host (the default);
 * the daemon's host process provides its warm hosts.
 */
export class HostSource extends Context.Reference<HostSource>()("mcpctl/cli/HostSource", {
  defaultValue: (): HostProvider => perRun
}) {}

/** Sets the exit code of a run that does not fail (1 when a tool returned `isError`). */
export const setExitCode = (code: number) => Effect.map(RunState, (run) => void (run.successCode = code))
/**
 * The listing commands (`servers`, `tools`, `resources`, `prompts`) print what they could, and
 * exit 4 (server unavailable) when every server they needed failed: named ones, else every
 * enabled one. No servers at all is not a failure.
 */
export const unavailableWhenAllFailed = (needed: ReadonlyArray<string>, failed: ReadonlyArray<string>) =>
  needed.length > 0 && needed.every((name) => failed.includes(name)) ? setExitCode(4) : Effect.void

/** The exit code to end `run` with, once the command is done. */
export const exitCodeFor = (failure: McpctlError | undefined, run: Run) => (failure ? exitCodeOf(failure) : run.successCode)

/**
 * Runs `command` on the host, in a span named after it; a failure is printed (and, with
 * `--json`, also written as the JSON document) and fails on with the same error so the exit code
 * follows it.
 */
export const runOnHost = <A, E extends McpctlError>(
  command: string,
  options: HostOptions,
  program: Effect.Effect<A, E, Host>
): Effect.Effect<A, E | McpctlError> =>
  program.pipe(
    (effect) => Effect.flatMap(HostSource, (provide) => provide(options, effect)),
    Effect.tapError((error) => Effect.sync(() => report(options, error))),
    Effect.withSpan(`mcpctl ${command}`, { captureStackTrace: false }),
    // Spans of the run go to an OTLP collector when OTEL_EXPORTER_OTLP_ENDPOINT says where.
    Effect.provide(CoreHost.layerTracing({ serviceVersion: VERSION }))
  )

/** Prints a failure: the message on stderr; with `--json`, `{"error": …}` on stdout. */
export const report = (flags: Pick<GlobalFlags, "json">, error: McpctlError) => {
  // Messages may quote a server's URL (SDK and fetch errors do): never with its secrets.
  const message = redactText(error.message)
  err(`mcpctl: ${message}`)
  if (flags.json) {
    const { _tag, message: _raw, cause: _cause, ...fields } = error as McpctlError & Record<string, unknown>
    json({ error: { type: _tag, message, exitCode: exitCodeOf(error), ...fields } })
  }
}
