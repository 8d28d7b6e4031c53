/**
 * The command line checked before @effect/cli parses it. @effect/cli takes a typo'd flag for a
 * positional argument (`tools --jsn` became a server named "--jsn"), lets a flag swallow the
 * next flag as its value (`--config --json` read a file called "--json") or quietly drops one
 * without a value (`--config` alone), and reports `--timeout abc` without naming the option. This
 * check knows every command's options (read from the commands themselves, so it cannot drift) and
 * turns each of those into a usage error that names the flag and the fix. Pure.
 */
// @ts-nocheck

import type * as Command from "@effect/cli/Command"
import * as Descriptor from "@effect/cli/CommandDescriptor"
import type * as Usage from "@effect/cli/Usage"
import { UsageError } from "@mcpctl/core/Errors"
import { didYouMean } from "@mcpctl/core/internal/Suggest"
import * as Either from "effect/Either"
import * as Option from "effect/Option"

/** One option of a command: its names (`--json`, `-y`) and what it takes (undefined: nothing). */
export interface Flag {
  readonly names: ReadonlyArray<string>
  /** As @effect/cli describes it: `text`, `integer`, `file`, or choices `a | b | c`. */
  readonly value: string | undefined
}

/** A command's options by every name and alias, and its own subcommands (`config explain`). */
export interface CommandSpec {
  readonly flags: ReadonlyMap<string, Flag>
  readonly subcommands: Commands
}

/** Each command by name. */
export type Commands = ReadonlyMap<string, CommandSpec>

/** The MCP log levels and the Effect names `--log-level` also takes (Flags.logLevelFromArgv maps them). */
const logLevels = "debug | info | notice | warning | error | critical | alert | emergency | all | trace | fatal | none"

/** Options @effect/cli adds to every command. `--log-level` is here too: `add`/`remove` do not declare it. */
const builtIns: ReadonlyArray<Flag> = [
  { names: ["--help", "-h"], value: undefined },
  { names: ["--version"], value: undefined },
  { names: ["--wizard"], value: undefined },
  { names: ["--completions"], value: "sh | bash | fish | zsh" },
  { names: ["--log-level"], value: logLevels }
]

/** The options in a command's usage tree (positional arguments are `<name>`, not flags). */
export const flagsOfUsage = (usage: Usage.Usage): Array<Flag> => {
  switch (usage._tag) {
    case "Named":
      return usage.names.some((n) => n.startsWith("-"))
        ? [{ names: usage.names, value: Option.getOrUndefined(usage.acceptedValues) }]
        : []
    case "Optional":
    case "Repeated":
      return flagsOfUsage(usage.usage)
    case "Alternation":
    case "Concat":
      return [...flagsOfUsage(usage.left), ...flagsOfUsage(usage.right)]
    default:
      return []
  }
}

const byName = (flags: ReadonlyArray<Flag>): ReadonlyMap<string, Flag> => {
  const map = new Map<string, Flag>()
  // `--log-level` keeps the built-in's wider list: commands declare the MCP levels, and the
  // Effect names (all, trace, fatal, none) map to them (Flags.logLevelFromArgv).
  for (const flag of [...flags, ...builtIns]) {
    for (const name of flag.names) if (!map.has(name) || name === "--log-level") map.set(name, flag)
  }
  return map
}

/**
 * The shape of @effect/cli's command descriptors this walks: a command (`Standard`), one mapped
 * (`Map`), or one with subcommands (`Subcommands`: its `parent` and `children`).
 * `Descriptor.getSubcommands` stops one level down, so `config explain` needs the tree itself.
 */
interface DescriptorNode {
  readonly _tag: string
  readonly name?: string
  readonly command?: DescriptorNode
  readonly parent?: DescriptorNode
  readonly children?: ReadonlyArray<DescriptorNode>
}

const specOf = (node: DescriptorNode): readonly [string, CommandSpec] => {
  switch (node._tag) {
    case "Map":
      return specOf(node.command!)
    case "Subcommands": {
      const [name, parent] = specOf(node.parent!)
      // Code-unit order, not localeCompare: its first call loads ICU's collator (~20 ms of a cold
      // start), and command names are lowercase ASCII, where both orders agree.
      const children = [...node.children!].map(specOf).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      return [name, { get flags() { return parent.flags }, subcommands: new Map(children) }]
    }
    default: {
      // Read on first use: a run checks its own command's options, not the other twenty's.
      let flags: ReadonlyMap<string, Flag> | undefined
      return [node.name ?? "", {
        get flags() {
          return flags ??= byName(flagsOfUsage(Descriptor.getUsage(node as unknown as Descriptor.Command<unknown>)))
        },
        subcommands: new Map()
      }]
    }
  }
}

/** Every subcommand's options (and its subcommands'), read from the command tree. */
export const commandsOf = <Name extends string, R, E, A>(root: Command.Command<Name, R, E, A>): Commands =>
  specOf(root.descriptor as unknown as DescriptorNode)[1].subcommands

const isShortFlag = (token: string) => /^-[A-Za-z]/.test(token)
const isFlag = (token: string) => token.startsWith("--") || isShortFlag(token)

/** What the text-valued options take, in words (@effect/cli only says "text"). */
const placeholders: Readonly<Record<string, string>> = {
  "--config": "a settings file",
  "--cwd": "a project directory",
  "--url": "a server URL",
  "--stdio": "a server command line",
  "--header": "a header K:V",
  "--env": "a variable K=V",
  "--name": "a server name",
  "--args": "a JSON object",
  "--out": "a file",
  "--timeout": "milliseconds",
  "--http": "[HOST:]PORT",
  "--drain-timeout": "seconds"
}

const describeValue = (flag: string, value: string) =>
  value.includes(" | ")
    ? `one of ${value.split(" | ").join(", ")}`
    : placeholders[flag] ?? (value === "integer" ? "a whole number" : `a ${value}`)

/** Whether `raw` is a value an option described as `value` takes; the sentence saying why not. */
const checkValue = (flag: string, value: string, raw: string): string | undefined => {
  if (value === "integer") {
    return /^-?\d+$/.test(raw.trim()) ? undefined : `${flag} ${raw}: expected a whole number (${describeValue(flag, value)}).`
  }
  if (value.includes(" | ")) {
    const choices = value.split(" | ")
    return choices.includes(raw.toLowerCase())
      ? undefined
      : `${flag} ${raw}: expected one of ${choices.join(", ")}.${didYouMean(raw, choices)}`
  }
  return undefined
}

/** What the checked command line is: arguments for @effect/cli, or the usage error to report. */
export interface Checked {
  /** The arguments to parse (`-v` as `--version`, `--log-level` taken out: Flags reads it). */
  readonly args: ReadonlyArray<string>
}

/**
 * Checks `args` (the command line after `node mcpctl`) against the commands' options.
 * `interactive`: a terminal is there to answer `--wizard`'s questions.
 */
export const checkArgs = (
  args: ReadonlyArray<string>,
  commands: Commands,
  interactive: boolean
): Either.Either<Checked, UsageError> => {
  const fail = (message: string) => Either.left(new UsageError({ message }))
  const [first, ...rest] = args
  if (first === undefined) return Either.right({ args })
  if (first === "-v") return Either.right({ args: ["--version", ...rest] })
  const top = byName([])
  if (isFlag(first)) {
    const name = first.split("=")[0]!
    if (!top.has(name)) {
      return fail(`Unknown option ${name}.${didYouMean(name, top.keys())} \`mcpctl --help\` lists the commands.`)
    }
    if (name === "--wizard" && !interactive) return fail(wizardWithoutTerminal)
    return Either.right({ args })
  }
  let spec = commands.get(first)
  if (!spec) {
    return fail(
      `No command "${first}".${didYouMean(first, commands.keys())} Commands: ${[...commands.keys()].join(", ")}; ` +
        "`mcpctl --help` describes them."
    )
  }
  const out: Array<string> = [first]
  let command = first
  let start = 0
  // `config explain`: the words naming a subcommand come first, each with its own options.
  while (spec.subcommands.size > 0 && rest[start] !== undefined && !isFlag(rest[start]!)) {
    const word = rest[start]!
    const sub: CommandSpec | undefined = spec.subcommands.get(word)
    if (!sub) {
      return fail(
        `No command "${command} ${word}".${didYouMean(word, spec.subcommands.keys())} ` +
          `Commands of ${command}: ${[...spec.subcommands.keys()].join(", ")}.`
      )
    }
    spec = sub
    command = `${command} ${word}`
    out.push(word)
    start++
  }
  const flags = spec.flags
  let positionals = 0
  for (let i = start; i < rest.length; i++) {
    const token = rest[i]!
    if (token === "--") {
      out.push(...rest.slice(i))
      break
    }
    if (!isFlag(token)) {
      positionals++
      out.push(token)
      continue
    }
    const eq = token.indexOf("=")
    const name = token.startsWith("--") && eq > 0 ? token.slice(0, eq) : token
    const flag = flags.get(name)
    if (!flag) {
      const hint = command === "add" && positionals > 0
        ? " A server's own flags go after --: mcpctl add NAME -- COMMAND ARGS…"
        : ` \`mcpctl ${command} --help\` lists its options.`
      const near = name.startsWith("--") ? didYouMean(name, [...flags.keys()].filter((n) => n.startsWith("--"))) : ""
      return fail(`Unknown option ${name} for \`mcpctl ${command}\`.${near}${hint}`)
    }
    if (name === "--wizard" && !interactive) return fail(wizardWithoutTerminal)
    if (flag.value === undefined) {
      out.push(token)
      continue
    }
    const inline = name !== token ? token.slice(eq + 1) : undefined
    const value = inline ?? rest[i + 1]
    if (value === undefined || (inline === undefined && (value === "--" || (isFlag(value) && !/^-\d/.test(value))))) {
      return fail(`${name} needs a value (${describeValue(name, flag.value)})${value === undefined ? "" : `, not ${value}`}.`)
    }
    const wrong = checkValue(name, flag.value, value)
    if (wrong) return fail(wrong)
    if (inline === undefined) i++
    // --log-level is read from the command line by Flags (it takes MCP levels @effect/cli's
    // built-in option does not); kept from @effect/cli, which would otherwise handle it twice.
    if (name === "--log-level") continue
    out.push(name, value)
  }
  return Either.right({ args: out })
}

const wizardWithoutTerminal =
  "--wizard asks for each option on a terminal, and there is none here (stdin is not a TTY). " +
  "Give the options on the command line instead; `mcpctl COMMAND --help` lists them."
