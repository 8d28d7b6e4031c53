/**
 * `mcpctl config explain`: where every effective setting comes from. Each server field with the
 * file, scope and line that wrote it, the definitions of the same server it overrode, and the
 * `${VAR}`s it reads (set or not; values never shown); each permission rule with its file and
 * line; each limit with the variable that set it. Built on the same reading and merge as `load`,
 * without `${VAR}` expansion, so it works when a variable is unset (that is when people ask).
 */
// @ts-nocheck

import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Path from "node:path"
import { ConfigError } from "../../Errors.js"
import { REDACTED, redactArgs, redactUrl, redactValue } from "./Redact.js"
import { type HostFormat, type HostSettings, jsonLine, readHostSettings, tomlLine } from "./HostFormats.js"
import { type Env, type LoadOptions, type MergedServer, type Scope, type ScopedSettings, transportOf } from "../../config/ServerConfig.js"
import { decodeHostSettings, limitsFromEnv, mergeSettings, parseSettingsText, resolveHome, settingsFiles } from "./SettingsLoad.js"
import { readRegularFile, readRegularFileSync } from "../files.js"

/** A `${VAR}` a field reads. */
export interface VariableUse {
  readonly name: string
  /** Set in the environment (its value is never shown). */
  readonly set: boolean
  /** Has a `:-default`, used when unset or empty. */
  readonly hasDefault: boolean
}

/** One effective field of a server. */
export interface FieldExplained {
  /** mcpctl's name: `command`, `args`, `env.TOKEN`, `headers.Authorization`. */
  readonly field: string
  /** As written (references unexpanded); literal env/header values and URL secrets hidden. */
  readonly value: unknown
  /** 1-based line in the source file, when known. */
  readonly line?: number | undefined
  /** The host's own name for it, when the file is another host's (`httpUrl`, `bearer_token_env_var`). */
  readonly writtenAs?: string | undefined
  readonly variables: ReadonlyArray<VariableUse>
}

/** A place that defines something. */
export interface Origin {
  readonly scope: Scope
  readonly source: string
  readonly line?: number | undefined
}

export interface ServerExplained extends Origin {
  readonly name: string
  readonly originalName: string
  readonly format: HostFormat
  readonly transport: string
  readonly fields: ReadonlyArray<FieldExplained>
  /** Lower-precedence definitions of the same server, replaced whole by this one. */
  readonly overrides: ReadonlyArray<Origin>
}

export interface RuleExplained extends Origin {
  readonly behavior: "allow" | "ask" | "deny"
  readonly rule: string
}

export interface LimitExplained {
  readonly variable: string
  readonly value: number | null
  /** `environment` when the variable set it, else `default`. */
  readonly from: "environment" | "default"
}

export interface Explained {
  /** Every settings file considered, lowest precedence first, and whether it exists. */
  readonly files: ReadonlyArray<{ readonly scope: Scope; readonly source: string; readonly format?: HostFormat | undefined; readonly exists: boolean }>
  readonly servers: ReadonlyArray<ServerExplained>
  readonly permissions: ReadonlyArray<RuleExplained>
  readonly limits: ReadonlyArray<LimitExplained>
  readonly warnings: ReadonlyArray<string>
}

// ---------------------------------------------------------------------------------------------
// Pure logic

const VAR = /\$\{([A-Za-z_][A-Za-z0-9_]*)(:-[^}]*)?\}/g

/** The `${VAR}`s of a value, each once (pure). */
export function variablesOf(value: unknown, env: Env): ReadonlyArray<VariableUse> {
  const text = typeof value === "string" ? value : JSON.stringify(value ?? "")
  const seen = new Map<string, VariableUse>()
  for (const m of text.matchAll(VAR)) {
    if (!seen.has(m[1]!)) seen.set(m[1]!, { name: m[1]!, set: env[m[1]!] !== undefined, hasDefault: m[2] !== undefined })
  }
  return [...seen.values()]
}

const hidden = (v: unknown) => (typeof v === "string" ? redactValue(v) : REDACTED)

/** OAuth fields that hold a secret (the others name files, URLs or variables). */
const OAUTH_SECRETS = ["clientSecret", "idpClientSecret"] as const

/** The value shown for a field: secrets hidden exactly as `get` hides them, references kept (pure). */
const shownValue = (field: string, value: unknown): unknown => {
  if (/^(env|headers)\./.test(field)) return hidden(value)
  if (field === "args" && Array.isArray(value)) return redactArgs(value.map(String))
  if (field === "url" && typeof value === "string") return redactUrl(value)
  if (field === "oauth" && value && typeof value === "object") {
    const oauth = { ...(value as Record<string, unknown>) }
    for (const key of OAUTH_SECRETS) if (oauth[key] !== undefined) oauth[key] = hidden(oauth[key])
    return oauth
  }
  return value
}

/** The file as read for explaining: its translation (for paths) and its text (for lines). */
export interface FileRead {
  readonly scope: Scope
  readonly source: string
  readonly text: string
  readonly host: HostSettings
}

const lineIn = (f: FileRead, path: ReadonlyArray<string>) =>
  f.host.format === "codex" ? tomlLine(f.text, path) : jsonLine(f.text, path)

/** Fields of one merged server, with their lines in the file that defined it (pure). */
const fieldsOf = (server: MergedServer, file: FileRead | undefined, env: Env): Array<FieldExplained> => {
  const translated = file?.host.servers.find((s) => s.name === server.originalName)
  const rows: Array<FieldExplained> = []
  for (const [key, value] of Object.entries(server.config as Record<string, unknown>)) {
    const record = (key === "env" || key === "headers") && value && typeof value === "object"
    const parts = record ? Object.entries(value as Record<string, unknown>).map(([k, v]) => [`${key}.${k}`, v] as const) : [[key, value] as const]
    for (const [field, v] of parts) {
      const from = translated?.fields[field] ?? translated?.fields[key] ?? [field.split(".")[0]!, ...field.split(".").slice(1)]
      const written = from.join(".")
      rows.push({
        field,
        value: shownValue(field, v),
        line: file && translated ? lineIn(file, [...translated.at, ...from]) : undefined,
        writtenAs: file && file.host.format !== "mcpctl" && written !== field ? written : undefined,
        variables: variablesOf(v, env)
      })
    }
  }
  return rows
}

/** Explains merged settings from the files that were read (pure; tests call it with texts). */
export function explainFiles(files: ReadonlyArray<FileRead>, env: Env): Either.Either<Omit<Explained, "files">, ConfigError> {
  const scoped: Array<ScopedSettings> = []
  for (const f of files) {
    // Another host's file is already translated: decoded as `load` decodes it.
    const parsed = f.host.format === "mcpctl" ? parseSettingsText(f.text, f.source) : decodeHostSettings(f.host, f.source)
    if (Either.isLeft(parsed)) return Either.left(parsed.left)
    scoped.push({ scope: f.scope, source: f.source, settings: parsed.right })
  }
  const merged = mergeSettings(scoped)
  if (Either.isLeft(merged)) return Either.left(merged.left)
  const fileOf = (source: string) => files.find((f) => f.source === source)
  const servers: Array<ServerExplained> = merged.right.servers.map((s) => {
    const file = fileOf(s.source)
    const translated = file?.host.servers.find((x) => x.name === s.originalName)
    const overrides = files
      .filter((f) => f.source !== s.source && f.host.servers.some((x) => x.name === s.originalName))
      .filter((f) => files.indexOf(f) < files.indexOf(file!))
      .map((f) => ({ scope: f.scope, source: f.source, line: lineIn(f, f.host.servers.find((x) => x.name === s.originalName)!.at) }))
    return {
      name: s.name,
      originalName: s.originalName,
      scope: s.scope,
      source: s.source,
      line: file && translated ? lineIn(file, translated.at) : undefined,
      format: file?.host.format ?? "mcpctl",
      transport: transportOf(s.config),
      fields: fieldsOf(s, file, env),
      overrides
    }
  })
  const permissions: Array<RuleExplained> = []
  for (const f of files) {
    const parsed = scoped.find((x) => x.source === f.source)!.settings.permissions
    for (const behavior of ["allow", "ask", "deny"] as const) {
      parsed[behavior].forEach((rule, i) => {
        // gemini-cli's `trust: true` is where its allow rule was written.
        const trusted = f.host.format === "gemini" ? f.host.servers.find((x) => `mcp__${x.name}` === rule) : undefined
        const line = trusted ? lineIn(f, [...trusted.at, "trust"]) : lineIn(f, ["permissions", behavior, String(i)])
        permissions.push({ behavior, rule, scope: f.scope, source: f.source, line })
      })
    }
  }
  return Either.right({ servers, permissions, limits: [], warnings: merged.right.warnings })
}

const limitVariables = [
  ["MCP_TIMEOUT", "connectTimeoutMs"],
  ["MCP_TOOL_TIMEOUT", "toolTimeoutMs"],
  ["MAX_MCP_OUTPUT_TOKENS", "maxOutputTokens"],
  ["MCP_SERVER_CONNECTION_BATCH_SIZE", "localConcurrency"],
  ["MCP_REMOTE_SERVER_CONNECTION_BATCH_SIZE", "remoteConcurrency"]
] as const

// ---------------------------------------------------------------------------------------------
// Effects

const readTextOrUndefined = (file: string): string | undefined => {
  try {
    // Regular files only: a FIFO would block the event loop for good (readRegularFile).
    return readRegularFileSync(file, 16 * 1024 * 1024)
  } catch {
    return undefined
  }
}

/** Reads every scope's file (as `load` does) and explains the merge; `server` narrows to one. */
export const explain = Effect.fn("Explain.explain")(function*(options: LoadOptions = {}) {
  const env = options.env ?? process.env
  const home = resolveHome(env, options.home)
  const projectDir = Path.resolve(options.cwd ?? process.cwd())
  const limits = yield* limitsFromEnv(env)
  const candidates = settingsFiles(projectDir, home, options.configFiles)
  const texts = yield* Effect.forEach(candidates, (f) =>
    Effect.tryPromise({
      try: () => readRegularFile(f.path, 16 * 1024 * 1024).catch((e: NodeJS.ErrnoException) => (e.code === "ENOENT" && !f.required ? undefined : Promise.reject(e))),
      catch: (e) => new ConfigError({ message: `${f.path}: cannot read settings file (${(e as NodeJS.ErrnoException).code ?? String(e)}).`, file: f.path, cause: e })
    }))
  const files: Array<FileRead> = []
  const listed: Array<Explained["files"][number]> = []
  for (const [i, f] of candidates.entries()) {
    const text = texts[i]
    if (text === undefined) {
      listed.push({ scope: f.scope, source: f.path, exists: false })
      continue
    }
    const host = readHostSettings(text, f.path, {
      projectDir,
      mode: "read",
      readText: readTextOrUndefined,
      format: f.scope === "flag" ? undefined : "mcpctl"
    })
    if (Either.isLeft(host)) return yield* host.left
    files.push({ scope: f.scope, source: f.path, text, host: host.right })
    listed.push({ scope: f.scope, source: f.path, format: host.right.format, exists: true })
  }
  const explained = yield* explainFiles(files, env)
  return {
    files: listed,
    servers: explained.servers,
    permissions: explained.permissions,
    limits: limitVariables.map(([variable, key]): LimitExplained => ({
      variable,
      value: limits[key] ?? null,
      from: env[variable]?.trim() ? "environment" : "default"
    })),
    warnings: explained.warnings
  } satisfies Explained
})
