/**
 * What the daemon is started with, read through `effect/Config` (`daemon start` sets the
 * variables for the daemon it starts), why it may not run, and its log line.
 */
// @ts-nocheck

import * as Config from "effect/Config"
import * as HashMap from "effect/HashMap"
import type * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { formatLine } from "../Logs.js"
import { runDir } from "./Wire.js"

/** What the daemon is started with. */
export interface DaemonOptions {
  readonly dir: string
  /** Exit after this long without a command. */
  readonly idleMs: number
  /** The pool's idle time to live in the host processes. */
  readonly serverIdleMs: number
}

/** A positive number of milliseconds from `name`, else `fallback` (unset or not a positive number). */
const positiveMs = (name: string, fallback: number): Config.Config<number> =>
  Config.number(name).pipe(
    Config.validate({ message: `${name} must be a positive number of milliseconds`, validation: (n) => n > 0 }),
    Config.orElse(() => Config.succeed(fallback))
  )

/** The pool's idle time to live in a host process (`MCPCTL_DAEMON_SERVER_IDLE_MS`, default 5 min). */
export const serverIdleMs: Config.Config<number> = positiveMs("MCPCTL_DAEMON_SERVER_IDLE_MS", 5 * 60_000)

/**
 * The daemon's knobs (`daemon start` sets them for the daemon it starts): the run directory of
 * `MCPCTL_HOME`, `MCPCTL_DAEMON_IDLE_MS` (default 30 min), `MCPCTL_DAEMON_SERVER_IDLE_MS` (5 min).
 */
export const daemonOptions: Config.Config<DaemonOptions> = Config.all({
  dir: Config.option(Config.string("MCPCTL_HOME")).pipe(
    Config.map((home) => runDir({ MCPCTL_HOME: Option.getOrUndefined(home) }))
  ),
  idleMs: positiveMs("MCPCTL_DAEMON_IDLE_MS", 30 * 60_000),
  serverIdleMs
})

/** Why the daemon did not run: another daemon runs (exit 3), or the lock or the socket failed (exit 1). */
export class DaemonError extends Schema.TaggedError<DaemonError>()("DaemonError", {
  reason: Schema.Literal("another", "lock", "listen", "run-dir"),
  message: Schema.String,
  cause: Schema.optional(Schema.Unknown)
}) {}

/** One line of the daemon's log (pure): the time, then the CLI's line format (Logs.ts). */
export const logLine = (date: Date, line: string): string => `${date.toISOString()} ${line}`

/** The daemon's log: its stderr (run/daemon.log), one timestamped line per message. */
export const logger: Layer.Layer<never> = Logger.replace(
  Logger.defaultLogger,
  Logger.make(({ annotations, date, logLevel, message }) => {
    process.stderr.write(logLine(date, formatLine(logLevel, message, [...HashMap.toEntries(annotations)])) + "\n")
  })
)
