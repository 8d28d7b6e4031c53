/**
 * Reading the settings: every scope's file found, parsed (JSON with comments), decoded, merged
 * by precedence and `${VAR}`-expanded into the `McpConfig` service. The only place that reads
 * settings files; the pure steps are plain functions so tests call them without a file system.
 * The shapes are in `ServerConfig.ts`; `McpConfig.ts` turns `load` into the service's layers.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { printParseErrorCode, type ParseError as JsoncError } from "jsonc-parser"
import { parseJsoncSafe, unsafeKeyWarning } from "../SafeJson.js"
import { stat } from "node:fs/promises"
import * as Path from "node:path"
import {
  defaultLimits,
  type Env,
  type Limits,
  type LoadOptions,
  type MergedServer,
  type ParsedSettings,
  type PermissionRules,
  type ProjectTrustRequest,
  RemoteServerConfig,
  type ResolvedServer,
  type Scope,
  type ScopedSettings,
  type ServerConfig,
  type Settings,
  type StaticOptions,
  StdioServerConfig,
  transportOf
} from "../../config/ServerConfig.js"
import { cutServerName } from "../Naming.js"
import { contributes, isTrusted, projectHash, readTrust, recordTrust, trustedByEnv, untrustedWarning } from "./ProjectTrust.js"
import { ruleWarnings, suggestKey } from "./RuleCheck.js"
import { ConfigError } from "../../Errors.js"
import { isNotRegularFile, readRegularFile, readRegularFileSync } from "../files.js"
import { formatTitle, type HostContext, type HostSettings, readHostSettings } from "./HostFormats.js"
import * as SettingsNames from "./SettingsNames.js"

// ---------------------------------------------------------------------------------------------
// Pure logic

/** One server name per `mcp__<server>__<tool>` prefix (defined in SettingsNames.ts, which completion loads alone). */
export const normalizeServerName = SettingsNames.normalizeServerName

const VAR = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g

/**
 * Expands `${VAR}` and `${VAR:-default}` (default when unset or empty, as in sh); fails with the
 * unset variables that have no default, so a secret is never sent literally or silently empty.
 */
export function expandVars(value: string, env: Env): Either.Either<string, ReadonlyArray<string>> {
  const missing: Array<string> = []
  const out = value.replace(VAR, (_m, name: string, fallback: string | undefined) => {
    const v = env[name]
    if (fallback !== undefined) return v === undefined || v === "" ? fallback : v
    if (v === undefined) missing.push(name)
    return v ?? ""
  })
  return missing.length > 0 ? Either.left(missing) : Either.right(out)
}

/**
 * Expands every `${VAR}` of one server entry (`command`, `args`, `env`, `cwd`, `url`, `headers`);
 * the error names the server, the exact field and the variable so the fix is obvious.
 */
export function expandServer(
  name: string,
  config: ServerConfig,
  env: Env,
  source: string
): Either.Either<ServerConfig, ConfigError> {
  const failures: Array<string> = []
  const one = (field: string, v: string) =>
    Either.getOrElse(expandVars(v, env), (missing) => {
      failures.push(`mcpServers.${name}.${field} uses ${missing.map((m) => "${" + m + "}").join(", ")}`)
      return v
    })
  const record = (field: string, r: Readonly<Record<string, string>> | undefined) =>
    r && Object.fromEntries(Object.entries(r).map(([k, v]) => [k, one(`${field}.${k}`, v)]))
  const out: ServerConfig = "command" in config
    ? {
      ...config,
      command: one("command", config.command),
      ...(config.args && { args: config.args.map((a, i) => one(`args[${i}]`, a)) }),
      ...(config.env && { env: record("env", config.env) }),
      ...(config.cwd !== undefined && { cwd: one("cwd", config.cwd) })
    }
    : { ...config, url: one("url", config.url), ...(config.headers && { headers: record("headers", config.headers) }) }
  if (failures.length === 0) return Either.right(out)
  return Either.left(
    new ConfigError({
      message: `${source}: server "${name}": ${failures.join("; ")}, not set in the environment. ` +
        "Set the variable, or give a default with ${VAR:-default}.",
      file: source,
      path: failures[0]!.split(" ")[0]!
    })
  )
}

const ServersShape = Schema.Record({ key: Schema.String, value: Schema.Unknown })
const PermissionsShape = Schema.Struct({
  allow: Schema.optionalWith(Schema.Array(Schema.String), { exact: true }),
  ask: Schema.optionalWith(Schema.Array(Schema.String), { exact: true }),
  deny: Schema.optionalWith(Schema.Array(Schema.String), { exact: true })
})

const formatPath = (path: ReadonlyArray<PropertyKey>) =>
  path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join("")

/**
 * Issues with their full JSON path, one line per path: `optional` adds an "Expected undefined"
 * branch that only confuses, and a union of literals reads better as `"http" | "sse" | "ws"`.
 */
const issues = (error: ParseResult.ParseError, prefix: string) => {
  const byPath = new Map<string, Array<string>>()
  for (const i of ParseResult.ArrayFormatter.formatErrorSync(error)) {
    if (i.message.startsWith("Expected undefined")) continue
    const rel = formatPath(i.path)
    const path = rel ? `${prefix}${rel.startsWith("[") ? "" : "."}${rel}` : prefix
    byPath.set(path, [...(byPath.get(path) ?? []), i.message])
  }
  return Array.from(byPath, ([path, messages]) => {
    const m = messages.map((x) => /^Expected (.*), actual (.*)$/s.exec(x))
    const message = m.every((x) => x !== null) && m.length > 1
      ? `Expected ${m.map((x) => x![1]).join(" | ")}, actual ${m[0]![2]}`
      : messages.join("; ")
    return { path, message }
  })
}

const unknownKeys = (value: object, known: ReadonlyArray<string>) => Object.keys(value).filter((k) => !known.includes(k))

const lineCol = (text: string, offset: number) => {
  const before = text.slice(0, offset).split(/\r\n|\r|\n/)
  return `${before.length}:${before[before.length - 1]!.length + 1}`
}

/**
 * Parses one settings file (JSON with comments and trailing commas) and decodes it; every problem
 * of the file is reported at once, each with its JSON path, so one edit round fixes them all.
 */
export function parseSettingsText(text: string, file: string, host?: HostContext): Either.Either<ParsedSettings, ConfigError> {
  // `--config` files may be any host's (HostFormats.ts): translated, then decoded like ours.
  if (host) {
    const read = readHostSettings(text, file, host)
    if (Either.isLeft(read)) return Either.left(read.left)
    if (read.right.format !== "mcpctl") return decodeHostSettings(read.right, file)
  }
  const syntax: Array<JsoncError> = []
  const { value: raw, unsafeKeys } = parseJsoncSafe(text, syntax)
  if (syntax.length > 0) {
    const e = syntax[0]!
    return Either.left(new ConfigError({
      message: `${file}:${lineCol(text, e.offset)}: invalid JSON (${printParseErrorCode(e.error)}). Fix the syntax at that position.`,
      file
    }))
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return Either.left(new ConfigError({ message: `${file}: the settings must be a JSON object like {"mcpServers": {...}}.`, file }))
  }
  const problems: Array<{ path: string; message: string }> = []
  const warnings: Array<string> = unsafeKeys.map((key) => unsafeKeyWarning(file, key))
  const unknownWarning = (path: string, known?: ReadonlyArray<string>) => {
    const key = path.split(".").at(-1)!
    const likely = known && suggestKey(key, known)
    return `${file}: unknown field ${path} is ignored${likely ? ` (did you mean "${likely}"?)` : ""}`
  }
  for (const k of unknownKeys(raw, ["mcpServers", "permissions"])) warnings.push(unknownWarning(k, ["mcpServers", "permissions"]))
  const { mcpServers = {}, permissions = {} } = raw as { mcpServers?: unknown; permissions?: unknown }
  const decode = <A>(schema: Schema.Schema<A, any>, value: unknown, at: string): A | undefined => {
    const r = Schema.decodeUnknownEither(schema, { errors: "all" })(value)
    if (Either.isRight(r)) return r.right
    problems.push(...issues(r.left, at))
  }
  const perms = decode(PermissionsShape, permissions, "permissions")
  if (perms) {
    for (const k of unknownKeys(permissions as object, ["allow", "ask", "deny"])) {
      warnings.push(unknownWarning(`permissions.${k}`, ["allow", "ask", "deny"]))
    }
  }
  const servers: Array<{ name: string; config: ServerConfig }> = []
  for (const [name, entry] of Object.entries(decode(ServersShape, mcpServers, "mcpServers") ?? {})) {
    const at = `mcpServers.${name}`
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
      problems.push({ path: at, message: `expected an object like {"command": "..."} or {"url": "..."}` })
      continue
    }
    const hasCommand = "command" in entry, hasUrl = "url" in entry
    if (hasCommand === hasUrl) {
      problems.push({
        path: at,
        message: hasCommand
          ? `has both "command" and "url"; keep "command" for a local server or "url" for a remote one`
          : `needs "command" (a local server) or "url" (a remote server)`
      })
      continue
    }
    const schema = hasCommand ? StdioServerConfig : RemoteServerConfig
    for (const k of unknownKeys(entry, Object.keys(schema.fields))) warnings.push(unknownWarning(`${at}.${k}`))
    const config = decode(schema as Schema.Schema<ServerConfig, any>, entry, at)
    if (config) servers.push({ name, config })
  }
  if (problems.length > 0) {
    return Either.left(new ConfigError({
      message: `${file}: invalid settings:\n${problems.map((p) => `  ${p.path}: ${p.message}`).join("\n")}\n` +
        "Fix these fields (see docs/CLI.md, section Settings).",
      file,
      path: problems[0]!.path
    }))
  }
  return Either.right({ servers, permissions: { allow: perms?.allow ?? [], ask: perms?.ask ?? [], deny: perms?.deny ?? [] }, warnings })
}

/**
 * Decodes the servers another host's file was translated into. Fields the translation kept but
 * mcpctl's entries do not know yet (`includeTools`) join the fields it could not carry over in
 * one warning, under the names the file uses.
 */
export function decodeHostSettings(host: HostSettings, file: string): Either.Either<ParsedSettings, ConfigError> {
  const problems: Array<{ path: string; message: string }> = []
  const unhonoured = [...host.unhonoured]
  const decode = <A>(schema: Schema.Schema<A, any>, value: unknown, at: string): A | undefined => {
    const r = Schema.decodeUnknownEither(schema, { errors: "all" })(value)
    if (Either.isRight(r)) return r.right
    problems.push(...issues(r.left, at))
  }
  const servers: Array<{ name: string; config: ServerConfig }> = []
  for (const s of host.servers) {
    const at = s.at.join(".")
    const hasCommand = "command" in s.entry, hasUrl = "url" in s.entry
    if (hasCommand === hasUrl) {
      problems.push({ path: at, message: hasCommand ? `has both a command and a URL; keep one` : `needs a command or a URL` })
      continue
    }
    const schema = hasCommand ? StdioServerConfig : RemoteServerConfig
    const extra = unknownKeys(s.entry, Object.keys(schema.fields))
    for (const k of extra) unhonoured.push(`${at}.${(s.fields[k] ?? [k]).join(".")}`)
    const entry = Object.fromEntries(Object.entries(s.entry).filter(([k]) => !extra.includes(k)))
    const config = decode(schema as Schema.Schema<ServerConfig, any>, entry, at)
    if (config) servers.push({ name: s.name, config })
  }
  const perms = decode(PermissionsShape, host.permissions, "permissions")
  if (problems.length > 0) {
    return Either.left(new ConfigError({
      message: `${file} (${formatTitle[host.format]} format): invalid settings:\n` +
        `${problems.map((p) => `  ${p.path}: ${p.message}`).join("\n")}\nFix these fields.`,
      file,
      path: problems[0]!.path
    }))
  }
  const warnings = unhonoured.length > 0
    ? [`${file} (${formatTitle[host.format]} format): mcpctl cannot honour ${unhonoured.join(", ")}; ignored.`]
    : []
  return Either.right({
    servers,
    permissions: { allow: perms?.allow ?? [], ask: perms?.ask ?? [], deny: perms?.deny ?? [] },
    warnings,
    inputs: host.inputs
  })
}

const dedupe = (xs: ReadonlyArray<string>) => Array.from(new Set(xs))

/**
 * Merges files lowest precedence first: a server takes its whole entry from the highest scope
 * (no field-level mixing, which would surprise), rules of every scope add up.
 */
export function mergeSettings(files: ReadonlyArray<ScopedSettings>): Either.Either<
  { readonly servers: ReadonlyArray<MergedServer>; readonly permissions: PermissionRules; readonly warnings: ReadonlyArray<string> },
  ConfigError
> {
  const byName = new Map<string, MergedServer>()
  for (const { scope, settings, source } of files) {
    for (const { config, name } of settings.servers) {
      byName.set(name, { name: normalizeServerName(name), originalName: name, scope, source, config })
    }
  }
  const seen = new Map<string, MergedServer>()
  const cuts = new Map<string, MergedServer>()
  for (const s of byName.values()) {
    const other = seen.get(s.name)
    if (other) {
      return Either.left(new ConfigError({
        message: `servers "${other.originalName}" (${other.source}) and "${s.originalName}" (${s.source}) ` +
          `both normalize to "${s.name}"; rename one of them.`,
        file: s.source,
        path: `mcpServers.${s.originalName}`
      }))
    }
    // `mcp__fs___write_file` would read as server "fs": a name must not end in "_" once normalized.
    if (s.name === "" || s.name.endsWith("_")) {
      return Either.left(new ConfigError({
        message: `${s.source}: server "${s.originalName}" normalizes to "${s.name}", which ${s.name === "" ? "is empty" : `ends in "_"`}: ` +
          `its tools' names (mcp__${s.name}__<tool>) would read as another server's. Rename it ` +
          `(letters, digits, "-" and "_", ending in a letter or digit).`,
        file: s.source,
        path: `mcpServers.${s.originalName}`
      }))
    }
    const cut = cutServerName(s.name)
    const twin = cuts.get(cut)
    if (twin) {
      return Either.left(new ConfigError({
        message: `servers "${twin.originalName}" (${twin.source}) and "${s.originalName}" (${s.source}) share their first ` +
          `${cut.length} characters, all that fits in a 64-character tool name: their tools and rules could not be told ` +
          `apart. Shorten one of the names.`,
        file: s.source,
        path: `mcpServers.${s.originalName}`
      }))
    }
    seen.set(s.name, s)
    cuts.set(cut, s)
  }
  type List = "allow" | "ask" | "deny"
  const rules = (k: List) => dedupe(files.flatMap((f) => f.settings.permissions[k]))
  // A project's allow rules reach only its own servers (PermissionRules.projectAllow).
  const everywhere = new Set(files.filter((f) => f.scope !== "project").flatMap((f) => f.settings.permissions.allow))
  const projectAllow = dedupe(files.filter((f) => f.scope === "project").flatMap((f) => f.settings.permissions.allow))
    .filter((r) => !everywhere.has(r))
  const sources = (k: List) => {
    const byRule: Record<string, Array<string>> = {}
    for (const f of files) {
      for (const rule of f.settings.permissions[k]) {
        const at = (byRule[rule] ??= [])
        if (!at.includes(f.source)) at.push(f.source)
      }
    }
    return byRule
  }
  // A name rewritten for `mcp__<server>__<tool>` is said once, so rules are written for that name.
  const renamed = Array.from(byName.values()).filter((s) => s.name !== s.originalName).map((s) =>
    `${s.source}: server "${s.originalName}" is "${s.name}" in tool names and rules (mcp__${s.name}__<tool>); ` +
    "rename it to letters, digits, _ and - to use one name everywhere"
  )
  return Either.right({
    servers: Array.from(byName.values()),
    permissions: {
      allow: rules("allow"),
      ...(projectAllow.length > 0 && {
        projectAllow,
        projectServers: Array.from(byName.values()).filter((s) => s.scope === "project" || s.scope === "local").map((s) => s.name)
      }),
      ask: rules("ask"),
      deny: rules("deny"),
      sources: { allow: sources("allow"), ask: sources("ask"), deny: sources("deny") }
    },
    warnings: [...files.flatMap((f) => f.settings.warnings), ...renamed]
  })
}

/**
 * Expands the merged servers into what the pool connects to. A relative `cwd` resolves against
 * the project directory, where a stdio server runs by default, whatever file wrote it. A server
 * with an unset variable is kept, marked `unresolved` with the message naming file, field and
 * variable: it fails alone when it is used (the pool never starts it), so one missing token does
 * not stop every other server, `get` or `remove`. A disabled one is marked too (its message says
 * so) and warns nowhere: only `get` and `config explain` mention it, since no command uses it.
 */
export function resolveServers(
  servers: ReadonlyArray<MergedServer>,
  env: Env,
  projectDir: string
): Either.Either<{ readonly servers: ReadonlyArray<ResolvedServer>; readonly warnings: ReadonlyArray<string> }, ConfigError> {
  const out: Array<ResolvedServer> = []
  const warnings: Array<string> = []
  for (const s of servers) {
    const expanded = expandServer(s.originalName, s.config, env, s.source)
    const unresolved = Either.isLeft(expanded)
      ? {
        message: s.config.disabled ? `${expanded.left.message} (ignored: the server is disabled)` : expanded.left.message,
        path: expanded.left.path ?? `mcpServers.${s.originalName}`
      }
      : undefined
    let config = Either.getOrElse(expanded, () => s.config)
    if ("command" in config && config.cwd !== undefined) config = { ...config, cwd: Path.resolve(projectDir, config.cwd) }
    out.push({ ...s, config, rawConfig: s.config, transport: transportOf(config), ...(unresolved ? { unresolved } : {}) })
  }
  return Either.right({ servers: out, warnings })
}

const limitVars = [
  ["MCP_TIMEOUT", "connectTimeoutMs"],
  ["MCP_TOOL_TIMEOUT", "toolTimeoutMs"],
  ["MAX_MCP_OUTPUT_TOKENS", "maxOutputTokens"],
  ["MCP_SERVER_CONNECTION_BATCH_SIZE", "localConcurrency"],
  ["MCP_REMOTE_SERVER_CONNECTION_BATCH_SIZE", "remoteConcurrency"],
  ["MCPCTL_MAX_RESPONSE_BYTES", "maxResponseBytes"],
  ["MCPCTL_STARTUP_GRACE", "startupGraceMs"]
] as const

/** Reads the limits from the environment; a typo like `MCP_TIMEOUT=30s` fails loudly instead of meaning "no timeout". */
export function limitsFromEnv(env: Env): Either.Either<Limits, ConfigError> {
  const limits: Record<string, number | undefined> = { ...defaultLimits }
  for (const [variable, key] of limitVars) {
    const raw = env[variable]?.trim()
    if (raw === undefined || raw === "") continue
    const n = Number(raw)
    if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n <= 0) {
      return Either.left(new ConfigError({ message: `${variable}=${raw} must be a positive whole number; fix or unset it.`, path: variable }))
    }
    limits[key] = n
  }
  return Either.right(limits as unknown as Limits)
}

// ---------------------------------------------------------------------------------------------
// Effects

/**
 * Why a settings file another user could have changed is not used (pure), like ssh refuses a
 * config file others may write: its servers are commands run as this user. Undefined: fine.
 */
export const unsafeSettingsMode = (
  file: string,
  stat: { readonly mode: number; readonly uid: number },
  uid: number | undefined
): string | undefined => {
  if (uid === undefined) return undefined // no POSIX owners (Windows)
  if ((stat.mode & 0o002) !== 0) {
    return `${file} is writable by others (mode ${(stat.mode & 0o777).toString(8)}), so anyone on this machine ` +
      `could add a server that runs as you; mcpctl does not use it. Run \`chmod o-w ${file}\`.`
  }
  if (stat.uid !== uid && stat.uid !== 0) {
    return `${file} belongs to another user (uid ${stat.uid}), who could add a server that runs as you; mcpctl ` +
      `does not use it. Take it over (\`chown\`) or remove it.`
  }
  return undefined
}

/** Settings larger than this are refused: no real one comes near it. */
const MAX_SETTINGS_BYTES = 16 * 1024 * 1024

const readSettings = (file: string, required: boolean) =>
  Effect.flatMap(
    Effect.tryPromise({
      // Regular files only: a FIFO as a settings file hung every command (and ignored SIGTERM).
      try: () =>
        readRegularFile(file, MAX_SETTINGS_BYTES).then(
          async (text): Promise<{ text: string; unsafe: string | undefined } | undefined> => ({
            text,
            unsafe: unsafeSettingsMode(file, await stat(file), process.getuid?.())
          }),
          (e: NodeJS.ErrnoException) => {
            if (e.code === "ENOENT" && !required) return undefined
            throw e
          }
        ),
      catch: (e) => new ConfigError({
        message: isNotRegularFile(e)
          ? `${file}: cannot read settings: ${e.message}. Settings must be a regular JSON file; ` +
            (required ? "check the --config path." : "remove or replace it.")
          : `${file}: cannot read settings file (${(e as NodeJS.ErrnoException).code ?? String(e)}).` +
            (required ? " Check the --config path." : ""),
        file,
        cause: e
      })
    }),
    (read) =>
      read?.unsafe !== undefined
        ? Effect.fail(new ConfigError({ message: read.unsafe, file }))
        : Effect.succeed(read?.text)
  )

const readTextOrUndefined = (file: string): string | undefined => {
  try {
    // Regular files only: a FIFO would block the event loop for good (readRegularFile).
    return readRegularFileSync(file, 16 * 1024 * 1024)
  } catch {
    return undefined
  }
}

/**
 * The VS Code inputs that enabled servers use and the environment does not set: asked (on a
 * terminal), else a configuration error naming the input, its server and the variable to set.
 */
const inputValues = (
  servers: ReadonlyArray<MergedServer>,
  files: ReadonlyArray<ScopedSettings>,
  env: Env,
  ask: LoadOptions["askInput"]
) =>
  Effect.gen(function*() {
    const values: Record<string, string> = {}
    for (const f of files) {
      for (const input of f.settings.inputs ?? []) {
        if (env[input.variable] !== undefined || values[input.variable] !== undefined) continue
        const users = servers.filter((s) => s.source === f.source && !s.config.disabled && input.servers.includes(s.originalName))
        if (users.length === 0) continue
        const answer = ask ? yield* Effect.promise(() => ask(input)) : undefined
        if (answer === undefined) {
          return yield* new ConfigError({
            message: `${f.source}: server "${users[0]!.originalName}" uses the VS Code input "${input.id}"` +
              `${input.description ? ` (${input.description})` : ""}${input.declared ? "" : ", which \"inputs\" does not declare"}, ` +
              `and there is no terminal to ask on. Set ${input.variable} in the environment, or run on a terminal.`,
            file: f.source,
            path: `inputs.${input.id}`
          })
        }
        values[input.variable] = answer
      }
    }
    return values
  })

/** The settings files of every scope, lowest precedence first (SettingsNames.ts). */
export const settingsFiles = SettingsNames.settingsFiles

/**
 * The file `add`/`remove` edit for a scope: project writes `.mcp.json`, the file other hosts read
 * too; local is where "always allow" answers go.
 */
export function scopeFile(scope: "user" | "project" | "local", projectDir: string, home: string): string {
  return scope === "user"
    ? Path.join(home, "settings.json")
    : scope === "project"
    ? Path.join(projectDir, ".mcp.json")
    : Path.join(projectDir, ".mcpctl", "settings.local.json")
}

/** `$MCPCTL_HOME`, absolute (SettingsNames.ts: the one place the default `~/.mcpctl` lives). */
export const resolveHome = SettingsNames.resolveHome

/** Reads, decodes, merges and expands the settings of every scope into the `McpConfig` service. */
export const load = Effect.fn("McpConfig.load")(function*(options: LoadOptions = {}) {
  const env = options.env ?? process.env
  const home = resolveHome(env, options.home)
  const projectDir = Path.resolve(options.cwd ?? process.cwd())
  const limits = yield* limitsFromEnv(env)
  const files = settingsFiles(projectDir, home, options.configFiles)
  const texts = yield* Effect.forEach(files, (f) => readSettings(f.path, f.required), { concurrency: "unbounded" })
  const scoped: Array<ScopedSettings> = []
  const host: HostContext = { projectDir, mode: "read", readText: readTextOrUndefined }
  for (const [i, f] of files.entries()) {
    const text = texts[i]
    if (text !== undefined) {
      scoped.push({ scope: f.scope, source: f.path, settings: yield* parseSettingsText(text, f.path, f.scope === "flag" ? host : undefined) })
    }
  }
  const trustWarnings = yield* applyProjectTrust(scoped, texts, files, { projectDir, home, env, options })
  for (const a of options.adhoc ?? []) {
    const source = "command" in a.config ? "--stdio" : "--url"
    scoped.push({ scope: "adhoc", source, settings: { servers: [a], permissions: { allow: [], ask: [], deny: [] }, warnings: [] } })
  }
  const merged = yield* mergeSettings(scoped)
  const inputs = yield* inputValues(merged.servers, scoped, env, options.askInput)
  const resolved = yield* resolveServers(merged.servers, { ...env, ...inputs }, projectDir)
  return ({
    servers: resolved.servers,
    permissions: merged.permissions,
    limits,
    home,
    projectDir,
    warnings: [...trustWarnings, ...merged.warnings, ...resolved.warnings, ...ruleWarnings(merged.permissions, resolved.servers)]
  })
})

/**
 * Drops the project's own settings (project and local scope) from `scoped` unless the directory
 * is trusted for exactly these files: by the store, `MCPCTL_TRUST_PROJECT=1`, the embedder, or a
 * yes to `askTrust` (remembered). Returns the warning of a skip.
 */
const applyProjectTrust = (
  scoped: Array<ScopedSettings>,
  texts: ReadonlyArray<string | undefined>,
  files: ReadonlyArray<{ readonly scope: Scope; readonly path: string }>,
  context: { readonly projectDir: string; readonly home: string; readonly env: Env; readonly options: LoadOptions }
) =>
  Effect.gen(function*() {
    const { env, home, options, projectDir } = context
    const own = files.flatMap((f, i) =>
      (f.scope === "project" || f.scope === "local") && texts[i] !== undefined
        ? [{ path: f.path, name: Path.relative(projectDir, f.path), text: texts[i]! }]
        : []
    )
    const ownScoped = scoped.filter((s) => s.scope === "project" || s.scope === "local")
    if (own.length === 0) return []
    const request: ProjectTrustRequest = {
      dir: projectDir,
      hash: projectHash(own),
      files: ownScoped.map((s) => ({ name: Path.relative(projectDir, s.source), settings: s.settings }))
    }
    if (!contributes(request) || options.trustProject === true || trustedByEnv(env)) return []
    const stored = yield* readTrust(home)
    if (isTrusted(stored, projectDir, request.hash)) return []
    const ask = options.askTrust
    const yes = ask ? yield* Effect.promise(() => ask(request)) : false
    if (yes) {
      yield* recordTrust(home, projectDir, request.hash).pipe(
        Effect.catchAll((e) => Effect.logWarning(`could not remember the trust of ${projectDir}: ${e.message}`))
      )
      return []
    }
    for (const s of ownScoped) scoped.splice(scoped.indexOf(s), 1)
    return [untrustedWarning(request)]
  })

/**
 * The `McpConfig` of servers written in code (`McpConfig.layerStatic`): the same merge, expansion
 * and normalization as settings files, so tests and library users see what the CLI would.
 */
export function makeStatic(options: StaticOptions): Effect.Effect<Settings, ConfigError> {
  const env = options.env ?? {}
  const projectDir = Path.resolve(options.projectDir ?? process.cwd())
  const p = options.permissions ?? {}
  const settings: ParsedSettings = {
    servers: Object.entries(options.servers ?? {}).map(([name, config]) => ({ name, config })),
    permissions: { allow: p.allow ?? [], ask: p.ask ?? [], deny: p.deny ?? [] },
    warnings: []
  }
  return Effect.gen(function*() {
    const merged = yield* mergeSettings([{ scope: "adhoc", source: "code", settings }])
    const resolved = yield* resolveServers(merged.servers, env, projectDir)
    // Rules written in code come from no file a message could name.
    const { sources: _sources, ...permissions } = merged.permissions
    return ({
      servers: resolved.servers,
      permissions,
      limits: { ...defaultLimits, ...options.limits },
      home: resolveHome(env, options.home),
      projectDir,
      warnings: resolved.warnings
    })
  })
}
