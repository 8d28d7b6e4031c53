/**
 * What shell completion knows of servers and tools, read from files only, never from a server:
 * the server names of every settings scope and of the line's `--config` files (the files `load`
 * reads, other hosts' formats too, but neither decoded nor checked for trust: SettingsNames.ts),
 * and each server's tools from the catalogue cache (CatalogCache.ts: what `tools` last listed; the
 * newest file of a server of that name). Synchronous and forgiving: a file that cannot be read or
 * parsed adds nothing. Loads no Effect module: it runs at every Tab.
 */
// @ts-nocheck

import { normalizeServerName, resolveHome, serverNamesIn, settingsFiles } from "@mcpctl/core/internal/config/SettingsNames"
import { readdirSync, readFileSync, statSync } from "node:fs"
import * as Path from "node:path"
import type { CachedTool, World, WorldSpot } from "./Complete.js"

const MAX_FILE_BYTES = 16 * 1024 * 1024

/** A regular file's text (never a FIFO, which would block), or undefined. */
const readText = (file: string): string | undefined => {
  try {
    const stat = statSync(file)
    return stat.isFile() && stat.size <= MAX_FILE_BYTES ? readFileSync(file, "utf8") : undefined
  } catch {
    return undefined
  }
}

/** The names of the servers in the settings (each once, as `mcp__<server>__` spells it). */
export const serverNames = (projectDir: string, home: string, configFiles: ReadonlyArray<string>): Array<string> => {
  const names = new Set<string>()
  for (const file of settingsFiles(projectDir, home, configFiles)) {
    const text = readText(file.path)
    if (text === undefined) continue
    for (const name of serverNamesIn(text, file.path, projectDir)) names.add(normalizeServerName(name))
  }
  return [...names]
}

interface CacheFile {
  readonly server?: string
  readonly savedAt?: number
  readonly tools?: ReadonlyArray<CachedTool>
}

/** The catalogue cache's directory (CatalogCache.directoryOf, which loads Effect; a test keeps both equal). */
export const catalogDirectory = (home: string): string => Path.join(home, "cache", "catalog")

/** Every server's newest cached tool list. */
export const cachedTools = (home: string): Array<CachedTool> => {
  const dir = catalogDirectory(home)
  let entries: Array<string>
  try {
    entries = readdirSync(dir).filter((e) => e.endsWith(".json"))
  } catch {
    return []
  }
  const newest = new Map<string, { savedAt: number; tools: ReadonlyArray<CachedTool> }>()
  for (const entry of entries) {
    const text = readText(Path.join(dir, entry))
    if (text === undefined) continue
    let doc: CacheFile
    try {
      doc = JSON.parse(text) as CacheFile
    } catch {
      continue
    }
    if (!Array.isArray(doc.tools)) continue
    const tools = doc.tools.filter((t) => typeof t?.name === "string" && typeof t.server === "string" && typeof t.tool === "string")
    const server = typeof doc.server === "string" ? doc.server : tools[0]?.server
    const savedAt = typeof doc.savedAt === "number" ? doc.savedAt : 0
    if (server !== undefined && (newest.get(server)?.savedAt ?? -1) < savedAt) newest.set(server, { savedAt, tools })
  }
  return [...newest.values()].flatMap((n) => n.tools)
}

/** The world of a completion: `cwd` is where relative `--config`/`--cwd` values are resolved. */
export const worldAt = (env: NodeJS.ProcessEnv, cwd: string) => (spot: WorldSpot): World => {
  const home = resolveHome(env)
  const projectDir = Path.resolve(cwd, spot.cwd ?? ".")
  let servers: ReadonlyArray<string> | undefined
  let tools: ReadonlyArray<CachedTool> | undefined
  return {
    servers: () => (servers ??= serverNames(projectDir, home, spot.configFiles.map((f) => Path.resolve(cwd, f)))),
    tools: () => (tools ??= cachedTools(home))
  }
}
