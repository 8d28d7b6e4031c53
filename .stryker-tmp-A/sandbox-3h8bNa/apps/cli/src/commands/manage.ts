/**
 * `mcpctl add`, `remove`, `get`: edit and show server entries. Edits go through Config's settings
 * editor (comments kept, atomic writes); `get` never prints a secret.
 */
// @ts-nocheck

import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { findServer, unknownServerMessage } from "@mcpctl/core/ServerConfig"
import { McpConfig } from "@mcpctl/core/McpConfig"
import { keepingTrust } from "@mcpctl/core/internal/config/ProjectTrust"
import { removeServerEntry, writeServerEntry } from "@mcpctl/core/internal/config/SettingsFile"
import { normalizeServerName, resolveHome, scopeFile } from "@mcpctl/core/internal/config/SettingsLoad"
import { type McpctlError, UsageError } from "@mcpctl/core/Errors"
import { redactServerConfig } from "@mcpctl/core/internal/config/Redact"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Flags from "../Flags.js"
import { projectDirOf, report, runOnHost } from "../Host.js"
import { err, json, out } from "../Render.js"

const scope = Options.choice("scope", ["local", "project", "user"]).pipe(
  Options.optional,
  Options.withDescription(
    "Settings scope to write: local (default: .mcpctl/settings.local.json in the project directory, not committed), " +
      "project (.mcp.json there), user ($MCPCTL_HOME/settings.json)"
  )
)
const transport = Options.choice("transport", ["stdio", "http", "sse", "ws"]).pipe(
  Options.optional,
  Options.withDescription("How to reach the server (default: stdio for a command, Streamable HTTP for a URL)")
)
const envPairs = Options.text("env").pipe(
  Options.repeated,
  Options.withDescription("An environment variable K=V of a stdio server; write ${VAR} to keep a secret out of the file (repeatable)")
)
const headerPairs = Options.text("header").pipe(
  Options.repeated,
  Options.withDescription("An HTTP header K:V of a remote server, e.g. \"Authorization: Bearer ${API_TOKEN}\" (repeatable)")
)
const serverName = Args.text({ name: "name" }).pipe(Args.withDescription("The server's name in settings"))
const target = Args.text({ name: "command-or-url" }).pipe(
  Args.withDescription("After --: the command line that starts a stdio server; or the URL of a remote one"),
  Args.repeated
)

const split = (pairs: ReadonlyArray<string>, sep: string, flag: string) => {
  const out: Record<string, string> = {}
  for (const pair of pairs) {
    const at = pair.indexOf(sep)
    if (at <= 0) {
      return Effect.fail(new UsageError({ message: `${flag} ${pair}: expected KEY${sep}VALUE` }))
    }
    out[pair.slice(0, at).trim()] = pair.slice(at + 1).trim()
  }
  return Effect.succeed(out)
}

const looksLikeUrl = (text: string) => /^(https?|wss?):\/\//i.test(text)
/** `scheme://…`: meant as a URL, whatever the scheme (a command never looks like this). */
const hasScheme = (text: string) => /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(text)

/** The settings entry `add` writes (pure, so the shape is tested without files). */
export const entryFor = (
  words: ReadonlyArray<string>,
  transport: string | undefined,
  env: Record<string, string>,
  headers: Record<string, string>
): Effect.Effect<Record<string, unknown>, UsageError> => {
  if (words.length === 0) {
    return Effect.fail(new UsageError({ message: "Give the server's command (after --) or its URL." }))
  }
  const remote = transport !== undefined && transport !== "stdio" ? true : transport === "stdio" ? false : looksLikeUrl(words[0]!)
  if (!looksLikeUrl(words[0]!) && hasScheme(words[0]!) && transport !== "stdio") {
    return Effect.fail(new UsageError({
      message: `${words[0]} is not a URL mcpctl can connect to: remote servers are http://, https://, ws:// or wss://. ` +
        `A local server's command goes after --: mcpctl add NAME -- COMMAND ARGS…`
    }))
  }
  if (remote) {
    if (words.length > 1) {
      return Effect.fail(new UsageError({ message: `A remote server takes one URL; got: ${words.join(" ")}` }))
    }
    return Effect.succeed({
      ...(transport ? { type: transport } : {}),
      url: words[0],
      ...(Object.keys(headers).length > 0 ? { headers } : {})
    })
  }
  const [command, ...args] = words
  return Effect.succeed({
    command,
    ...(args.length > 0 ? { args } : {}),
    ...(Object.keys(env).length > 0 ? { env } : {})
  })
}

/**
 * The project and home directories without reading any settings: `add` and `remove` must work
 * even when some other entry is broken (that is often why the user runs them).
 */
const scopePaths = (cwd: Option.Option<string>) =>
  Effect.map(
    Effect.suspend(() => {
      const dir = projectDirOf(cwd)
      return dir instanceof UsageError ? Effect.fail(dir) : Effect.succeed(dir)
    }),
    (projectDir) => ({ projectDir, home: resolveHome(process.env) })
  )

/**
 * A server name as typed for `add`: it becomes the `<server>` of `mcp__<server>__<tool>`, so only
 * letters, digits, `_` and `-` (anything else would be rewritten, and rules written for the name
 * as typed would never match). The error proposes the rewritten name (pure).
 */
export const checkServerName = (name: string): UsageError | undefined => {
  const normalized = normalizeServerName(name)
  if (name === normalized && name !== "" && name !== "_") return undefined
  const proposal = normalized.replace(/^_+|_+$/g, "") || "server"
  return new UsageError({
    message: `Server name "${name}": use only letters, digits, _ and - (tool names are mcp__<server>__<tool>). ` +
      `For example: mcpctl add ${proposal} …`
  })
}

/** Runs a settings edit; a failure is reported like any command's. */
const editSettings = <A, E extends McpctlError>(program: Effect.Effect<A, E>) =>
  program.pipe(Effect.tapError((error) => Effect.sync(() => report({ json: false }, error))))

export const add = Command.make(
  "add",
  { cwd: Flags.cwd, scope, transport, env: envPairs, header: headerPairs, name: serverName, target },
  (flags) =>
    editSettings(Effect.gen(function*() {
      const bad = checkServerName(flags.name)
      if (bad) return yield* bad
      const config = yield* scopePaths(flags.cwd)
      const env = yield* split(flags.env, "=", "--env")
      const headers = yield* split(flags.header, ":", "--header")
      const entry = yield* entryFor(flags.target, Option.getOrUndefined(flags.transport), env, headers)
      const scope = Option.getOrElse(flags.scope, () => "local" as const)
      const file = scopeFile(scope, config.projectDir, config.home)
      // The user's own edit: a trusted project stays trusted with the new content.
      yield* keepingTrust(config.home, config.projectDir, writeServerEntry(file, flags.name, entry))
      // Which scope, in words: the default (local) is this project only, which surprises a newcomer.
      out(`Added server "${flags.name}" to the ${scope} scope (${scopeMeaning[scope]}): ${file}`)
    }))
).pipe(Command.withDescription("Write a server into a settings scope: add NAME -- COMMAND ARGS…  or  add NAME URL"))

/** What each scope `add` can write means, for its message. */
const scopeMeaning = {
  user: "every project",
  project: "this project, shared with its repository",
  local: "this project, only for you"
} as const

/** Where a server may be defined: the scope files, lowest precedence first. */
const scopeFiles = (paths: Effect.Effect.Success<ReturnType<typeof scopePaths>>) =>
  (["user", "project", "local"] as const).map((s) => ({ scope: s, file: scopeFile(s, paths.projectDir, paths.home) }))

export const remove = Command.make("remove", { cwd: Flags.cwd, scope, name: serverName }, (flags) =>
  editSettings(Effect.gen(function*() {
    const paths = yield* scopePaths(flags.cwd)
    const candidates = scopeFiles(paths).filter((c) => Option.isNone(flags.scope) || c.scope === flags.scope.value)
    const removed: Array<string> = []
    for (const c of candidates) {
      if (yield* keepingTrust(paths.home, paths.projectDir, removeServerEntry(c.file, flags.name))) removed.push(c.file)
    }
    if (removed.length === 0) {
      return yield* new UsageError({
        message: `No server "${flags.name}" in ${candidates.map((c) => c.file).join(", ")}.` +
          ` \`mcpctl get ${flags.name}\` shows where it is defined.`
      })
    }
    for (const file of removed) out(`Removed server "${flags.name}" from ${file}`)
  }))).pipe(Command.withDescription("Remove a server from a settings scope (every scope that has it, unless --scope)"))

export const get = Command.make("get", { ...Flags.global, name: serverName }, (flags) =>
  runOnHost("get", flags, Effect.gen(function*() {
    const config = yield* McpConfig
    const server = findServer(config.servers, flags.name)
    if (!server) return yield* new UsageError({ message: unknownServerMessage([flags.name], config.servers) })
    const shown = {
      name: server.name,
      scope: server.scope,
      source: server.source,
      transport: server.transport,
      config: redactServerConfig(server),
      // An unset ${VAR}: other commands say it only when they use the server (never for a disabled one).
      ...(server.unresolved ? { unresolved: server.unresolved.message } : {})
    }
    if (flags.json) return json(shown)
    out(`${shown.name}  (${shown.scope}: ${shown.source})`)
    out(`  transport: ${shown.transport}`)
    for (const [k, v] of Object.entries(shown.config)) out(`  ${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`)
    if (shown.unresolved) err(`mcpctl: warning: ${shown.unresolved}`)
  }))).pipe(Command.withDescription("Show one server's merged entry and where it comes from (secrets hidden)"))
