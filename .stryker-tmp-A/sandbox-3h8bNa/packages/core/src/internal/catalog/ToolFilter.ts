/**
 * Which tools of a server exist for mcpctl at all: the server entry's `includeTools` and
 * `excludeTools` globs on the server's own tool names (CLI.md, Settings). A hidden tool is not a
 * refused one: it is absent from `tools`, `serve`, the library and search, so it costs no tokens
 * and cannot be picked; calling it is a usage error that names the field hiding it. Pure.
 */
// @ts-nocheck

import type { ResolvedServer, ServerConfig } from "../../config/ServerConfig.js"

/** Why a tool is hidden: the field and, for `excludeTools`, the glob that matched. */
export interface Hidden {
  readonly field: "includeTools" | "excludeTools"
  readonly pattern?: string | undefined
}

/**
 * A glob as an anchored regular expression: `*` is any run of characters, `?` one character,
 * everything else itself (tool names are plain identifiers, so no classes or braces).
 */
export const globToRegExp = (glob: string): RegExp =>
  new RegExp(
    "^" + Array.from(glob, (c) => (c === "*" ? ".*" : c === "?" ? "." : c.replace(/[\\^$.|+()[\]{}]/g, "\\$&"))).join("") + "$",
    "s"
  )

interface Compiled {
  readonly include: ReadonlyArray<readonly [string, RegExp]> | undefined
  readonly exclude: ReadonlyArray<readonly [string, RegExp]>
}

// Settings never change under a running host: each entry's globs are compiled once.
const compiled = new WeakMap<ServerConfig, Compiled>()

const compile = (config: ServerConfig): Compiled => {
  let c = compiled.get(config)
  if (!c) {
    const pairs = (globs: ReadonlyArray<string>) => globs.map((g) => [g, globToRegExp(g)] as const)
    c = { include: config.includeTools && pairs(config.includeTools), exclude: pairs(config.excludeTools ?? []) }
    compiled.set(config, c)
  }
  return c
}

/**
 * Why the server's tool `tool` (its own name) is hidden, or undefined when it is visible.
 * `excludeTools` wins over `includeTools`; an `includeTools` list, even an empty one, admits only
 * what it matches.
 */
export const hiddenBy = (config: ServerConfig, tool: string): Hidden | undefined => {
  if (config.includeTools === undefined && config.excludeTools === undefined) return undefined
  const { exclude, include } = compile(config)
  const excluded = exclude.find(([, re]) => re.test(tool))
  if (excluded) return { field: "excludeTools", pattern: excluded[0] }
  if (include && !include.some(([, re]) => re.test(tool))) return { field: "includeTools" }
  return undefined
}

/** Whether a server filters its tools at all (most do not: nothing to check per tool). */
export const filters = (config: ServerConfig): boolean =>
  config.includeTools !== undefined || config.excludeTools !== undefined

/** The usage error's message for a call to a hidden tool: the tool, the field, the file, the fix. */
export const hiddenMessage = (server: ResolvedServer, name: string, tool: string, hidden: Hidden): string => {
  const field = `mcpServers.${server.originalName}.${hidden.field}`
  return hidden.field === "excludeTools"
    ? `${name} is hidden by ${field} ("${hidden.pattern}") in ${server.source}. ` +
      `Remove that pattern to use the tool "${tool}".`
    : `${name} is hidden by ${field} in ${server.source}: "${tool}" matches none of ${
      JSON.stringify(server.config.includeTools)
    }. Add it there to use it.`
}
