/**
 * Whether a tool call may run: allow / ask / deny rules from every settings scope, and a
 * `Prompter` port for the "ask" case so the same decision logic serves the interactive CLI,
 * `--yes`, scripts without a terminal, `serve` and tests. Persisting an "always" answer goes
 * through the `RuleWriter` port, so this module never touches settings files.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as readline from "node:readline"
import { McpConfig } from "../config/McpConfig.js"
import { type PermissionRules } from "../config/ServerConfig.js"
import { addPermissionRule } from "../internal/config/SettingsFile.js"
import { scopeFile } from "../internal/config/SettingsLoad.js"
import { keepingTrust } from "../internal/config/ProjectTrust.js"
import { type ConfigError, PermissionDenied } from "../Errors.js"
import { fullToolName, PREFIX, SEPARATOR } from "../internal/Naming.js"
import { sanitize } from "../internal/Sanitize.js"
import { foldedEquals, foldedStartsWith } from "../internal/permission/NameFold.js"

// ---------------------------------------------------------------------------------------------
// Pure rule logic
// ---------------------------------------------------------------------------------------------

/**
 * What happens to a call; `ask` is also the answer when no rule matches.
 * @since 0.1.0
 */
export type Behavior = "allow" | "ask" | "deny"

/**
 * A behavior and the rule that produced it, so messages and `tools --json` can name the rule.
 * @since 0.1.0
 */
export interface Decision {
  readonly behavior: Behavior
  /** The matching rule; undefined when no rule matched (the default ask). */
  readonly rule: string | undefined
}

/**
 * One rule against one fully-qualified tool name. Supports the three documented forms
 * (`mcp__<server>`, `mcp__<server>__*`, `mcp__<server>__<tool>`) plus a trailing `*` that matches
 * any rest of the name (`mcp__fs__read*`). Matching is exact otherwise: rules are written by
 * people, and a rule that silently matched more than it says would be a security surprise.
 * @since 0.1.0
 */
export const ruleMatches = (rule: string, toolName: string): boolean => {
  if (rule.endsWith("*")) return toolName.startsWith(rule.slice(0, -1))
  if (rule === toolName) return true
  // `mcp__<server>`: a rule without a tool part covers every tool of that server.
  if (rule.startsWith(PREFIX) && rule.length > PREFIX.length && !rule.slice(PREFIX.length).includes(SEPARATOR)) {
    return toolName.startsWith(rule + SEPARATOR)
  }
  return false
}

/**
 * Which tool a name stands for: its server and the tool's own name, as the server spells it.
 * @since 0.1.0
 */
export interface ToolIdentity {
  readonly server: string
  readonly tool: string
}

/**
 * A deny rule against a tool by folded names (`NameFold`): case, separators, invisible
 * characters and look-alike letters do not escape it. `mcp__fs__` (a trailing `__`) denies the
 * whole server, as its writer meant.
 * @since 0.1.0
 */
export const denyMatchesFolded = (rule: string, identity: ToolIdentity): boolean => {
  if (!rule.startsWith(PREFIX)) return false
  const rest = rule.slice(PREFIX.length)
  const wildcard = rest.endsWith("*")
  const body = wildcard ? rest.slice(0, -1) : rest
  const at = body.indexOf(SEPARATOR)
  if (at < 0) {
    // `mcp__<server>` (whole server) or `mcp__<prefix>*` (servers by prefix)
    return wildcard ? foldedStartsWith(identity.server, body) : foldedEquals(body, identity.server)
  }
  const server = body.slice(0, at), tool = body.slice(at + SEPARATOR.length)
  if (!foldedEquals(server, identity.server)) return false
  if (tool === "") return true
  return wildcard ? foldedStartsWith(identity.tool, tool) : foldedEquals(tool, identity.tool)
}

/** The `<server>` of `mcp__<server>__<tool>`, if the name has that form. */
const serverOf = (toolName: string): string | undefined => {
  if (!toolName.startsWith(PREFIX)) return undefined
  const at = toolName.indexOf(SEPARATOR, PREFIX.length)
  return at < 0 ? undefined : toolName.slice(PREFIX.length, at)
}

/**
 * The documented precedence: any matching deny beats any matching ask beats any matching allow,
 * whatever scope each came from; no match means ask. Order within a list does not matter. A
 * project's own allow rules (`projectAllow`) approve only the project's servers.
 *
 * With the tool's identity, rules also match its full unshortened name (a rule written from a
 * 70-character name still matches the 64-character one), and deny rules match look-alikes.
 * @since 0.1.0
 */
export const decide = (rules: PermissionRules, toolName: string, identity?: ToolIdentity): Decision => {
  const names = identity ? [toolName, fullToolName(identity.server, identity.tool)] : [toolName]
  const matches = (rule: string) => names.some((name) => ruleMatches(rule, name))
  const deny = rules.deny.find((rule) => matches(rule) || (identity !== undefined && denyMatchesFolded(rule, identity)))
  if (deny !== undefined) return { behavior: "deny", rule: deny }
  const ask = rules.ask.find(matches)
  if (ask !== undefined) return { behavior: "ask", rule: ask }
  const server = identity?.server ?? serverOf(toolName)
  const projectServer = server !== undefined && rules.projectServers?.includes(server) === true
  const allow = rules.allow.find((rule) => matches(rule) && (projectServer || rules.projectAllow?.includes(rule) !== true))
  if (allow !== undefined) return { behavior: "allow", rule: allow }
  return { behavior: "ask", rule: undefined }
}

/**
 * The deny rule that covers every tool of `server`, if one does (`mcp__<server>`,
 * `mcp__<server>__*`, `mcp__*`, look-alikes folded): such a server's resources and prompts are
 * not used either.
 * @since 0.1.0
 */
export const serverDenyRule = (rules: PermissionRules, server: string): string | undefined =>
  rules.deny.find((rule) => coversServer(rule, server))

const coversServer = (rule: string, server: string): boolean => {
  if (rule === "*") return true
  if (!rule.startsWith(PREFIX)) return false
  const rest = rule.slice(PREFIX.length)
  if (rest.endsWith("*")) {
    const body = rest.slice(0, -1)
    const at = body.indexOf(SEPARATOR)
    // `mcp__*`, `mcp__f*`: every server whose name starts so
    if (at < 0) return foldedStartsWith(server, body)
    // `mcp__fs__*`: the whole server only when nothing follows the separator
    return body.slice(at + SEPARATOR.length) === "" && foldedEquals(body.slice(0, at), server)
  }
  const body = rest.endsWith(SEPARATOR) ? rest.slice(0, -SEPARATOR.length) : rest
  return !body.includes(SEPARATOR) && foldedEquals(body, server)
}

// ---------------------------------------------------------------------------------------------
// Ports
// ---------------------------------------------------------------------------------------------

/**
 * What a server says about a tool; shown when asking, never trusted to decide anything.
 * @since 0.1.0
 */
export interface ToolAnnotations {
  readonly readOnly?: boolean | undefined
  readonly destructive?: boolean | undefined
  readonly openWorld?: boolean | undefined
  readonly title?: string | undefined
}

/**
 * Everything a person needs to judge one call.
 * @since 0.1.0
 */
export interface PermissionRequest {
  /** Fully-qualified name, `mcp__<server>__<tool>`: what rules match against. */
  readonly tool: string
  readonly server: string
  /** The tool's name as the server spells it. */
  readonly toolName: string
  readonly annotations: ToolAnnotations
  readonly args: unknown
}

/**
 * A person's answer. `unavailable` means nobody could be asked (no terminal, stdin closed): the
 * call then fails with a message naming the rule to add, instead of a bare "no".
 * @since 0.1.0
 */
export type PromptAnswer = "once" | "always" | "no" | "unavailable"

/**
 * Asks a person about one call. A port because how to ask depends on where we run (terminal,
 * `--yes`, a script, an embedding application); the CLI picks the layer, not this module.
 * @since 0.1.0
 */
export class Prompter extends Context.Tag("@mcpctl/core/Prompter")<
  Prompter,
  {
    readonly ask: (request: PermissionRequest) => Effect.Effect<PromptAnswer>
  }
>() {
  /** No terminal (scripts, `--json`, CI): nobody can answer, so an ask fails with the rule to add. */
  static layerNone: Layer.Layer<Prompter> = Layer.succeed(this, { ask: () => Effect.succeed("unavailable") })

  /** `--yes`: approves every ask for this call only; deny rules still win (they never reach the prompter). */
  static layerYes: Layer.Layer<Prompter> = Layer.succeed(this, { ask: () => Effect.succeed("once") })

  /**
   * Interactive y/a/n on stderr/stdin, so stdout stays clean for `--json`-style piping. Use only
   * when stdin and stderr are TTYs; the CLI checks, this layer does not.
   */
  static layerTerminal: Layer.Layer<Prompter> = Layer.sync(this, () => ({
    ask: (request) => askOnTerminal(request, process.stdin, process.stderr)
  }))
}

/**
 * Persists an "always" answer as an allow rule in the local scope
 * (`.mcpctl/settings.local.json`). A port so Permission stays free of file handling;
 * `layerLocalSettings` backs it with the settings editor (comments kept, atomic writes).
 * @since 0.1.0
 */
export class RuleWriter extends Context.Tag("@mcpctl/core/RuleWriter")<
  RuleWriter,
  {
    readonly allowAlways: (rule: string) => Effect.Effect<void, ConfigError>
  }
>() {
  /** For tests and library users without settings files: "always" lasts for this session only. */
  static layerNoop: Layer.Layer<RuleWriter> = Layer.succeed(this, { allowAlways: () => Effect.void })

  /** "Always" answers become allow rules in the project's local settings file (what the CLI uses). */
  static layerLocalSettings: Layer.Layer<RuleWriter, never, McpConfig> = Layer.effect(
    this,
    Effect.map(McpConfig, (config) => ({
      // An "always" answer the user gave keeps a trusted project trusted (its hash moves with the edit).
      allowAlways: (rule: string) =>
        keepingTrust(config.home, config.projectDir, addPermissionRule(scopeFile("local", config.projectDir, config.home), "allow", rule))
    }))
  )
}

// ---------------------------------------------------------------------------------------------
// Terminal prompt
// ---------------------------------------------------------------------------------------------

/** Arguments beyond this are cut in the prompt: a person cannot judge 1 MB of JSON anyway. */
const MAX_PROMPT_ARGS_CHARS = 4000
const MAX_PROMPT_ARGS_LINES = 60

/**
 * Server-provided text (titles) and arguments may carry terminal escapes that could redraw the
 * prompt and make a destructive call look harmless: shown visibly (`Sanitize`), one line each
 * for the names and the title so none can forge another line of the prompt.
 */
const line = (text: string): string => sanitize(text).replace(/\n/g, "\\x0a")

const prettyArgs = (args: unknown): string => {
  let text: string
  try {
    text = args === undefined ? "{}" : (JSON.stringify(args, null, 2) ?? String(args))
  } catch {
    text = String(args)
  }
  const lines = text.split("\n")
  let shown = lines.length > MAX_PROMPT_ARGS_LINES ? lines.slice(0, MAX_PROMPT_ARGS_LINES).join("\n") : text
  if (shown.length > MAX_PROMPT_ARGS_CHARS) shown = shown.slice(0, MAX_PROMPT_ARGS_CHARS)
  const hidden = text.length - shown.length
  return hidden > 0 ? `${shown}\n… (${hidden} more characters not shown)` : shown
}

/**
 * The text shown before asking: tool, server, annotations and arguments, all escaped. Exported so
 * other front ends (and tests) show the same thing.
 * @since 0.1.0
 */
export const renderRequest = (request: PermissionRequest): string => {
  const { annotations: a } = request
  const traits = [
    a.readOnly === true ? "read-only" : undefined,
    a.destructive === true ? "destructive" : undefined,
    a.openWorld === true ? "open-world" : undefined
  ].filter((t): t is string => t !== undefined)
  const indent = (text: string) => text.split("\n").map((l) => `    ${l}`).join("\n")
  return [
    `Allow ${line(request.tool)}?`,
    `  server:      ${line(request.server)}`,
    `  tool:        ${line(request.toolName)}${a.title ? ` (${line(a.title)})` : ""}`,
    `  annotations: ${traits.length > 0 ? traits.join(", ") : "none"}`,
    `  arguments:`,
    indent(sanitize(prettyArgs(request.args)))
  ].join("\n")
}

/** Maps typed answers; anything else asks again. Empty is "no" so a stray Enter never approves. */
const parseAnswer = (line: string): "once" | "always" | "no" | undefined => {
  switch (line.trim().toLowerCase()) {
    case "y":
    case "yes":
    case "once":
      return "once"
    case "a":
    case "always":
      return "always"
    case "":
    case "n":
    case "no":
      return "no"
    default:
      return undefined
  }
}

/**
 * The terminal prompt over any pair of streams, so it can be driven by tests or by an embedding
 * application's own TTY. Ctrl-C is re-raised as SIGINT; end of input answers `unavailable`.
 * @since 0.1.0
 */
export const askOnTerminal = (
  request: PermissionRequest,
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream
): Effect.Effect<PromptAnswer> =>
  Effect.async<PromptAnswer>((resume) => {
    const rl = readline.createInterface({ input, output, terminal: true })
    let done = false
    const finish = (answer: PromptAnswer) => {
      if (done) return
      done = true
      rl.close()
      resume(Effect.succeed(answer))
    }
    // readline swallows Ctrl-C on a TTY; re-raise it so the runtime's normal shutdown runs.
    rl.on("SIGINT", () => {
      done = true
      rl.close()
      process.kill(process.pid, "SIGINT")
    })
    // stdin ended (EOF, Ctrl-D): nobody can answer.
    rl.on("close", () => finish("unavailable"))
    output.write(`${renderRequest(request)}\n`)
    const ask = () =>
      rl.question("[y] once  [a] always  [n] no > ", (line) => {
        const answer = parseAnswer(line)
        if (answer === undefined) {
          output.write("Please answer y (once), a (always) or n (no).\n")
          ask()
        } else {
          finish(answer)
        }
      })
    ask()
    return Effect.sync(() => {
      done = true
      rl.close()
    })
  })

// ---------------------------------------------------------------------------------------------
// Service
// ---------------------------------------------------------------------------------------------

/**
 * Where "always" answers go and where the user is told to add allow rules.
 * @since 0.1.0
 */
export const LOCAL_SETTINGS_FILE = ".mcpctl/settings.local.json"

/**
 * The gate every tool call passes through (CLI `call`, `serve`, library users). Deny rules are
 * absolute: no prompter answer, `--yes` or session approval can override them.
 * @since 0.1.0
 */
export class Permission extends Context.Tag("@mcpctl/core/Permission")<
  Permission,
  {
    /**
     * The current decision for a fully-qualified name, including tools approved "always" in this
     * session; synchronous so catalogues (`tools --json`) can show it per tool cheaply.
     */
    readonly decide: (toolName: string, identity?: ToolIdentity) => Decision
    /** The deny rule that covers all of `server` (its resources and prompts too), if any. */
    readonly serverDenied: (server: string) => string | undefined
    /** Succeeds when the call may run; asks through the Prompter when the rules say ask. */
    readonly authorize: (request: PermissionRequest) => Effect.Effect<void, PermissionDenied | ConfigError>
  }
>() {
  /** Rules from McpConfig, asking through Prompter, persisting "always" through RuleWriter. */
  static layer: Layer.Layer<Permission, never, McpConfig | Prompter | RuleWriter> = Layer.effect(
    this,
    Effect.suspend(() => make)
  )

  /**
   * No checks at all, not even deny rules: for embedding applications that do their own
   * authorization, and tests of other services. Never used by the CLI.
   */
  static layerAllowAll: Layer.Layer<Permission> = Layer.succeed(this, {
    decide: () => ({ behavior: "allow", rule: undefined }),
    serverDenied: () => undefined,
    authorize: () => Effect.void
  })
}

/**
 * Builds the service from the merged rules, a prompter and a rule writer.
 * @since 0.1.0
 */
export const make: Effect.Effect<Permission["Type"], never, McpConfig | Prompter | RuleWriter> = Effect.gen(
  function*() {
    const config = yield* McpConfig
    const prompter = yield* Prompter
    const writer = yield* RuleWriter
    const rules = config.permissions
    // The files that hold a rule, for messages that say where to edit it.
    const whereIs = (list: "ask" | "deny", rule: string | undefined): string => {
      const files = rule === undefined ? undefined : rules.sources?.[list]?.[rule]
      return files && files.length > 0 ? files.join(" and ") : "your settings"
    }
    // Tools approved "always" during this session: the rule file is only re-read on the next run.
    const approved = new Set<string>()
    // One question at a time: concurrent calls (serve, parallel tools) must not interleave prompts,
    // and a second call to the same tool should see the first one's "always".
    const promptLock = yield* Effect.makeSemaphore(1)

    const decideNow = (toolName: string, identity?: ToolIdentity): Decision => {
      const decision = decide(rules, toolName, identity)
      return decision.behavior === "ask" && approved.has(toolName)
        ? { behavior: "allow", rule: toolName }
        : decision
    }

    const ask = Effect.fn("Permission.ask")(function*(request: PermissionRequest, rule: string | undefined) {
      if (approved.has(request.tool)) return
      const answer = yield* prompter.ask(request)
      yield* Effect.annotateCurrentSpan("answer", answer)
      switch (answer) {
        case "once":
          return
        case "always":
          // Under an explicit ask rule an allow rule could never win (ask beats allow), so it is
          // not written: the approval lasts for this session only.
          if (rule === undefined) yield* writer.allowAlways(request.tool)
          approved.add(request.tool)
          return
        case "no":
        // A prompter written in JavaScript can answer anything: what is not an approval denies.
        default:
          return yield* new PermissionDenied({
            message: `${request.tool} was not approved. To allow it without asking, add "${request.tool}" ` +
              `to permissions.allow in ${LOCAL_SETTINGS_FILE}`,
            tool: request.tool,
            rule: request.tool,
            behavior: "ask",
            ...(rule !== undefined ? { askRule: rule } : {})
          })
        case "unavailable":
          return yield* new PermissionDenied(
            rule === undefined
              ? {
                message: `${request.tool} needs approval: run on a terminal, pass --yes, or add "${request.tool}" ` +
                  `to permissions.allow in ${LOCAL_SETTINGS_FILE}`,
                tool: request.tool,
                rule: request.tool,
                behavior: "ask"
              }
              : {
                // An explicit ask rule beats allow rules, so adding one would not help.
                message: `${request.tool} needs approval (rule "${rule}" in permissions.ask of ${whereIs("ask", rule)}): ` +
                  `run on a terminal or pass --yes, or remove that ask rule`,
                tool: request.tool,
                rule,
                behavior: "ask",
                askRule: rule
              }
          )
      }
    })

    // On every call's path, so untraced (a span here cost 25-40 µs a call; `ToolRegistry.call`
    // has the call's span) and without a generator.
    const authorize = (request: PermissionRequest): Effect.Effect<void, PermissionDenied | ConfigError> => {
      const decision = decideNow(request.tool, { server: request.server, tool: request.toolName })
      switch (decision.behavior) {
        case "allow":
          return Effect.void
        case "deny":
          return Effect.fail(
            new PermissionDenied({
              message: `${request.tool} is denied by rule "${decision.rule}" in permissions.deny of ${
                whereIs("deny", decision.rule)
              }; remove that rule to allow it`,
              tool: request.tool,
              rule: decision.rule ?? request.tool,
              behavior: "deny"
            })
          )
        case "ask":
          return promptLock.withPermits(1)(ask(request, decision.rule))
      }
    }

    return Permission.of({ decide: decideNow, serverDenied: (server) => serverDenyRule(rules, server), authorize })
  }
)
