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

const http = Options.integer("http").pipe(
  Options.optional,
  Options.withDescription("Serve Streamable HTTP on 127.0.0.1:PORT at /mcp instead of stdio (0 = a free port)")
)

export const serve = Command.make("serve", { ...Flags.global, yes: Flags.yes, http }, (flags) =>
  runOnHost(
    // No prompts: with stdio, stdin is the MCP stream; asks are decided by --yes or refused.
    { ...flags, noPrompt: true },
    Effect.scoped(Effect.flatMap(
      Effect.promise(() => import("./serveImpl.js")),
      (impl) => Option.match(flags.http, { onNone: () => impl.serveStdio, onSome: impl.serveHttp })
    ))
  )).pipe(Command.withDescription("Serve every allowed tool, resource and prompt of the configured servers as one MCP server"))
