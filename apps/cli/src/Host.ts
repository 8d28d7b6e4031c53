/**
 * The host a command runs on: the core layers composed from the command line (settings scopes,
 * how to ask for permission), and the one place that turns failures into messages and exit codes.
 */
import { addPermissionRule } from "@mcpctl/core/SettingsFile"
import { McpConfig } from "@mcpctl/core/McpConfig"
import { scopeFile } from "@mcpctl/core/SettingsLoad"
import { type ServerConfig } from "@mcpctl/core/ServerConfig"
import { ConnectionPool } from "@mcpctl/core/ConnectionPool"
import {
  type ConfigError,
  exitCodeOf,
  type McpctlError,
  UsageError
} from "@mcpctl/core/Errors"
import { forwardServerLogs, type LogLevel, type ServerLog } from "@mcpctl/core/Resources"
import { Permission, Prompter, RuleWriter } from "@mcpctl/core/Permission"
import { redactText } from "@mcpctl/core/Redact"
import { ToolRegistry } from "@mcpctl/core/ToolRegistry"
import { Transport } from "@mcpctl/core/Transport"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { elicitationCapabilities, Elicitations, makeElicitation } from "./Elicitation.js"
import { err, json } from "./Render.js"
import { RemoteAuth } from "./SignIn.js"

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
}

/** Splits `--stdio "COMMAND ARGS"` like a shell would for quotes and backslashes, nothing more (pure). */
export const splitCommandLine = (line: string): Array<string> => {
  const words: Array<string> = []
  let word: string | undefined
  let quote: string | undefined
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!
    if (quote) {
      if (c === quote) quote = undefined
      else if (c === "\\" && quote === '"' && i + 1 < line.length) word = (word ?? "") + line[++i]
      else word = (word ?? "") + c
    } else if (c === '"' || c === "'") {
      quote = c
      word ??= ""
    } else if (c === "\\" && i + 1 < line.length) word = (word ?? "") + line[++i]
    else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word)
      word = undefined
    } else word = (word ?? "") + c
  }
  if (word !== undefined) words.push(word)
  return words
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
  process.stderr.write(`${clear}[${server}${logger ? `/${logger}` : ""}] ${level}: ${text}\n`)
}

/** "Always" answers become allow rules in the project's local settings file. */
const ruleWriterLayer = Layer.effect(
  RuleWriter,
  Effect.map(McpConfig, (config) => ({
    allowAlways: (rule: string) =>
      addPermissionRule(scopeFile("local", config.projectDir, config.home), "allow", rule)
  }))
)

/** Can we ask a person? Only with a terminal on both ends, and never in `--json` mode. */
export const interactive = (flags: GlobalFlags & { readonly noPrompt?: boolean | undefined }): boolean =>
  !flags.json && !flags.noPrompt && Boolean(process.stdin.isTTY) && Boolean(process.stderr.isTTY)

/** Every core service, built from the flags. Settings are read once, when the layer builds. */
export const hostLayer = (options: HostOptions) => {
  const adhoc = adhocServers(options)
  const config: Layer.Layer<McpConfig, ConfigError | UsageError> = adhoc instanceof UsageError
    ? Layer.fail(adhoc)
    : McpConfig.layer({
      cwd: Option.getOrUndefined(options.cwd),
      configFiles: options.config,
      env: process.env,
      adhoc
    })
  const threshold = options.logLevel ?? "warning"
  const logs = forwardServerLogs(threshold, logLine)
  const elicitations = Layer.sync(Elicitations, () =>
    makeElicitation(options.yes ? "defaults" : interactive(options) ? "ask" : "decline"))
  const remoteAuth = RemoteAuth.layer(inlineAuth(options))
  // OAuth providers come from RemoteAuth (per run), elicitation handlers from Elicitations.
  const transport = Layer.unwrapEffect(Effect.map(RemoteAuth, (auth) => Transport.layerWith({ authProviderFor: auth.providerFor })))
  const pool = Layer.unwrapEffect(Effect.map(Elicitations, (elicitation) =>
    ConnectionPool.layerWith({
      capabilities: { capabilities: elicitationCapabilities },
      configureClient: (client, server) => {
        // Server log notifications never reach stdout, so `--json` stays one clean document.
        logs(client, server)
        elicitation.configure(client, server)
      }
    }))).pipe(Layer.provide(transport), Layer.provideMerge(Layer.merge(remoteAuth, elicitations)))
  const prompter = options.yes
    ? Prompter.layerYes
    : interactive(options)
    ? Prompter.layerTerminal
    : Prompter.layerNone
  const permission = Permission.layer.pipe(Layer.provide(Layer.merge(prompter, ruleWriterLayer)))
  return ToolRegistry.layer.pipe(
    Layer.provideMerge(Layer.merge(pool, permission)),
    Layer.provideMerge(config)
  )
}

/** Services a command handler may use. */
export type Host = Layer.Layer.Success<ReturnType<typeof hostLayer>>

/** The exit code of a run that did not fail (1 when a tool returned `isError`). */
let successCode = 0
/** Sets the exit code of a successful run. */
export const setExitCode = (code: number) => Effect.sync(() => (successCode = code))
/** The exit code to end with, once the command is done. */
export const exitCodeFor = (failure: McpctlError | undefined) => (failure ? exitCodeOf(failure) : successCode)

/**
 * Runs a command on the host; a failure is printed (and, with `--json`, also written as the JSON
 * document) and fails on with the same error so the exit code follows it.
 */
export const runOnHost = <A, E extends McpctlError>(
  options: HostOptions,
  program: Effect.Effect<A, E, Host>
): Effect.Effect<A, E | McpctlError> =>
  program.pipe(
    Effect.provide(hostLayer(options)),
    Effect.tapError((error) => Effect.sync(() => report(options, error)))
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
