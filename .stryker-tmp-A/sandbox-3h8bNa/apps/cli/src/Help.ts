/**
 * `mcpctl --help` and `mcpctl COMMAND --help`, written for people: commands grouped by what they
 * are for, the flags every command shares described once, each command's own options with their
 * defaults, and an example. @effect/cli still parses; its own help (every option of every command
 * on one line, "A user-defined piece of text." under each) is never shown. The options and their
 * descriptions come from the command tree (HelpDocs.ts); this table adds what it cannot say: the
 * group, the usage line and an example. Pure.
 */
// @ts-nocheck

import type { CommandDoc, OptionDoc } from "./HelpDocs.js"

/** What the table adds to a command. */
interface Extra {
  readonly usage: string
  readonly example: string
  /** Said below the options: what a default file is, how arguments are written. */
  readonly notes?: ReadonlyArray<string>
}

/** The groups of `mcpctl --help`, in order; a command not in any is listed under "More". */
export const groups: ReadonlyArray<readonly [string, ReadonlyArray<string>]> = [
  ["Use servers", ["servers", "tools", "call", "task", "resources", "read", "prompts", "prompt", "complete", "skills", "skill"]],
  ["Settings", ["add", "remove", "get", "import", "config", "trust"]],
  ["Run as a service", ["serve", "daemon"]],
  ["Sign in", ["auth", "logout"]],
  ["Shell", ["completion"]]
]

const scopeNote =
  "Scopes: local is .mcpctl/settings.local.json in the project directory (not committed), project is .mcp.json there, " +
  "user is $MCPCTL_HOME/settings.json (~/.mcpctl/settings.json) (docs/CLI.md, section Settings)."

export const extras: Readonly<Record<string, Extra>> = {
  servers: { usage: "mcpctl servers [SERVER…] [options]", example: "mcpctl servers --check --config examples/settings.json" },
  tools: {
    usage: "mcpctl tools [SERVER…] [--search WORDS] [options]",
    example: "mcpctl tools --search \"add two numbers\" --config examples/settings.json"
  },
  call: {
    usage: "mcpctl call TOOL [key=value…] [--args JSON] [options]",
    example: "mcpctl call mcp__everything__get-sum a=2 b=40",
    notes: [
      "TOOL is mcp__<server>__<tool>, as `mcpctl tools` lists it; --args gives the arguments as one JSON object instead.",
      "`mcpctl call TOOL --help` lists that tool's parameters (from the catalogue cache when there is one)."
    ]
  },
  task: {
    usage: "mcpctl task get|wait|result|cancel SERVER ID [options]   or   mcpctl task list SERVER [options]",
    example: "mcpctl task wait build 3f2c9a1e-…",
    notes: [
      "A server may run a call as a task: `mcpctl call` then waits for it (Ctrl-C cancels it), `call --detach` prints its id and exits.",
      "`task list` shows the tasks started from this machine (MCPCTL_HOME) that the server still knows."
    ]
  },
  resources: { usage: "mcpctl resources [SERVER…] [options]", example: "mcpctl resources --config examples/settings.json" },
  read: { usage: "mcpctl read SERVER URI [--out FILE] [options]", example: "mcpctl read everything demo://resource/static/document/architecture.md" },
  prompts: { usage: "mcpctl prompts [SERVER…] [options]", example: "mcpctl prompts --config examples/settings.json" },
  prompt: { usage: "mcpctl prompt SERVER NAME [key=value…] [options]", example: "mcpctl prompt everything simple-prompt" },
  complete: {
    usage: "mcpctl complete SERVER (prompt NAME | resource URI_TEMPLATE) ARG [PREFIX] [--context K=V…] [options]",
    example: "mcpctl complete everything prompt args-prompt city Par"
  },
  skills: { usage: "mcpctl skills [SERVER…] [options]", example: "mcpctl skills" },
  skill: { usage: "mcpctl skill SERVER NAME [FILE] [options]", example: "mcpctl skill docs writing-style" },
  add: {
    usage: "mcpctl add NAME [options] -- COMMAND ARGS…   or   mcpctl add NAME URL [options]",
    example: "mcpctl add fs -- npx -y @modelcontextprotocol/server-filesystem ~/src",
    notes: [scopeNote]
  },
  remove: { usage: "mcpctl remove NAME [--scope SCOPE]", example: "mcpctl remove fs", notes: [scopeNote] },
  get: { usage: "mcpctl get NAME [options]", example: "mcpctl get api" },
  import: {
    usage: "mcpctl import --from HOST [FILE] [options]",
    example: "mcpctl import --from claude-desktop --dry-run",
    notes: [scopeNote]
  },
  config: { usage: "mcpctl config explain [SERVER] [options]", example: "mcpctl config explain api" },
  trust: {
    usage: "mcpctl trust SERVER [TOOL] [options]   or   mcpctl trust --project [DIR] [--revoke]",
    example: "mcpctl trust everything --config examples/settings.json"
  },
  serve: {
    usage: "mcpctl serve [--http [HOST:]PORT | --socket PATH] [options]",
    example: "mcpctl serve --config examples/settings.json   (an MCP server on stdin/stdout)"
  },
  daemon: { usage: "mcpctl daemon start|status|stop [options]", example: "mcpctl daemon start" },
  auth: { usage: "mcpctl auth [NAME] [options]", example: "mcpctl auth api" },
  logout: { usage: "mcpctl logout NAME", example: "mcpctl logout api" },
  completion: {
    usage: "mcpctl completion bash|zsh|fish",
    example: "source <(mcpctl completion bash)",
    notes: ["Add that line to ~/.bashrc (zsh: ~/.zshrc; fish: mcpctl completion fish > ~/.config/fish/completions/mcpctl.fish)."]
  }
}

/** The flags most commands share, described once in `mcpctl --help`. */
export const commonFlags: ReadonlyArray<readonly [string, string]> = [
  ["--json", "One JSON document on stdout; messages and progress go to stderr"],
  ["--config FILE", "A settings file on top of the user/project/local scopes (repeatable; any host's format)"],
  ["--cwd DIR", "The project directory (default: the current directory)"],
  ["--log-level LEVEL", "Server log messages at LEVEL and above on stderr (default: warning)"],
  ["--no-daemon", "Run in this process even when `mcpctl daemon` is running"],
  ["--protocol auto|modern|legacy", "The protocol era of every server for this run (default: auto)"],
  ["--url URL, --stdio COMMAND", "One ad-hoc server for this run only, never saved"],
  ["-h, --help / --version", "This help, a command's help; the version"]
]

/** Options shown once in `mcpctl --help`, not again under each command. */
const shared = new Set(["--json", "--config", "--cwd", "--log-level", "--protocol"])
/** The ad-hoc server's options: shared only where `--stdio` is (add's `--transport`/`--header` mean something else). */
const adhoc = new Set(["--url", "--transport", "--header", "--stdio", "--name"])
const isShared = (command: CommandDoc) => {
  const hasAdhoc = command.options.some((o) => o.name === "--stdio")
  return (o: OptionDoc) => shared.has(o.name) || (hasAdhoc && adhoc.has(o.name))
}

const examples: ReadonlyArray<readonly [string, string]> = [
  ["mcpctl tools --config examples/settings.json", "every tool of every server"],
  ["mcpctl call mcp__everything__get-sum a=2 b=40", "run one tool"],
  ["mcpctl call mcp__everything__get-sum --help", "that tool's parameters"],
  ["mcpctl add fs -- npx -y @modelcontextprotocol/server-filesystem ~/src", "save a server"],
  ["mcpctl serve", "all your servers as one MCP server on stdio"]
]

/** Two columns, the second wrapped to `width` (pure). */
const columns = (rows: ReadonlyArray<readonly [string, string]>, width = 100): string => {
  const left = Math.min(32, Math.max(...rows.map(([a]) => a.length)))
  return rows.map(([a, b]) => {
    const lines = wrap(b, width - left - 4)
    const head = a.length > left ? `  ${a}\n  ${" ".repeat(left)}  ` : `  ${a.padEnd(left)}  `
    return head + lines.join(`\n  ${" ".repeat(left)}  `)
  }).join("\n")
}

/** Words of `text` in lines of at most `width` characters (a longer word stands alone). */
export const wrap = (text: string, width: number): Array<string> => {
  const lines: Array<string> = []
  let line = ""
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else line = line ? `${line} ${word}` : word
  }
  if (line) lines.push(line)
  return lines.length > 0 ? lines : [""]
}

const firstSentence = (description: string) => description.split(/(?<=\.) /)[0]!.replace(/\.$/, "")

/** `mcpctl --help`. */
export const rootHelp = (root: CommandDoc, version: string): string => {
  const byName = new Map(root.subcommands.map((c) => [c.name, c]))
  const placed = new Set(groups.flatMap(([, names]) => names))
  const more = root.subcommands.filter((c) => !placed.has(c.name) && !c.name.startsWith("__")).map((c) => c.name)
  const sections = [...groups, ...(more.length > 0 ? [["More", more] as const] : [])].map(([title, names]) => {
    const rows = names.flatMap((n) => {
      const c = byName.get(n)
      return c ? [[c.subcommands.length > 0 ? `${n} ${c.subcommands.map((s) => s.name).join("|")}` : n, firstSentence(c.description)] as const] : []
    })
    return rows.length === 0 ? "" : `${title}:\n${columns(rows)}\n`
  }).filter(Boolean)
  return [
    `mcpctl ${version}: an MCP client host. Connect to MCP servers, list and call their tools.\n`,
    "Usage: mcpctl COMMAND [options]\n",
    ...sections,
    `Common options (most commands):\n${columns(commonFlags)}\n`,
    `Examples:\n${examples.map(([c, w]) => `  ${c}   # ${w}`).join("\n")}\n`,
    "`mcpctl COMMAND --help` describes a command; the full reference is docs/CLI.md, section Commands."
  ].join("\n")
}

const optionRow = (o: OptionDoc): readonly [string, string] => {
  const names = [...o.aliases, o.name].join(", ")
  const value = o.value === undefined ? "" : ` ${o.value}`
  return [`${names}${value}`, `${o.description}${o.repeated && !o.description.includes("repeatable") ? " (repeatable)" : ""}`]
}

/** How an argument is named in help: `<name>` of call is the TOOL its usage line says. */
const argName = (name: string, command = "") =>
  command === "call" && name === "<name>" ? "TOOL" : name.replace(/^<|>$/g, "").toUpperCase()

/** `mcpctl COMMAND --help`; `path` is `["config", "explain"]` for a subcommand. */
export const commandHelp = (command: CommandDoc, path: ReadonlyArray<string>): string => {
  const extra = extras[path[0]!]
  const common = isShared(command)
  const own = command.options.filter((o) => !common(o))
  const sharedHere = [...new Set(command.options.filter(common).map((o) => (adhoc.has(o.name) ? "--url/--stdio" : o.name)))]
  const args = command.args.filter((a) => a.description !== "")
  const usage = path.length === 1 && extra
    ? extra.usage
    : `mcpctl ${path.join(" ")}${command.subcommands.length > 0 ? " COMMAND" : ""}${command.args.map((a) => ` ${a.optional ? "[" : ""}${argName(a.name)}${a.repeated ? "…" : ""}${a.optional ? "]" : ""}`).join("")}${command.options.length > 0 ? " [options]" : ""}`
  const parts = [
    `mcpctl ${path.join(" ")}: ${command.description}\n`,
    `Usage: ${usage}\n`
  ]
  if (command.subcommands.length > 0) {
    parts.push(`Commands:\n${columns(command.subcommands.map((s) => [s.name, firstSentence(s.description)]))}\n`)
  }
  if (args.length > 0) parts.push(`Arguments:\n${columns(args.map((a) => [argName(a.name, path[0]), a.description]))}\n`)
  if (own.length > 0) parts.push(`Options:\n${columns(own.map(optionRow))}\n`)
  if (sharedHere.length > 0) {
    const names = sharedHere.map((n) => commonFlags.find(([c]) => c.startsWith(n))?.[0] ?? n).join(", ")
    parts.push(`${wrap(`Common options: ${names} (\`mcpctl --help\` describes them).`, 100).join("\n")}\n`)
  }
  for (const note of path.length === 1 ? extra?.notes ?? [] : []) parts.push(`${wrap(note, 100).join("\n")}\n`)
  if (extra && path.length === 1) parts.push(`Example:\n  ${extra.example}\n`)
  if (command.subcommands.length > 0) parts.push(`\`mcpctl ${path.join(" ")} COMMAND --help\` describes each.\n`)
  return parts.join("\n").trimEnd()
}

/** The help a command line asks for: its command path (`[]` for mcpctl itself), or undefined. */
export const helpRequest = (args: ReadonlyArray<string>, root: CommandDoc | (() => CommandDoc)): ReadonlyArray<string> | undefined => {
  const end = args.indexOf("--")
  const before = end < 0 ? args : args.slice(0, end)
  if (!before.some((a) => a === "--help" || a === "-h")) return undefined
  const path: Array<string> = []
  let node: CommandDoc | undefined = typeof root === "function" ? root() : root
  for (const word of before) {
    if (word.startsWith("-")) continue
    const sub: CommandDoc | undefined = node.subcommands.find((c) => c.name === word)
    if (!sub) break
    path.push(word)
    node = sub
  }
  return path
}

/** The command at `path`, or undefined. */
export const commandAt = (root: CommandDoc, path: ReadonlyArray<string>): CommandDoc | undefined =>
  path.reduce<CommandDoc | undefined>((node, word) => node?.subcommands.find((c) => c.name === word), root)
