/**
 * `--help` anywhere before `--`: our help (Help.ts) instead of @effect/cli's, printed through
 * Effect's console so tests can capture it.
 */
// @ts-nocheck

import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import { commandsOf, type Flag } from "./Argv.js"
import { mcpctl } from "./Commands.js"
import { commandAt, commandHelp, helpRequest, rootHelp } from "./Help.js"
import { type CommandDoc, docsOf } from "./HelpDocs.js"
import { VERSION } from "./Host.js"
import { toolOfCall } from "./ToolHelp.js"
import { showToolHelp } from "./ToolHelpCommand.js"

// Built on first use, by `--help` only: rendering every command's help text runs Effect's printer
// over the whole tree, a visible part of every cold start when it ran at load.
let built: { readonly docs: CommandDoc; readonly callFlags: ReadonlyMap<string, Flag> } | undefined
const help = () => (built ??= { docs: docsOf(mcpctl), callFlags: commandsOf(mcpctl).get("call")!.flags })
const docs = () => help().docs

/** The help program for `args` (the command line after `mcpctl`), or undefined when none is asked for. */
export const showHelp = (args: ReadonlyArray<string>): Effect.Effect<void, unknown> | undefined => {
  const path = helpRequest(args, docs)
  if (path === undefined) return undefined
  const tool = path.length === 1 && path[0] === "call" ? toolOfCall(args, (f) => help().callFlags.get(f)?.value !== undefined) : undefined
  if (tool !== undefined) return showToolHelp(tool, args)
  const command = commandAt(docs(), path)
  return Console.log(path.length === 0 || command === undefined ? rootHelp(docs(), VERSION) : commandHelp(command, path))
}
