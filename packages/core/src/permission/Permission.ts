/**
 * Whether a tool call may run: allow / ask / deny rules from every settings scope, and a
 * `Prompter` port for the "ask" case so the same decision logic serves the interactive CLI,
 * `--yes`, scripts without a terminal, `serve` and tests. Persisting an "always" answer goes
 * through the `RuleWriter` port, so this module never touches settings files.
 *
 * This module is the tags, their types and layers; the implementation is
 * `internal/permission/permission.ts` (the rule logic: `rules.ts`, the terminal prompt:
 * `prompt.ts`, folded names: `NameFold.ts`).
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { McpConfig } from "../config/McpConfig.js"
import type { PermissionRules } from "../config/ServerConfig.js"
import type { ConfigError, PermissionDenied } from "../Errors.js"
import * as internal from "../internal/permission/permission.js"
import * as prompt from "../internal/permission/prompt.js"
import * as rules from "../internal/permission/rules.js"

// ---------------------------------------------------------------------------------------------
// Pure rule logic (`internal/permission/rules.ts`)
// ---------------------------------------------------------------------------------------------

/**
 * What happens to a call; `ask` is also the answer when no rule matches.
 * @since 0.1.0
 */
export type Behavior = rules.Behavior

/**
 * A behavior and the rule that produced it, so messages and `tools --json` can name the rule.
 * @since 0.1.0
 */
export type Decision = rules.Decision

/**
 * One rule against one fully-qualified tool name. Supports the three documented forms
 * (`mcp__<server>`, `mcp__<server>__*`, `mcp__<server>__<tool>`) plus a trailing `*` that matches
 * any rest of the name (`mcp__fs__read*`). Matching is exact otherwise: rules are written by
 * people, and a rule that silently matched more than it says would be a security surprise.
 * @since 0.1.0
 */
export const ruleMatches: (rule: string, toolName: string) => boolean = rules.ruleMatches

/**
 * Which tool a name stands for: its server and the tool's own name, as the server spells it.
 * @since 0.1.0
 */
export type ToolIdentity = rules.ToolIdentity

/**
 * A deny rule against a tool by folded names (`NameFold`): case, separators, invisible
 * characters and look-alike letters do not escape it. `mcp__fs__` (a trailing `__`) denies the
 * whole server, as its writer meant.
 * @since 0.1.0
 */
export const denyMatchesFolded: (rule: string, identity: ToolIdentity) => boolean = rules.denyMatchesFolded

/**
 * The documented precedence: any matching deny beats any matching ask beats any matching allow,
 * whatever scope each came from; no match means ask. Order within a list does not matter. A
 * project's own allow rules (`projectAllow`) approve only the project's servers.
 *
 * With the tool's identity, rules also match its full unshortened name (a rule written from a
 * 70-character name still matches the 64-character one), and deny rules match look-alikes.
 * @since 0.1.0
 */
export const decide: (rules: PermissionRules, toolName: string, identity?: ToolIdentity) => Decision = rules.decide

/**
 * The deny rule that covers every tool of `server`, if one does (`mcp__<server>`,
 * `mcp__<server>__*`, `mcp__*`, look-alikes folded): such a server's resources and prompts are
 * not used either.
 * @since 0.1.0
 */
export const serverDenyRule: (rules: PermissionRules, server: string) => string | undefined = rules.serverDenyRule

// ---------------------------------------------------------------------------------------------
// Ports
// ---------------------------------------------------------------------------------------------

/**
 * What a server says about a tool; shown when asking, never trusted to decide anything.
 * @since 0.1.0
 */
export type ToolAnnotations = prompt.ToolAnnotations

/**
 * Everything a person needs to judge one call.
 * @since 0.1.0
 */
export type PermissionRequest = prompt.PermissionRequest

/**
 * A person's answer. `unavailable` means nobody could be asked (no terminal, stdin closed): the
 * call then fails with a message naming the rule to add, instead of a bare "no".
 * @since 0.1.0
 */
export type PromptAnswer = prompt.PromptAnswer

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
    ask: (request) => prompt.askOnTerminal(request, process.stdin, process.stderr)
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
    Effect.map(McpConfig, (config) => ({ allowAlways: internal.allowInLocalSettings(config) }))
  )
}

// ---------------------------------------------------------------------------------------------
// Terminal prompt (`internal/permission/prompt.ts`)
// ---------------------------------------------------------------------------------------------

/**
 * The text shown before asking: tool, server, annotations and arguments, all escaped. Exported so
 * other front ends (and tests) show the same thing.
 * @since 0.1.0
 */
export const renderRequest: (request: PermissionRequest) => string = prompt.renderRequest

/**
 * The terminal prompt over any pair of streams, so it can be driven by tests or by an embedding
 * application's own TTY. Ctrl-C is re-raised as SIGINT; end of input answers `unavailable`.
 * @since 0.1.0
 */
export const askOnTerminal: (
  request: PermissionRequest,
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream
) => Effect.Effect<PromptAnswer> = prompt.askOnTerminal

// ---------------------------------------------------------------------------------------------
// Service
// ---------------------------------------------------------------------------------------------

/**
 * Where "always" answers go and where the user is told to add allow rules.
 * @since 0.1.0
 */
export const LOCAL_SETTINGS_FILE: ".mcpctl/settings.local.json" = internal.LOCAL_SETTINGS_FILE

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
 * Builds the service from the merged rules, a prompter and a rule writer (the implementation:
 * `internal/permission/permission.ts`).
 * @since 0.1.0
 */
export const make: Effect.Effect<Permission["Type"], never, McpConfig | Prompter | RuleWriter> = Effect.flatMap(
  Effect.all([McpConfig, Prompter, RuleWriter]),
  ([config, prompter, writer]) => internal.make(config.permissions, prompter, writer)
)
