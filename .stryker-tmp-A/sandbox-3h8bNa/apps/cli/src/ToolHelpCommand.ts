/**
 * `mcpctl call TOOL --help`: the tool's parameters from the catalogue cache (what `tools --cached`
 * reads), so it connects to nothing when the cache has the server's list; else it connects to
 * that one server, and says so on stderr.
 */
// @ts-nocheck

import * as CatalogCache from "@mcpctl/core/internal/catalog/CatalogCache"
import { ConnectionPool } from "@mcpctl/core/ConnectionPool"
import { McpConfig } from "@mcpctl/core/McpConfig"
import { ToolRegistry } from "@mcpctl/core/ToolRegistry"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { runOnHost } from "./Host.js"
import { err } from "./Render.js"
import { toolHelp } from "./ToolHelp.js"

/** The values of `flag` on the command line (before `--`), `--flag V` and `--flag=V` alike. */
const valuesOf = (args: ReadonlyArray<string>, flag: string): Array<string> => {
  const values: Array<string> = []
  for (let i = 0; i < args.length && args[i] !== "--"; i++) {
    if (args[i] === flag && args[i + 1] !== undefined) values.push(args[++i]!)
    else if (args[i]!.startsWith(`${flag}=`)) values.push(args[i]!.slice(flag.length + 1))
  }
  return values
}

/** Prints the help of `name`, reading `--config`/`--cwd`/`--url`/`--stdio`/`--name` from `args`. */
export const showToolHelp = (name: string, args: ReadonlyArray<string>) => {
  const last = (flag: string) => Option.fromNullable(valuesOf(args, flag).at(-1))
  const options = {
    json: false,
    config: valuesOf(args, "--config"),
    cwd: last("--cwd"),
    url: last("--url"),
    stdio: last("--stdio"),
    adhocName: Option.getOrUndefined(last("--name")) ?? "adhoc",
    noPrompt: true
  }
  return runOnHost("call", options, Effect.gen(function*() {
    const config = yield* McpConfig
    const pool = yield* ConnectionPool
    const spot = { home: config.home, projectDir: config.projectDir, pathVar: process.env.PATH }
    const server = pool.servers.find((s) => name.startsWith(`mcp__${s.name}__`))
    const cached = server === undefined ? undefined : yield* CatalogCache.read(spot, server)
    const fromCache = cached?.tools.find((t) => t.name === name)
    if (fromCache === undefined && server !== undefined) err(`note: no cached tool list for ${server.name}; connecting to it`)
    const tool = fromCache ?? (yield* (yield* ToolRegistry).resolve(name))
    yield* Console.log(toolHelp(tool))
  }))
}
