/**
 * `mcpctl __complete LINE`: the words that may follow the command line typed so far (up to the
 * cursor): commands, subcommands, options and their choices, server names and tool names, and a
 * tool's `key=` parameters with their enum values. What it knows of servers and tools comes from
 * `World` (World.ts: the settings files and the catalogue cache, never a server). Pure.
 */
// @ts-nocheck

import type { TreeCommand, TreeFlag } from "./Tree.js"
import { shellWords } from "../ShellWords.js"

/** A tool as the catalogue cache keeps it (the part completion reads). */
export interface CachedTool {
  /** `mcp__<server>__<tool>`. */
  readonly name: string
  readonly server: string
  /** The tool's own name. */
  readonly tool: string
  readonly inputSchema?: { readonly properties?: Record<string, unknown> } | undefined
}

/** The servers of the settings and their cached tools, read only when a completion needs them. */
export interface World {
  readonly servers: () => ReadonlyArray<string>
  readonly tools: () => ReadonlyArray<CachedTool>
}

/** Where the world is read from: the `--config` files and the `--cwd` of the line. */
export interface WorldSpot {
  readonly configFiles: ReadonlyArray<string>
  readonly cwd: string | undefined
}

/** Words to offer (each the whole word, as typed so far plus the rest), or the shell's file names. */
export type Completion = { readonly _tag: "Words"; readonly words: ReadonlyArray<string> } | { readonly _tag: "Files" }

const words = (all: Iterable<string>, prefix: string): Completion => ({
  _tag: "Words",
  words: [...new Set(all)].filter((w) => w.startsWith(prefix)).sort()
})
const files: Completion = { _tag: "Files" }
const nothing: Completion = { _tag: "Words", words: [] }

/**
 * The words of `line` as a shell splits them (blanks; '…', "…" and \ quote), and whether the
 * last one is still being typed (the line does not end in a blank).
 */
export const splitLine = (line: string): { readonly words: Array<string>; readonly current: string } => {
  const { words, last } = shellWords(line)
  return { words, current: last ?? "" }
}

/** What a positional argument is, for the commands whose arguments completion knows. */
type Kind = "server" | "servers" | "tool" | "params" | "toolOfServer" | "file" | "none"

/**
 * The positional arguments of each command, in order (the last one repeats when the tree says it
 * does). A command with arguments that is not here completes none (a test checks every command
 * of the tree is here). An argument named `a|b` in the tree completes its choices.
 */
export const positionals: Readonly<Record<string, ReadonlyArray<Kind>>> = {
  servers: ["servers"],
  tools: ["servers"],
  call: ["tool", "params"],
  "task get": ["server", "none"],
  "task wait": ["server", "none"],
  "task result": ["server", "none"],
  "task cancel": ["server", "none"],
  "task list": ["server"],
  resources: ["servers"],
  read: ["server", "none"],
  prompts: ["servers"],
  prompt: ["server", "none", "none"],
  complete: ["server", "none", "none", "none", "none"],
  skills: ["servers"],
  skill: ["server", "none", "none"],
  add: ["none", "none"],
  remove: ["server"],
  get: ["server"],
  import: ["file"],
  "config explain": ["server"],
  auth: ["server"],
  logout: ["server"],
  serve: [],
  trust: ["server", "toolOfServer"],
  "daemon start": [],
  "daemon status": [],
  "daemon stop": [],
  completion: ["none"]
}

const takesFiles = (flag: TreeFlag) => flag.takes === "FILE" || flag.takes === "DIR" || flag.takes === "PATH"

const flagNamed = (command: TreeCommand, word: string): TreeFlag | undefined => command.flags.find((f) => f.names.includes(word))

/** The completion of `line` (everything typed up to the cursor, the program's name first). */
export const complete = (root: TreeCommand, line: string, worldAt: (spot: WorldSpot) => World): Completion => {
  const { current, words: typed } = splitLine(line)
  const path: Array<string> = []
  const args: Array<string> = []
  const configFiles: Array<string> = []
  let cwd: string | undefined
  let command = root
  let pendingFlag: TreeFlag | undefined
  for (const word of typed.slice(1)) {
    if (pendingFlag) {
      if (pendingFlag.names.includes("--config")) configFiles.push(word)
      if (pendingFlag.names.includes("--cwd")) cwd = word
      pendingFlag = undefined
      continue
    }
    // After `--` come a stdio server's command and its arguments: the shell's files fit best.
    if (word === "--") return files
    if (word.startsWith("-")) {
      const [name, value] = word.includes("=") ? [word.slice(0, word.indexOf("=")), word.slice(word.indexOf("=") + 1)] : [word, undefined]
      const flag = flagNamed(command, name)
      if (value !== undefined) {
        if (name === "--config") configFiles.push(value)
        if (name === "--cwd") cwd = value
      } else if (flag?.takes !== undefined) pendingFlag = flag
      continue
    }
    const sub = args.length === 0 ? command.subcommands.find((c) => c.name === word) : undefined
    if (sub) {
      command = sub
      path.push(word)
    } else args.push(word)
  }
  let world: World | undefined
  const lazyWorld = () => (world ??= worldAt({ configFiles, cwd }))

  if (pendingFlag) return valueOf(pendingFlag, current, "")
  if (current.startsWith("-")) {
    const eq = current.indexOf("=")
    if (eq > 0) {
      const flag = flagNamed(command, current.slice(0, eq))
      return flag ? valueOf(flag, current.slice(eq + 1), current.slice(0, eq + 1)) : nothing
    }
    return words(command.flags.flatMap((f) => f.names), current)
  }
  if (command.subcommands.length > 0 && args.length === 0) {
    return words(command.subcommands.map((c) => c.name).filter((n) => !n.startsWith("__")), current)
  }
  if (path.length === 0) return nothing
  return argument(command, path.join(" "), args, current, lazyWorld)
}

const valueOf = (flag: TreeFlag, current: string, prefix: string): Completion => {
  if (flag.choices) return words(flag.choices.map((c) => prefix + c), prefix + current)
  return takesFiles(flag) && prefix === "" ? files : nothing
}

const argument = (command: TreeCommand, path: string, args: ReadonlyArray<string>, current: string, world: () => World): Completion => {
  const kinds = positionals[path] ?? []
  const index = args.length
  const last = command.args.length - 1
  const named = command.args[Math.min(index, last)]
  if (named === undefined || (index > last && !named.repeated)) return nothing
  if (named.name.includes("|")) return words(named.name.split("|"), current)
  const kind = kinds[Math.min(index, kinds.length - 1)] ?? "none"
  switch (kind) {
    case "server":
      return words(world().servers(), current)
    case "servers":
      return words(world().servers().filter((s) => !args.includes(s)), current)
    case "tool": {
      const servers = new Set(world().servers())
      return words(world().tools().filter((t) => servers.has(t.server)).map((t) => t.name), current)
    }
    case "toolOfServer":
      return words(world().tools().filter((t) => t.server === args[0]).map((t) => t.tool), current)
    case "params":
      return params(world().tools().find((t) => t.name === args[0]), args.slice(1), current)
    case "file":
      return files
    case "none":
      return nothing
  }
}

/** The property of a JSON Schema that completion reads. */
interface Property {
  readonly type?: unknown
  readonly enum?: ReadonlyArray<unknown>
}

/** A tool's `key=` parameters not given yet; after `key=`, its enum values (or true/false). */
const params = (tool: CachedTool | undefined, given: ReadonlyArray<string>, current: string): Completion => {
  const properties = (tool?.inputSchema?.properties ?? {}) as Record<string, Property>
  const eq = current.indexOf("=")
  if (eq < 0) {
    const used = new Set(given.map((g) => g.slice(0, g.indexOf("="))))
    return words(Object.keys(properties).filter((k) => !used.has(k)).map((k) => `${k}=`), current)
  }
  const key = current.slice(0, eq)
  const property = Object.hasOwn(properties, key) ? properties[key] : undefined
  const values = property?.enum?.filter((v) => typeof v === "string" || typeof v === "number" || typeof v === "boolean").map(String) ??
    (property?.type === "boolean" ? ["true", "false"] : [])
  return words(values.map((v) => `${key}=${v}`), current)
}
