/** The flags every command shares, declared once. */
// @ts-nocheck

import * as Args from "@effect/cli/Args"
import * as Options from "@effect/cli/Options"

export const json = Options.boolean("json").pipe(
  Options.withDescription("Print one JSON document on stdout; messages and progress go to stderr")
)
export const config = Options.text("config").pipe(
  Options.repeated,
  Options.withDescription(
    "Settings file to add on top of the user/project/local scopes (repeatable); any host's format: " +
      "Claude Desktop/Code, Cursor, VS Code, Windsurf, Codex config.toml, gemini-cli"
  )
)
export const cwd = Options.text("cwd").pipe(
  Options.optional,
  Options.withDescription("Project directory (default: the current directory)")
)
export const yes = Options.boolean("yes").pipe(
  Options.withAlias("y"),
  Options.withDescription("Approve calls that the rules say to ask about (deny rules still win)")
)

const mcpLogLevels = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const
type McpLogLevel = typeof mcpLogLevels[number]

/**
 * The `--log-level` value as typed. @effect/cli has a built-in `--log-level` (Effect's own levels)
 * that removes the flag from the arguments before our option sees it whenever the value is also an
 * Effect level (debug, info, warning, error); so the command line itself is the source of truth.
 * Effect-only names map to the nearest MCP level. Arguments after `--` belong to a server command.
 */
export const logLevelFromArgv = (argv: ReadonlyArray<string>): McpLogLevel | undefined => {
  const end = argv.indexOf("--")
  const args = end < 0 ? argv : argv.slice(0, end)
  let value: string | undefined
  args.forEach((a, i) => {
    if (a === "--log-level" && i + 1 < args.length) value = args[i + 1]
    else if (a.startsWith("--log-level=")) value = a.slice("--log-level=".length)
  })
  if (value === undefined) return undefined
  const v = value.toLowerCase()
  if ((mcpLogLevels as ReadonlyArray<string>).includes(v)) return v as McpLogLevel
  return v === "all" || v === "trace" ? "debug" : v === "fatal" ? "critical" : v === "none" ? "emergency" : undefined
}

/**
 * `--log-level`: the least severe server log message (`notifications/message`) shown on stderr;
 * also sent to servers that support `logging/setLevel`, so they need not send the rest.
 */
export const logLevel = Options.choice("log-level", mcpLogLevels).pipe(
  Options.withDefault("warning" as McpLogLevel),
  Options.map((parsed): McpLogLevel => logLevelFromArgv(process.argv.slice(2)) ?? parsed),
  Options.withDescription(
    "Show server log messages at this level and above on stderr: debug, info, notice, warning (default), " +
      "error, critical, alert, emergency"
  )
)

/** `--json`, `--config`, `--cwd`, `--log-level`. */
export const global = { json, config, cwd, logLevel } as const

// ---------------------------------------------------------------------------------------------
// Ad-hoc servers: one server for this run only, never written to a settings file.

export const url = Options.text("url").pipe(
  Options.optional,
  Options.withDescription("Use the remote MCP server at URL for this run (not saved to settings)")
)
export const transport = Options.choice("transport", ["http", "sse", "ws"]).pipe(
  Options.optional,
  Options.withDescription("Transport of the --url server (default: Streamable HTTP, falling back to SSE)")
)
export const header = Options.text("header").pipe(
  Options.repeated,
  Options.withDescription("HTTP header K:V sent to the --url server (repeatable)")
)
export const stdio = Options.text("stdio").pipe(
  Options.optional,
  Options.withDescription("Use the local MCP server started by this command line for this run")
)
export const name = Options.text("name").pipe(
  Options.withDefault("adhoc"),
  Options.withDescription("Server name of the --url/--stdio server (default: adhoc)")
)

/**
 * `--protocol`: the protocol era of every server for this run, over their `protocol` settings
 * (docs/protocol.md).
 */
export const protocol = Options.choice("protocol", ["auto", "modern", "legacy"]).pipe(
  Options.optional,
  Options.withDescription(
    "Protocol era for this run: auto (probe once, remember the verdict), modern (MCP 2026-07-28) or " +
      "legacy (2025-era initialize); overrides each server's \"protocol\" setting"
  )
)

/**
 * `--url`/`--transport`/`--header`/`--stdio`/`--name` and `--protocol`: spread into every command
 * that connects (servers, tools, call, resources, prompts, auth, trust). Kept apart from `global`
 * because `add` has its own `--transport` and `--header` with a different meaning.
 */
export const adhoc = { url, transport, header, stdio, adhocName: name, protocol } as const

/**
 * `--auth`: sign in inline (browser via `$BROWSER` or the platform opener) when a remote server
 * needs it, then retry once. Implied on a terminal; scripts opt in.
 */
export const auth = Options.boolean("auth").pipe(
  Options.withDescription("Sign in to remote servers that need it (opens a browser), then retry")
)

/** `[SERVER…]` of the listing commands: the servers to ask (default: every enabled one). */
export const servers = Args.text({ name: "server" }).pipe(
  Args.withDescription("The servers to ask, by name (default: every enabled server)"),
  Args.repeated
)
