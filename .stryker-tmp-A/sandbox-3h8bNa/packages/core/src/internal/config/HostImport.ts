/**
 * `mcpctl import --from HOST [FILE]`: where each host keeps its MCP settings on Linux and macOS,
 * reading them (HostFormats.ts) and the plan of what goes into an mcpctl scope. Entries keep
 * variable references as references; a value is never expanded into the file written. The
 * writing itself is `SettingsFile.writeServerEntries` (comments kept, one atomic write).
 */
// @ts-nocheck

import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Path from "node:path"
import { ConfigError, UsageError } from "../../Errors.js"
import { type HostFormat, type HostServer, type HostSettings, readHostSettings } from "./HostFormats.js"
import { type Env, type HostInput, RemoteServerConfig, StdioServerConfig } from "../../config/ServerConfig.js"
import { readRegularFile, readRegularFileSync } from "../files.js"
import { parseSettingsText } from "./SettingsLoad.js"

/**
 * Why mcpctl's own loader would refuse an entry, if it would (pure): an import writes only what
 * every later command can read, since one bad entry fails the whole file (exit 2 for every run).
 */
const loaderRefusal = (name: string, entry: Readonly<Record<string, unknown>>, source: string): string | undefined => {
  const checked = parseSettingsText(JSON.stringify({ mcpServers: { [name]: entry } }), source)
  if (Either.isRight(checked)) return undefined
  const lines = checked.left.message.split("\n").map((l) => l.trim()).filter((l) => l.startsWith("mcpServers."))
  return lines.length > 0
    ? `mcpctl would refuse it: ${lines.map((l) => l.replace(`mcpServers.${name}.`, "")).join("; ")}`
    : `mcpctl would refuse it: ${checked.left.message}`
}

/** The hosts `import --from` reads. */
export const importHosts = ["claude-desktop", "claude-code", "cursor", "vscode", "windsurf", "codex", "gemini"] as const
export type ImportHost = typeof importHosts[number]

/** Where to look: the user's home, the project, the platform and the environment (`XDG_CONFIG_HOME`, `CODEX_HOME`, …). */
export interface HostPlaces {
  readonly userHome: string
  readonly projectDir: string
  readonly platform: NodeJS.Platform
  readonly env: Env
}

/**
 * A host's settings files, lowest precedence first (user-wide, then the project's), on Linux and
 * macOS (pure). Only the ones that exist are read.
 */
export function hostFiles(host: ImportHost, p: HostPlaces): ReadonlyArray<string> {
  const home = p.userHome
  const mac = p.platform === "darwin"
  const appSupport = Path.join(home, "Library", "Application Support")
  const xdg = p.env.XDG_CONFIG_HOME || Path.join(home, ".config")
  switch (host) {
    case "claude-desktop":
      return [Path.join(mac ? appSupport : xdg, "Claude", "claude_desktop_config.json")]
    case "claude-code":
      // The project's `.mcp.json` needs no import: mcpctl reads it as its own project scope.
      return [Path.join(p.env.CLAUDE_CONFIG_DIR || home, ".claude.json")]
    case "cursor":
      return [Path.join(home, ".cursor", "mcp.json"), Path.join(p.projectDir, ".cursor", "mcp.json")]
    case "vscode":
      return [Path.join(mac ? appSupport : xdg, "Code", "User", "mcp.json"), Path.join(p.projectDir, ".vscode", "mcp.json")]
    case "windsurf":
      return [Path.join(home, ".codeium", "windsurf", "mcp_config.json")]
    case "codex":
      return [Path.join(p.env.CODEX_HOME || Path.join(home, ".codex"), "config.toml")]
    case "gemini":
      return [Path.join(home, ".gemini", "settings.json"), Path.join(p.projectDir, ".gemini", "settings.json")]
  }
}

/** The dialect a host's file is read in (Claude Code's `.mcp.json` is mcpctl's own shape). */
const formatOf = (host: ImportHost, file: string): HostFormat =>
  host === "claude-code" && Path.basename(file) !== ".claude.json" ? "mcpctl" : host

/** One server to import: the entry to write and the file it came from. */
export interface ImportEntry {
  readonly name: string
  readonly source: string
  readonly entry: Readonly<Record<string, unknown>>
}

/** What an import would write, before any file is touched. */
export interface ImportPlan {
  /** The host's files that were read. */
  readonly sources: ReadonlyArray<string>
  readonly servers: ReadonlyArray<ImportEntry>
  /** Entries that are not servers mcpctl can start (no command or URL), with why. */
  readonly invalid: ReadonlyArray<{ readonly name: string; readonly source: string; readonly reason: string }>
  /** Allow rules the host's settings imply (gemini-cli `trust: true`). */
  readonly allow: ReadonlyArray<string>
  /** Fields mcpctl cannot honour (source paths), including kept ones mcpctl does not use yet. */
  readonly unhonoured: ReadonlyArray<string>
  readonly notes: ReadonlyArray<string>
  readonly inputs: ReadonlyArray<HostInput>
}

const known = new Set([...Object.keys(StdioServerConfig.fields), ...Object.keys(RemoteServerConfig.fields)])

/**
 * Merges the translated files into one plan (pure): a later file's server replaces an earlier
 * one of the same name, as the host itself would.
 */
export function importPlan(files: ReadonlyArray<{ readonly file: string; readonly settings: HostSettings }>): ImportPlan {
  const byName = new Map<string, { server: HostServer; source: string }>()
  const unhonoured: Array<string> = [], notes: Array<string> = [], allow: Array<string> = [], inputs: Array<HostInput> = []
  for (const { file, settings } of files) {
    for (const server of settings.servers) {
      byName.delete(server.name)
      byName.set(server.name, { server, source: file })
    }
    unhonoured.push(...settings.unhonoured)
    notes.push(...settings.notes)
    inputs.push(...settings.inputs)
    const rules = (settings.permissions as { allow?: unknown }).allow
    if (settings.format !== "mcpctl" && Array.isArray(rules)) allow.push(...rules.filter((r): r is string => typeof r === "string"))
  }
  const servers: Array<ImportEntry> = []
  const invalid: Array<ImportPlan["invalid"][number]> = []
  for (const { server, source } of byName.values()) {
    const hasCommand = "command" in server.entry, hasUrl = "url" in server.entry
    if (hasCommand === hasUrl) {
      invalid.push({ name: server.name, source, reason: hasCommand ? "has both a command and a URL" : "has neither a command nor a URL" })
      continue
    }
    const refusal = loaderRefusal(server.name, server.entry, source)
    if (refusal !== undefined) {
      invalid.push({ name: server.name, source, reason: refusal })
      continue
    }
    // Kept in the entry but not a field mcpctl knows: say so.
    for (const k of Object.keys(server.entry)) {
      if (!known.has(k)) unhonoured.push(`${[...server.at, ...(server.fields[k] ?? [k])].join(".")} (kept as "${k}")`)
    }
    servers.push({ name: server.name, source, entry: server.entry })
  }
  return {
    sources: files.map((f) => f.file),
    servers,
    invalid,
    allow: [...new Set(allow)],
    unhonoured: [...new Set(unhonoured)],
    notes: [...new Set(notes)],
    inputs: inputs.filter((i, n) => inputs.findIndex((j) => j.variable === i.variable) === n)
  }
}

const readTextOrUndefined = (file: string): string | undefined => {
  try {
    // Regular files only: a FIFO would block the event loop for good (readRegularFile).
    return readRegularFileSync(file, 16 * 1024 * 1024)
  } catch {
    return undefined
  }
}

/**
 * Reads a host's settings: the FILE given, or every default file of the host that exists. None
 * found is a usage error listing where it looked.
 */
export const readHost = Effect.fn("HostImport.readHost")(function*(
  host: ImportHost,
  file: string | undefined,
  places: HostPlaces
) {
  const candidates = file !== undefined ? [Path.resolve(file)] : hostFiles(host, places)
  const found: Array<{ file: string; settings: HostSettings }> = []
  for (const candidate of candidates) {
    const text = yield* Effect.tryPromise({
      try: () => readRegularFile(candidate, 16 * 1024 * 1024).catch((e: NodeJS.ErrnoException) => (e.code === "ENOENT" && file === undefined ? undefined : Promise.reject(e))),
      catch: (e) => new ConfigError({ message: `${candidate}: cannot read (${(e as NodeJS.ErrnoException).code ?? String(e)}).`, file: candidate, cause: e })
    })
    if (text === undefined) continue
    const settings = readHostSettings(text, candidate, {
      projectDir: places.projectDir,
      mode: "write",
      readText: readTextOrUndefined,
      format: formatOf(host, candidate)
    })
    if (Either.isLeft(settings)) return yield* settings.left
    found.push({ file: candidate, settings: settings.right })
  }
  if (found.length === 0) {
    return yield* new UsageError({
      message: `No ${host} settings found at ${candidates.join(", ")}. Give the file: mcpctl import --from ${host} FILE`
    })
  }
  return importPlan(found)
})
