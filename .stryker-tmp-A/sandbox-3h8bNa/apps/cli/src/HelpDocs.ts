/**
 * What a command's help says: read from the command tree itself (names, options, arguments and
 * their descriptions, so it cannot drift from what is parsed), walked here apart from how it is
 * printed (Help.ts). Pure.
 */
// @ts-nocheck

import type * as Command from "@effect/cli/Command"
import * as HelpDoc from "@effect/cli/HelpDoc"
import { stripAnsi } from "./Console.js"

/** One option: `--scope`, its aliases, the value it takes (undefined: a switch) and what it does. */
export interface OptionDoc {
  readonly name: string
  readonly aliases: ReadonlyArray<string>
  /** `FILE`, `N`, `local|project|user`; undefined for a switch. */
  readonly value: string | undefined
  readonly description: string
  readonly repeated: boolean
}

/** One positional argument: `<name>`, whether it may be left out or repeated. */
export interface ArgDoc {
  readonly name: string
  readonly description: string
  readonly optional: boolean
  readonly repeated: boolean
}

/** A command as its help shows it. */
export interface CommandDoc {
  readonly name: string
  readonly description: string
  readonly options: ReadonlyArray<OptionDoc>
  readonly args: ReadonlyArray<ArgDoc>
  readonly subcommands: ReadonlyArray<CommandDoc>
}

/** The shape of @effect/cli's descriptors, options and args this walks (its internals, read only). */
interface Node {
  readonly _tag: string
  readonly [key: string]: unknown
}

/** What a text value is, in the words of the help (@effect/cli only says "text"). */
const placeholders: Readonly<Record<string, string>> = {
  "--config": "FILE",
  "--cwd": "DIR",
  "--url": "URL",
  "--stdio": "COMMAND",
  "--header": "K:V",
  "--env": "K=V",
  "--name": "NAME",
  "--args": "JSON",
  "--out": "FILE",
  "--timeout": "MS",
  "--http": "PORT",
  "--socket": "PATH",
  "--token-file": "FILE",
  "--search": "WORDS",
  "--limit": "N",
  "--log-level": "LEVEL",
  "--from": "HOST",
  "--idle": "MINUTES",
  "--server-idle": "MINUTES"
}

const text = (doc: unknown): string =>
  doc === undefined ? "" : stripAnsi(HelpDoc.toAnsiText(doc as HelpDoc.HelpDoc)).replace(/\s+/g, " ").trim()

const valueOf = (name: string, primitive: Node): string | undefined => {
  if (primitive._tag === "Bool") return undefined
  if (primitive._tag === "Choice") {
    const choices = (primitive.alternatives as ReadonlyArray<readonly [string, unknown]>).map(([n]) => n)
    // A long list reads better in the description, which names them.
    return choices.length <= 4 ? choices.join("|") : placeholders[name] ?? name.replace(/^--/, "").toUpperCase()
  }
  if (placeholders[name]) return placeholders[name]
  const type = String(primitive._tag)
  return type === "Integer" ? "N" : type === "Float" ? "NUMBER" : type === "Path" ? "FILE" : "VALUE"
}

const optionsOf = (node: Node | undefined, repeated = false): Array<OptionDoc> => {
  if (node === undefined) return []
  switch (node._tag) {
    case "Single": {
      const name = String(node.fullName)
      return [{
        name,
        aliases: (node.aliases as ReadonlyArray<string>).map((a) => (a.length === 1 ? `-${a}` : `--${a}`)),
        value: valueOf(name, node.primitiveType as Node),
        description: text(node.description),
        repeated
      }]
    }
    case "Variadic":
    case "KeyValueMap":
      return optionsOf(node.argumentOption as Node, true)
    case "Both":
    case "OrElse":
      return [...optionsOf(node.left as Node, repeated), ...optionsOf(node.right as Node, repeated)]
    case "Map":
    case "WithDefault":
    case "WithFallback":
      return optionsOf(node.options as Node, repeated)
    default:
      return []
  }
}

const argsOf = (node: Node | undefined, optional = false, repeated = false): Array<ArgDoc> => {
  if (node === undefined) return []
  switch (node._tag) {
    case "Single":
      return [{ name: String(node.name), description: text(node.description), optional, repeated }]
    case "Variadic":
      return argsOf(node.args as Node, optional || node.min === 0 || node.min === undefined, true)
    case "WithDefault":
    case "WithFallbackConfig":
      return argsOf(node.args as Node, true, repeated)
    case "Map":
      return argsOf(node.args as Node, optional, repeated)
    case "Both":
      return [...argsOf(node.left as Node, optional, repeated), ...argsOf(node.right as Node, optional, repeated)]
    default:
      return []
  }
}

const docOf = (node: Node): CommandDoc => {
  switch (node._tag) {
    case "Map":
      return docOf(node.command as Node)
    case "Subcommands": {
      const parent = docOf(node.parent as Node)
      return { ...parent, subcommands: (node.children as ReadonlyArray<Node>).map(docOf) }
    }
    default:
      return {
        name: String(node.name ?? ""),
        description: text(node.description),
        options: optionsOf(node.options as Node),
        args: argsOf(node.args as Node),
        subcommands: []
      }
  }
}

/** The root command and every subcommand, as their help shows them. */
export const docsOf = <Name extends string, R, E, A>(root: Command.Command<Name, R, E, A>): CommandDoc =>
  docOf(root.descriptor as unknown as Node)
