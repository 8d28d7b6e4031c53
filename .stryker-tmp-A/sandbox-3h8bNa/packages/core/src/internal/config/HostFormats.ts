/**
 * Other hosts' MCP settings, read as written: Claude Desktop, Claude Code (`~/.claude.json`),
 * Cursor, VS Code (`servers`, `inputs`, `${env:VAR}`), Windsurf, Codex (`config.toml`) and
 * gemini-cli. Each file is detected from its name and content and translated into mcpctl server
 * entries (the `mcpServers` shape of `ServerConfig.ts`), keeping variable references as
 * references (`${env:X}` → `${X}`, Codex `bearer_token_env_var = "X"` → `Bearer ${X}`) so no
 * secret is ever expanded into a file. Fields mcpctl cannot honour are listed, not guessed.
 * Pure: the only input besides the text is `HostContext` (and its `readText` for `envFile`).
 */
// @ts-nocheck

import * as Either from "effect/Either"
import { findNodeAtLocation, type Node, parseTree, printParseErrorCode, type ParseError } from "jsonc-parser"
import { dropUnsafeKeys, parseJsoncSafe, type SafeParse } from "../SafeJson.js"
import * as Path from "node:path"
import { parse as parseToml, TomlError } from "smol-toml"
import type { HostInput } from "../../config/ServerConfig.js"
import { ConfigError } from "../../Errors.js"

/** A settings file's dialect. `mcpctl` is mcpctl's own (also Claude Code's `.mcp.json`). */
export type HostFormat = "mcpctl" | "claude-desktop" | "claude-code" | "cursor" | "vscode" | "windsurf" | "codex" | "gemini"

/** Host names as people and `import --from` spell them. */
export const formatTitle: Readonly<Record<HostFormat, string>> = {
  mcpctl: "mcpctl",
  "claude-desktop": "Claude Desktop",
  "claude-code": "Claude Code",
  cursor: "Cursor",
  vscode: "VS Code",
  windsurf: "Windsurf",
  codex: "Codex",
  gemini: "gemini-cli"
}

/** What a translation needs to know besides the file. */
export interface HostContext {
  /** The project directory: Claude Code's `projects.<dir>`, VS Code's `${workspaceFolder}` by default. */
  readonly projectDir: string
  /**
   * `read` (`--config`): an `envFile` is read into `env`. `write` (`import`: the result goes into
   * a file): nothing is read that would put values there; an `envFile`'s variables become
   * `${NAME}` references.
   */
  readonly mode: "read" | "write"
  /** Reads a file (an `envFile`), undefined when missing. Without it, `envFile` cannot be honoured. */
  readonly readText?: ((file: string) => string | undefined) | undefined
  /** The format, when the caller knows it (`import --from`); otherwise detected. */
  readonly format?: HostFormat | undefined
}

/** One translated server: the mcpctl entry and where each of its fields came from. */
export interface HostServer {
  readonly name: string
  /** The entry in mcpctl's shape, references unexpanded. */
  readonly entry: Readonly<Record<string, unknown>>
  /** The entry's path in the source file (`["servers", "x"]`, `["mcp_servers", "x"]`). */
  readonly at: ReadonlyArray<string>
  /** mcpctl field (`url`, `env.TOKEN`) → its path inside the source entry (`["httpUrl"]`). */
  readonly fields: Readonly<Record<string, ReadonlyArray<string>>>
}

/** A host's file translated into mcpctl's terms. */
export interface HostSettings {
  readonly format: HostFormat
  readonly servers: ReadonlyArray<HostServer>
  /** Permission rules: mcpctl's own, or gemini-cli's `trust: true` as `allow` of `mcp__<server>`. */
  readonly permissions: unknown
  /** Source paths of fields mcpctl cannot honour (`servers.x.dev`), for the one warning. */
  readonly unhonoured: ReadonlyArray<string>
  /** VS Code `inputs` the servers use, each read from its `MCPCTL_INPUT_*` variable. */
  readonly inputs: ReadonlyArray<HostInput>
  /** Things the user should know (`${workspaceFolder}` written as a path). */
  readonly notes: ReadonlyArray<string>
  /** Top-level keys of an mcpctl file that mean nothing to mcpctl (warned like before). */
  readonly unknownTopLevel: ReadonlyArray<string>
}

type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v)

// ---------------------------------------------------------------------------------------------
// Detection

const lowerPath = (file: string) => file.replace(/\\/g, "/").toLowerCase()

const entriesOf = (v: unknown): Array<Json> => (isObject(v) ? Object.values(v).filter(isObject) : [])

/**
 * The dialect of a file from its name and content (pure). Names decide first (`.claude.json`,
 * `claude_desktop_config.json`, `.vscode/`, `.cursor/`, `.codeium/`, `.gemini/`, `*.toml`), then
 * shapes (`servers` is VS Code, `projects` is Claude Code, `serverUrl` Windsurf, `httpUrl` or
 * `trust` gemini-cli, `${env:…}` Cursor); anything else is mcpctl's own.
 */
export function detectFormat(file: string, raw: unknown): HostFormat {
  const p = lowerPath(file)
  const base = Path.posix.basename(p)
  if (base.endsWith(".toml")) return "codex"
  if (!isObject(raw)) return "mcpctl"
  if (base === ".claude.json" || (isObject(raw.projects) && entriesOf(raw.projects).some((e) => "mcpServers" in e))) {
    return "claude-code"
  }
  if (base === "claude_desktop_config.json" || p.includes("/claude/claude_desktop")) return "claude-desktop"
  if (!("mcpServers" in raw) && (isObject(raw.servers) || (isObject(raw.mcp) && isObject(raw.mcp.servers)))) return "vscode"
  if (p.includes("/.vscode/")) return "vscode"
  if (base === "mcp_config.json" || p.includes("/.codeium/")) return "windsurf"
  if (p.includes("/.cursor/")) return "cursor"
  if (p.includes("/.gemini/")) return "gemini"
  const servers = entriesOf(raw.mcpServers)
  if (servers.some((e) => "serverUrl" in e)) return "windsurf"
  if (servers.some((e) => "httpUrl" in e || "trust" in e || "includeTools" in e || "excludeTools" in e)) return "gemini"
  if (/\$\{(env:|workspaceFolder|userHome|pathSeparator)/.test(JSON.stringify(raw.mcpServers ?? {}))) return "cursor"
  return "mcpctl"
}

// ---------------------------------------------------------------------------------------------
// Variables

/** The variable a VS Code input is read from: `${input:api-key}` → `MCPCTL_INPUT_API_KEY`. */
export const inputVariable = (id: string): string => `MCPCTL_INPUT_${id.toUpperCase().replace(/[^A-Z0-9]/g, "_")}`

interface VarScope {
  readonly workspaceFolder: string
  readonly inputs: boolean
  /** Input id → the servers that use it. */
  readonly usedInputs: Map<string, Set<string>>
  readonly problems: Array<string>
  readonly notes: Set<string>
}

/**
 * VS Code's and Cursor's variables in mcpctl's terms: `${env:X}` → `${X}`, `${userHome}` →
 * `${HOME}`, `${workspaceFolder}` → the folder's path, `${input:id}` → `${MCPCTL_INPUT_ID}`;
 * mcpctl's own `${X}` / `${X:-d}` stay. Any other `${…}` is a problem: never sent literally.
 */
const vscodeVars = (scope: VarScope, server: string, where: string) => (value: string): string => {
  const out = replaceVscodeVars(scope, server, where, value)
  // `${workspaceFolder}/../x` reads better as the path it names.
  return /^\$\{workspaceFolder\}[\/]/.test(value) ? Path.normalize(out) : out
}

const replaceVscodeVars = (scope: VarScope, server: string, where: string, value: string): string =>
  value.replace(/\$\{([^}]*)\}/g, (whole, inner: string) => {
    const env = /^env:([A-Za-z_][A-Za-z0-9_]*)$/.exec(inner)
    if (env) return "${" + env[1] + "}"
    if (inner === "userHome") return "${HOME}"
    if (inner === "workspaceFolder" || inner === "workspaceRoot") {
      scope.notes.add(`\${${inner}} is written as ${scope.workspaceFolder}`)
      return scope.workspaceFolder
    }
    if (inner === "workspaceFolderBasename") return Path.basename(scope.workspaceFolder)
    if (inner === "pathSeparator" || inner === "/") return Path.sep
    const input = /^input:(.+)$/.exec(inner)
    if (input && scope.inputs) {
      const users = scope.usedInputs.get(input[1]!) ?? new Set<string>()
      scope.usedInputs.set(input[1]!, users.add(server))
      return "${" + inputVariable(input[1]!) + "}"
    }
    if (/^[A-Za-z_][A-Za-z0-9_]*(:-.*)?$/.test(inner)) return whole
    scope.problems.push(`${where} uses ${whole}, which mcpctl cannot resolve; replace it with a value or \${VAR}`)
    return whole
  })

/** gemini-cli expands `$VAR` as well as `${VAR}`: written the mcpctl way. */
const geminiVars = (value: string): string => value.replace(/\$([A-Za-z_][A-Za-z0-9_]*)/g, "${$1}")

const mapStrings = (v: unknown, f: (s: string) => string): unknown =>
  typeof v === "string"
    ? f(v)
    : Array.isArray(v)
    ? v.map((x) => mapStrings(x, f))
    : isObject(v)
    ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, mapStrings(x, f)]))
    : v

/** `KEY=VALUE` lines of a `.env` file (comments, `export`, quotes), for VS Code's and Cursor's `envFile`. */
export function parseEnvFile(text: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*?)\s*$/.exec(line)
    if (!m) continue
    let value = m[2]!
    const quoted = /^(["'])(.*)\1$/.exec(value)
    if (quoted) value = quoted[1] === '"' ? quoted[2]!.replace(/\\n/g, "\n") : quoted[2]!
    else value = value.replace(/\s+#.*$/, "")
    out[m[1]!] = value
  }
  return out
}

// ---------------------------------------------------------------------------------------------
// Translation of one entry

/** Builds one mcpctl entry and remembers where every field came from. */
class EntryBuilder {
  readonly entry: Json = {}
  readonly fields: Record<string, ReadonlyArray<string>> = {}
  constructor(readonly unhonoured: Array<string>, readonly sourcePrefix: string) {}
  set(field: string, value: unknown, from: ReadonlyArray<string>) {
    this.entry[field] = value
    this.fields[field] = from
  }
  /** A record field (`env`, `headers`), key by key, so each key knows its own source. */
  setIn(field: string, key: string, value: unknown, from: ReadonlyArray<string>) {
    const record = (this.entry[field] ??= {}) as Json
    record[key] = value
    this.fields[`${field}.${key}`] = from
    this.fields[field] ??= from.slice(0, 1)
  }
  record(field: string, value: unknown, from: string) {
    if (!isObject(value)) return this.set(field, value, [from])
    for (const [k, v] of Object.entries(value)) this.setIn(field, k, v, [from, k])
  }
  cannot(key: string) {
    this.unhonoured.push(`${this.sourcePrefix}.${key}`)
  }
}

type Handler = (b: EntryBuilder, value: unknown, key: string, src: Json) => void

const same = (field: string): Handler => (b, v, key) => b.set(field, v, [key])
const sameRecord = (field: string): Handler => (b, v, key) => b.record(field, v, key)
const ignore: Handler = () => undefined

const normalizeType = (t: unknown): unknown => {
  if (typeof t !== "string") return t
  const l = t.toLowerCase().replace(/[-_]/g, "")
  return l === "streamablehttp" || l === "http" ? "http" : l === "websocket" ? "ws" : t
}

/** The fields of mcpctl's own entries, as Claude Desktop, Claude Code and Cursor write them too. */
const mcpctlFields: Record<string, Handler> = {
  type: (b, v, key) => b.set("type", normalizeType(v), [key]),
  command: same("command"),
  args: same("args"),
  env: sameRecord("env"),
  cwd: same("cwd"),
  url: same("url"),
  headers: sameRecord("headers"),
  timeout: same("timeout"),
  maxOutputTokens: same("maxOutputTokens"),
  disabled: same("disabled"),
  oauth: same("oauth"),
  protocol: same("protocol"),
  // Tool filters, under mcpctl's setting names (catalog/ToolFilter.ts applies them).
  includeTools: same("includeTools"),
  excludeTools: same("excludeTools")
}

const envFileHandler = (ctx: HostContext, baseDir: string, problems: Array<string>, where: string): Handler =>
  (b, v, key, src) => {
    if (typeof v !== "string") return b.cannot(key)
    const file = Path.resolve(baseDir, v)
    const text = ctx.readText?.(file)
    if (text === undefined) {
      problems.push(`${where}.${key}: cannot read ${file}; create it or remove "envFile"`)
      return
    }
    const own = isObject(src.env) ? src.env : {}
    for (const [k, value] of Object.entries(parseEnvFile(text))) {
      if (k in own) continue
      // Import never copies the file's values (they are usually secrets): the variable is read
      // from the environment instead, and the warning says so.
      if (ctx.mode === "write") b.setIn("env", k, "${" + k + "}", [key])
      else b.setIn("env", k, value, [key])
    }
    if (ctx.mode === "write") b.cannot(`${key} (its variables are written as \${NAME} references; set them in the environment)`)
  }

const cursorAuth: Handler = (b, v, key) => {
  if (!isObject(v)) return b.cannot(key)
  const oauth: Json = {}
  if (typeof v.CLIENT_ID === "string") oauth.clientId = v.CLIENT_ID
  if (typeof v.CLIENT_SECRET === "string") oauth.clientSecret = v.CLIENT_SECRET
  if (Array.isArray(v.scopes)) oauth.scopes = v.scopes
  for (const k of Object.keys(v)) if (!["CLIENT_ID", "CLIENT_SECRET", "scopes"].includes(k)) b.cannot(`${key}.${k}`)
  b.set("oauth", oauth, [key])
}

const geminiOauth: Handler = (b, v, key) => {
  if (!isObject(v)) return b.cannot(key)
  if (v.enabled === false) return
  const oauth: Json = {}
  if (typeof v.clientId === "string") oauth.clientId = v.clientId
  if (typeof v.clientSecret === "string") oauth.clientSecret = v.clientSecret
  if (Array.isArray(v.scopes)) oauth.scopes = v.scopes
  for (const k of Object.keys(v)) if (!["enabled", "clientId", "clientSecret", "scopes"].includes(k)) b.cannot(`${key}.${k}`)
  if (Object.keys(oauth).length > 0) b.set("oauth", oauth, [key])
}

/** Seconds → mcpctl's milliseconds. */
const seconds = (field: string): Handler => (b, v, key) =>
  b.set(field, typeof v === "number" ? Math.round(v * 1000) : v, [key])

const codexFields: Record<string, Handler> = {
  command: same("command"),
  args: same("args"),
  env: sameRecord("env"),
  cwd: same("cwd"),
  url: same("url"),
  // Names of variables the server gets from the parent: references, empty when unset.
  env_vars: (b, v, key) => {
    if (!Array.isArray(v)) return b.cannot(key)
    for (const name of v) if (typeof name === "string") b.setIn("env", name, "${" + name + ":-}", [key])
  },
  bearer_token_env_var: (b, v, key) => b.setIn("headers", "Authorization", `Bearer \${${String(v)}}`, [key]),
  http_headers: sameRecord("headers"),
  env_http_headers: (b, v, key) => {
    if (!isObject(v)) return b.cannot(key)
    for (const [h, name] of Object.entries(v)) b.setIn("headers", h, "${" + String(name) + "}", [key, h])
  },
  protocol: same("protocol"),
  enabled_tools: same("includeTools"),
  disabled_tools: same("excludeTools"),
  tool_timeout_sec: seconds("timeout"),
  enabled: (b, v, key) => {
    if (v === false) b.set("disabled", true, [key])
  }
}

const geminiFields = (allow: Array<string>, name: string): Record<string, Handler> => ({
  command: same("command"),
  args: same("args"),
  env: sameRecord("env"),
  cwd: same("cwd"),
  type: (b, v, key) => b.set("type", normalizeType(v), [key]),
  // gemini-cli: `url` is an SSE endpoint, `httpUrl` Streamable HTTP (it wins when both are given).
  url: (b, v, key, src) => {
    if ("httpUrl" in src) return b.cannot(`${key} (httpUrl is used)`)
    b.set("url", v, [key])
    if (!("type" in src)) b.set("type", "sse", [key])
  },
  httpUrl: (b, v, key, src) => {
    b.set("url", v, [key])
    if (!("type" in src)) b.set("type", "http", [key])
  },
  headers: sameRecord("headers"),
  timeout: same("timeout"),
  includeTools: same("includeTools"),
  excludeTools: same("excludeTools"),
  protocol: same("protocol"),
  oauth: geminiOauth,
  description: ignore,
  // `trust: true` skips confirmations: mcpctl's allow rule for every tool of the server.
  trust: (b, v, key) => {
    if (v === true) allow.push(`mcp__${name}`)
    else if (v !== false) b.cannot(key)
  }
})

// ---------------------------------------------------------------------------------------------
// Files

interface Collected {
  readonly servers: Array<HostServer>
  readonly unhonoured: Array<string>
  readonly problems: Array<string>
  readonly allow: Array<string>
}

/** Translates the entries of one `servers`-like object with the handlers of a format. */
const translateEntries = (
  out: Collected,
  servers: unknown,
  at: ReadonlyArray<string>,
  handlersFor: (name: string) => Record<string, Handler>,
  strings: ((name: string, field: string) => (s: string) => string) | undefined,
  dialect: HostFormat
) => {
  if (servers === undefined) return
  if (!isObject(servers)) {
    out.problems.push(`${at.join(".")}: expected an object of servers`)
    return
  }
  for (const [name, src] of Object.entries(servers)) {
    const where = [...at, name].join(".")
    if (!isObject(src)) {
      out.problems.push(`${where}: expected an object like {"command": "..."} or {"url": "..."}`)
      continue
    }
    const b = new EntryBuilder(out.unhonoured, where)
    const handlers = handlersFor(name)
    for (const [key, value] of Object.entries(src)) {
      const h = handlers[key]
      if (h) h(b, strings ? mapStrings(value, strings(name, key)) : value, key, src)
      else b.cannot(key)
    }
    // Codex and gemini-cli entries with a URL are remote; VS Code says so with `type`.
    if (dialect === "codex" && "url" in b.entry && !("type" in b.entry)) b.set("type", "http", ["url"])
    if (b.entry.type === "stdio" && !("command" in b.entry)) delete b.entry.type
    out.servers.push({ name, entry: b.entry, at: [...at, name], fields: b.fields })
  }
}

/** The folder VS Code and Cursor call `${workspaceFolder}`: the parent of `.vscode/` or `.cursor/`. */
const workspaceFolderOf = (file: string, projectDir: string) => {
  const dir = Path.dirname(Path.resolve(file))
  return [".vscode", ".cursor"].includes(Path.basename(dir)) ? Path.dirname(dir) : projectDir
}

const syntaxError = (file: string, text: string, offset: number, what: string) => {
  const before = text.slice(0, offset).split(/\r\n|\r|\n/)
  return new ConfigError({
    message: `${file}:${before.length}:${before[before.length - 1]!.length + 1}: invalid JSON (${what}). Fix the syntax at that position.`,
    file
  })
}

/** Parses a settings text as JSON with comments, or TOML for Codex; the parse error names the position. */
export function parseHostText(text: string, file: string, toml: boolean): Either.Either<SafeParse, ConfigError> {
  if (toml) {
    try {
      return Either.right(dropUnsafeKeys(parseToml(text)))
    } catch (e) {
      const at = e instanceof TomlError ? `:${e.line}:${e.column}` : ""
      return Either.left(new ConfigError({
        message: `${file}${at}: invalid TOML (${(e as Error).message.split("\n")[0]}). Fix the syntax at that position.`,
        file,
        cause: e
      }))
    }
  }
  const errors: Array<ParseError> = []
  const parsed = parseJsoncSafe(text, errors)
  if (errors.length > 0) return Either.left(syntaxError(file, text, errors[0]!.offset, printParseErrorCode(errors[0]!.error)))
  return Either.right(parsed)
}

/**
 * Rules of a file read as another host's: mcpctl-shaped `permissions` written into it are kept
 * (a file detected by its name may still be the user's own), plus the allow rules the host's
 * own fields imply.
 */
const hostPermissions = (written: unknown, allow: ReadonlyArray<string>) => {
  const ours = isObject(written) && Object.keys(written).every((k) => ["allow", "ask", "deny"].includes(k)) &&
    Object.values(written).every((v) => Array.isArray(v) && v.every((r) => typeof r === "string"))
  const rules = ours ? (written as Record<string, Array<string>>) : {}
  return { ...rules, allow: [...(rules.allow ?? []), ...allow] }
}

/**
 * Reads one settings file of any host into mcpctl's terms (pure). Servers of a dialect are
 * translated field by field; a value that cannot be carried over safely (`${command:…}`, an
 * unreadable `envFile`) is an error naming the file, the field and the fix.
 */
export function readHostSettings(text: string, file: string, ctx: HostContext): Either.Either<HostSettings, ConfigError> {
  const tomlByName = file.toLowerCase().endsWith(".toml") || ctx.format === "codex"
  const parsed = parseHostText(text, file, tomlByName)
  if (Either.isLeft(parsed)) return Either.left(parsed.left)
  const raw = parsed.right.value
  if (!isObject(raw)) {
    return Either.left(new ConfigError({ message: `${file}: the settings must be a JSON object like {"mcpServers": {...}}.`, file }))
  }
  const format = ctx.format ?? detectFormat(file, raw)
  // Keys such as `__proto__` never become settings; they are named in the one warning.
  const out: Collected = { servers: [], unhonoured: parsed.right.unsafeKeys.map((key) => `${key} (no setting may have that key)`), problems: [], allow: [] }
  const notes = new Set<string>()
  const usedInputs = new Map<string, Set<string>>()
  const baseDir = Path.dirname(Path.resolve(file))
  const vars = (inputs: boolean) => {
    const scope: VarScope = {
      workspaceFolder: workspaceFolderOf(file, ctx.projectDir),
      inputs,
      usedInputs,
      problems: out.problems,
      notes
    }
    return (name: string, field: string) => vscodeVars(scope, name, `${name}.${field}`)
  }
  const withEnvFile = (handlers: Record<string, Handler>, at: ReadonlyArray<string>) => (name: string) => ({
    ...handlers,
    envFile: envFileHandler(ctx, baseDir, out.problems, [...at, name].join("."))
  })
  let unknownTopLevel: Array<string> = []
  let inputs: Array<HostInput> = []
  switch (format) {
    case "mcpctl":
    case "claude-desktop": {
      // Claude Desktop's file holds other settings of the app too: only mcpServers is ours.
      const native = format === "mcpctl"
      if (native) unknownTopLevel = Object.keys(raw).filter((k) => k !== "mcpServers" && k !== "permissions")
      translateEntries(out, raw.mcpServers, ["mcpServers"], () => mcpctlFields, undefined, format)
      break
    }
    case "claude-code": {
      // ~/.claude.json: user servers at the top, each project's (local scope) under its path.
      translateEntries(out, raw.mcpServers, ["mcpServers"], () => mcpctlFields, undefined, format)
      const projects = isObject(raw.projects) ? raw.projects : {}
      const key = Object.keys(projects).find((k) => Path.resolve(k) === Path.resolve(ctx.projectDir))
      if (key !== undefined && isObject(projects[key])) {
        const before = out.servers.length
        translateEntries(out, (projects[key] as Json).mcpServers, ["projects", key, "mcpServers"], () => mcpctlFields, undefined, format)
        // The project's entry wins over a user entry of the same name, as in Claude Code.
        const local = new Set(out.servers.slice(before).map((s) => s.name))
        for (let i = before - 1; i >= 0; i--) if (local.has(out.servers[i]!.name)) out.servers.splice(i, 1)
      }
      break
    }
    case "cursor":
      translateEntries(
        out,
        raw.mcpServers,
        ["mcpServers"],
        withEnvFile({ ...mcpctlFields, auth: cursorAuth }, ["mcpServers"]),
        vars(false),
        format
      )
      break
    case "windsurf":
      translateEntries(
        out,
        raw.mcpServers,
        ["mcpServers"],
        () => ({ ...mcpctlFields, serverUrl: same("url"), disabledTools: same("excludeTools") }),
        vars(false),
        format
      )
      break
    case "vscode": {
      // `.vscode/mcp.json` and the user `mcp.json` have `servers`; a settings.json has `mcp.servers`.
      const inSettings = !isObject(raw.servers) && isObject(raw.mcp)
      const root = inSettings ? (raw.mcp as Json) : raw
      const at = inSettings ? ["mcp", "servers"] : ["servers"]
      translateEntries(
        out,
        root.servers,
        at,
        withEnvFile({ ...mcpctlFields, dev: (b, _v, key) => b.cannot(key) }, at),
        vars(true),
        format
      )
      const declared = Array.isArray(root.inputs) ? root.inputs.filter(isObject) : []
      inputs = [...usedInputs].map(([id, users]) => {
        const d = declared.find((i) => i.id === id)
        return {
          id,
          servers: [...users],
          variable: inputVariable(id),
          description: typeof d?.description === "string" ? d.description : undefined,
          password: d?.password === true,
          declared: d !== undefined
        }
      })
      break
    }
    case "codex":
      translateEntries(out, raw.mcp_servers, ["mcp_servers"], () => codexFields, undefined, format)
      break
    case "gemini":
      translateEntries(out, raw.mcpServers, ["mcpServers"], (name) => geminiFields(out.allow, name), () => geminiVars, format)
      break
  }
  if (out.problems.length > 0) {
    return Either.left(new ConfigError({
      message: `${file} (${formatTitle[format]} format):\n${out.problems.map((p) => `  ${p}`).join("\n")}`,
      file,
      path: out.problems[0]!.split(" ")[0]!.replace(/:$/, "")
    }))
  }
  return Either.right({
    format,
    servers: out.servers,
    permissions: format === "mcpctl" ? raw.permissions ?? {} : hostPermissions(raw.permissions, out.allow),
    unhonoured: out.unhonoured,
    inputs,
    notes: [...notes],
    unknownTopLevel
  })
}

// ---------------------------------------------------------------------------------------------
// Where a field is written (config explain)

const lineOf = (text: string, offset: number) => text.slice(0, offset).split(/\r\n|\r|\n/).length

/** The 1-based line of a path in a JSON(C) text, or of its nearest existing parent. */
export function jsonLine(text: string, path: ReadonlyArray<string | number>): number | undefined {
  const root = parseTree(text, [], { allowTrailingComma: true })
  if (!root) return undefined
  for (let n = path.length; n > 0; n--) {
    const node: Node | undefined = findNodeAtLocation(root, [...path.slice(0, n)])
    if (node) return lineOf(text, node.parent?.type === "property" ? node.parent.offset : node.offset)
  }
  return undefined
}

const tomlKey = (k: string) => (/^[A-Za-z0-9_-]+$/.test(k) ? k : JSON.stringify(k))
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/**
 * The 1-based line of `[table] key` in a TOML text (Codex), found by scanning: the table header
 * `[mcp_servers.NAME]` or `[mcp_servers.NAME.SUB]`, then `key =` inside it. Parents stand in.
 */
export function tomlLine(text: string, path: ReadonlyArray<string>): number | undefined {
  const lines = text.split(/\r?\n/)
  const headerOf = (parts: ReadonlyArray<string>) =>
    new RegExp(`^\\s*\\[\\s*${parts.map((p) => `(?:${escapeRe(tomlKey(p))}|"${escapeRe(p)}"|'${escapeRe(p)}')`).join("\\s*\\.\\s*")}\\s*\\]`)
  const keyIn = (start: number, key: string) => {
    const re = new RegExp(`^\\s*(?:${escapeRe(tomlKey(key))}|"${escapeRe(key)}")\\s*=`)
    for (let i = start + 1; i < lines.length && !/^\s*\[/.test(lines[i]!); i++) if (re.test(lines[i]!)) return i + 1
    return undefined
  }
  for (let n = path.length; n >= 2; n--) {
    const table = path.slice(0, n)
    const header = lines.findIndex((l) => headerOf(table).test(l))
    if (header >= 0) return header + 1
    const parent = lines.findIndex((l) => headerOf(table.slice(0, -1)).test(l))
    if (parent >= 0) {
      const line = keyIn(parent, table[table.length - 1]!)
      if (line !== undefined) return line
    }
  }
  return undefined
}
