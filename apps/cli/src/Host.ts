/**
 * The host a command runs on: the core layers composed from the command line (settings scopes,
 * how to ask for permission), and the one place that turns failures into messages and exit codes.
 */
import { addPermissionRule, McpConfig, scopeFile } from "@mcpctl/core/Config"
import { ConnectionPool } from "@mcpctl/core/ConnectionPool"
import { exitCodeOf, type McpctlError } from "@mcpctl/core/Errors"
import { forwardServerLogs, type LogLevel, type ServerLog } from "@mcpctl/core/Resources"
import { Permission, Prompter, RuleWriter } from "@mcpctl/core/Permission"
import { ToolRegistry } from "@mcpctl/core/ToolRegistry"
import { Transport } from "@mcpctl/core/Transport"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { err, json } from "./Render.js"

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
  /** `--log-level`: server log messages at this level and above go to stderr (default warning). */
  readonly logLevel?: LogLevel
}

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
export const interactive = (flags: GlobalFlags): boolean =>
  !flags.json && Boolean(process.stdin.isTTY) && Boolean(process.stderr.isTTY)

/** Every core service, built from the flags. Settings are read once, when the layer builds. */
export const hostLayer = (options: HostOptions) => {
  const config = McpConfig.layer({
    cwd: Option.getOrUndefined(options.cwd),
    configFiles: options.config,
    env: process.env
  })
  const threshold = options.logLevel ?? "warning"
  const pool = ConnectionPool.layerWith({
    // Server log notifications never reach stdout, so `--json` stays one clean document.
    configureClient: forwardServerLogs(threshold, logLine)
  }).pipe(Layer.provide(Transport.layer))
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
  err(`mcpctl: ${error.message}`)
  if (flags.json) {
    const { _tag, message, ...fields } = error as McpctlError & Record<string, unknown>
    json({ error: { type: _tag, message, exitCode: exitCodeOf(error), ...fields } })
  }
}
