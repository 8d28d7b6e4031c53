/**
 * Where the settings of every scope are, and the names of the servers a settings file holds, in
 * any host's format, without decoding the entries: what shell completion needs at every Tab
 * (apps/cli completion/World.ts), in a module that loads neither Effect nor the schemas, so a
 * completion starts in about the time of `node -e 0`. `SettingsLoad` takes its file list, home and
 * name normalization from here, so both read the same files. Pure but for `homedir()`.
 */
// @ts-nocheck

import type { ParseError } from "jsonc-parser"
import { homedir } from "node:os"
import * as Path from "node:path"
import { parse as parseToml } from "smol-toml"
import { parseJsoncSafe } from "../SafeJson.js"
import type { Env, Scope } from "../../config/ServerConfig.js"

/** One server name per `mcp__<server>__<tool>` prefix: no dots, spaces or `__` that would break splitting. */
export function normalizeServerName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, "_").replace(/_+/g, "_")
}

/** The settings files of every scope, lowest precedence first; scopes that share a file read it once. */
export function settingsFiles(projectDir: string, home: string, configFiles: ReadonlyArray<string> = []) {
  const files: Array<{ scope: Scope; path: string; required: boolean }> = [
    { scope: "user", path: Path.join(home, "settings.json"), required: false },
    { scope: "project", path: Path.join(projectDir, ".mcp.json"), required: false },
    { scope: "project", path: Path.join(projectDir, ".mcpctl", "settings.json"), required: false },
    { scope: "local", path: Path.join(projectDir, ".mcpctl", "settings.local.json"), required: false },
    ...configFiles.map((f) => ({ scope: "flag" as const, path: Path.resolve(f), required: true }))
  ]
  return files.filter((f, i) => files.findIndex((g) => g.path === f.path) === i)
}

/** `$MCPCTL_HOME`, absolute; the one place the default `~/.mcpctl` lives. */
export function resolveHome(env: Env, home?: string): string {
  return Path.resolve(home ?? (env.MCPCTL_HOME || Path.join(homedir(), ".mcpctl")))
}

type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v)
const keysOf = (v: unknown): Array<string> => (isObject(v) ? Object.keys(v) : [])

/**
 * The server names `file` holds, as written (not normalized): `mcpServers` (mcpctl, Claude
 * Desktop, Cursor, Windsurf, gemini-cli), Claude Code's `projects.<projectDir>.mcpServers`, VS
 * Code's `servers` or `mcp.servers`, Codex's `[mcp_servers.NAME]`. Nothing for a file that does
 * not parse.
 */
export function serverNamesIn(text: string, file: string, projectDir: string): Array<string> {
  if (file.endsWith(".toml")) {
    try {
      return keysOf((parseToml(text) as Json).mcp_servers)
    } catch {
      return []
    }
  }
  const errors: Array<ParseError> = []
  const { value } = parseJsoncSafe(text, errors)
  if (errors.length > 0 || !isObject(value)) return []
  const names = keysOf(value.mcpServers)
  if (isObject(value.projects)) {
    const key = Object.keys(value.projects).find((k) => Path.resolve(k) === Path.resolve(projectDir))
    if (key !== undefined && isObject(value.projects[key])) names.push(...keysOf((value.projects[key] as Json).mcpServers))
  }
  if (!("mcpServers" in value)) names.push(...keysOf(value.servers), ...(isObject(value.mcp) ? keysOf(value.mcp.servers) : []))
  return [...new Set(names)]
}
