/**
 * What shell completion knows of the command line: every command, its subcommands, its options
 * (which take a value, and the choices of those that have some) and its positional arguments,
 * read from the command tree (Argv.ts, HelpDocs.ts) so it cannot drift. The build writes it into
 * the completion bundle as JSON (build.mjs): `mcpctl __complete` then loads neither Effect nor the
 * commands. Pure.
 */
// @ts-nocheck

import type * as Command from "@effect/cli/Command"
import { type Commands, commandsOf } from "../Argv.js"
import { type CommandDoc, docsOf } from "../HelpDocs.js"

/** One option by all its names; `takes` is undefined for a switch, `choices` when it has some. */
export interface TreeFlag {
  readonly names: ReadonlyArray<string>
  readonly takes?: string | undefined
  readonly choices?: ReadonlyArray<string> | undefined
}

/** One command as completion sees it. */
export interface TreeCommand {
  readonly name: string
  readonly flags: ReadonlyArray<TreeFlag>
  /** Positional arguments by their names in the tree (`server`, `name`, `key=value`). */
  readonly args: ReadonlyArray<{ readonly name: string; readonly repeated: boolean }>
  readonly subcommands: ReadonlyArray<TreeCommand>
}

/** `a | b | c` (how @effect/cli describes choices) as a list; undefined for a plain value. */
export const choicesOf = (value: string | undefined): Array<string> | undefined =>
  value !== undefined && value.includes(" | ") ? value.split(" | ").map((c) => c.trim()) : undefined

const commandOf = (doc: CommandDoc, specs: Commands | undefined): TreeCommand => {
  const spec = specs?.get(doc.name)
  const seen = new Set<string>()
  const flags: Array<TreeFlag> = []
  for (const flag of spec?.flags.values() ?? []) {
    if (seen.has(flag.names[0]!) || flag.names.includes("--completions") || flag.names.includes("--wizard")) continue
    seen.add(flag.names[0]!)
    const option = doc.options.find((o) => flag.names.includes(o.name))
    const choices = choicesOf(flag.value)
    flags.push({ names: [...flag.names], ...(flag.value !== undefined ? { takes: option?.value ?? "VALUE" } : {}), ...(choices ? { choices } : {}) })
  }
  return {
    name: doc.name,
    flags,
    args: doc.args.map((a) => ({ name: a.name.replace(/^<|>$/g, ""), repeated: a.repeated })),
    subcommands: doc.subcommands.map((s) => commandOf(s, spec?.subcommands))
  }
}

/** The tree of `root` (the `mcpctl` command), its subcommands under `subcommands`. */
export const treeOf = <Name extends string, R, E, A>(root: Command.Command<Name, R, E, A>): TreeCommand => {
  const docs = docsOf(root)
  const specs = commandsOf(root)
  return {
    name: docs.name,
    flags: [{ names: ["--help", "-h"] }, { names: ["--version"] }],
    args: [],
    subcommands: docs.subcommands.map((d) => commandOf(d, specs))
  }
}
