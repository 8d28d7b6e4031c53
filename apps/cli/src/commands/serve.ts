/**
 * `mcpctl serve [--http PORT]`: the configured servers as one MCP server, over stdio (default) or
 * Streamable HTTP on 127.0.0.1. Runs until stdin closes (stdio) or Ctrl-C; then every child is
 * shut down as in any other command.
 */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { ConnectionPool } from "@mcpctl/core/ConnectionPool"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Flags from "../Flags.js"
import { runOnHost } from "../Host.js"
import { err } from "../Render.js"

const http = Options.integer("http").pipe(
  Options.withSchema(Schema.Int.pipe(Schema.between(0, 65535, { message: () => "--http takes a port number from 0 to 65535 (0: any free port)" }))),
  Options.optional,
  Options.withDescription("Serve Streamable HTTP on 127.0.0.1:PORT at /mcp instead of stdio (0 = a free port)")
)

/**
 * Connects every enabled server once serving has started and says on stderr which could not be
 * used and why: the client only sees a shorter catalogue, the person who started serve sees this.
 */
const reportServers = Effect.gen(function*() {
  const pool = yield* ConnectionPool
  const states = yield* pool.connectAll()
  const unusable = states.filter((s) => s.status === "failed" || s.status === "needs-auth")
  for (const s of unusable) {
    if ("error" in s) err(`mcpctl serve: server "${s.server.name}" is ${s.status}, its tools are not served: ${s.error.message}`)
  }
  const connected = states.filter((s) => s.status === "connected").length
  err(`mcpctl serve: ${connected} of ${states.length} server${states.length === 1 ? "" : "s"} connected`)
})

const toolSearch = Options.boolean("tool-search").pipe(
  Options.withDescription(
    "List only search_tools and call_tool (plus the tools of servers with \"alwaysLoad\": true) instead of every tool"
  )
)

export const serve = Command.make("serve", { ...Flags.global, yes: Flags.yes, http, toolSearch }, (flags) =>
  runOnHost(
    "serve",
    // No prompts: with stdio, stdin is the MCP stream; asks are decided by --yes or refused.
    { ...flags, noPrompt: true, retryConnects: true },
    Effect.gen(function*() {
      // Loaded only now: the SDK's server side (with its HTTP framework) would otherwise be
      // loaded, and set up, by every command's cold start.
      const { Gateway } = yield* Effect.promise(() => import("@mcpctl/core/Gateway"))
      const options = { toolSearch: flags.toolSearch }
      const layer = Option.match(flags.http, {
        onNone: () => Gateway.layerStdioWith(options),
        onSome: (port) => Gateway.layerHttp({ port, ...options })
      })
      yield* Effect.flatMap(Gateway, (gateway) => {
        err(`mcpctl serve: serving MCP on ${gateway.address}`)
        return Effect.zipRight(Effect.forkScoped(reportServers), gateway.closed)
      }).pipe(Effect.provide(layer), Effect.scoped)
    })
  )).pipe(Command.withDescription("Serve every allowed tool, resource and prompt of the configured servers as one MCP server"))
