/** The flags every command shares, declared once. */
import * as Options from "@effect/cli/Options"

export const json = Options.boolean("json").pipe(
  Options.withDescription("Print one JSON document on stdout; messages and progress go to stderr")
)
export const config = Options.text("config").pipe(
  Options.repeated,
  Options.withDescription("Settings file to add on top of the user/project/local scopes (repeatable)")
)
export const cwd = Options.text("cwd").pipe(
  Options.optional,
  Options.withDescription("Project directory (default: the current directory)")
)
export const yes = Options.boolean("yes").pipe(
  Options.withAlias("y"),
  Options.withDescription("Approve calls that the rules say to ask about (deny rules still win)")
)

/**
 * `--log-level`: the least severe server log message (`notifications/message`) shown on stderr;
 * also sent to servers that support `logging/setLevel`, so they need not send the rest.
 */
export const logLevel = Options.choice("log-level", [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency"
] as const).pipe(
  Options.withDefault("warning" as const),
  Options.withDescription("Show server log messages at this level and above on stderr (default: warning)")
)

/** `--json`, `--config`, `--cwd`, `--log-level`. */
export const global = { json, config, cwd, logLevel } as const
