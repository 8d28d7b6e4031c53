/**
 * `mcpctl serve [--http PORT]`: the configured servers as one MCP server, over stdio (default) or
 * Streamable HTTP on 127.0.0.1. Runs until stdin closes (stdio) or Ctrl-C; then every child is
 * shut down as in any other command.
 */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Flags from "../Flags.js"
import { runOnHost } from "../Host.js"
import { err } from "../Render.js"

const http = Options.integer("http").pipe(
  Options.optional,
  Options.withDescription("Serve Streamable HTTP on 127.0.0.1:PORT at /mcp instead of stdio (0 = a free port)")
)

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
        return gateway.closed
      }).pipe(Effect.provide(layer))
    })
  )).pipe(Command.withDescription("Serve every allowed tool, resource and prompt of the configured servers as one MCP server"))
