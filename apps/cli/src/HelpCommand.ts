/**
 * `--help` anywhere before `--`: our help (Help.ts) instead of @effect/cli's, printed through
 * Effect's console so tests can capture it.
 */
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import { mcpctl } from "./Commands.js"
import { commandAt, commandHelp, helpRequest, rootHelp } from "./Help.js"
import { docsOf } from "./HelpDocs.js"
import { VERSION } from "./Host.js"

const docs = docsOf(mcpctl)

/** The help program for `args` (the command line after `mcpctl`), or undefined when none is asked for. */
export const showHelp = (args: ReadonlyArray<string>): Effect.Effect<void> | undefined => {
  const path = helpRequest(args, docs)
  if (path === undefined) return undefined
  const command = commandAt(docs, path)
  return Console.log(path.length === 0 || command === undefined ? rootHelp(docs, VERSION) : commandHelp(command, path))
}
