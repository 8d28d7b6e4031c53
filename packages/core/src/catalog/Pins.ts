/**
 * Pinned tool definitions, against "rug pulls": a server that changes a tool's description or
 * schema after the user approved it. The first time mcpctl sees a tool it records a hash of its
 * definition (name, title, description, input and output schema, annotations) in the pin file of
 * the server's identity (`internal/ServerIdentity.ts`: its URL, or what is started: command,
 * arguments, working directory, the settings' env), `$MCPCTL_HOME/pins/<sha256>.json`
 * (`internal/PinFiles.ts`), so renaming a server keeps its pins, pointing a name at another server
 * does not inherit them, and a run reads only the servers it lists.
 * A later definition that differs is `changed`: listed with that mark, hidden by `serve`, refused
 * by `call` (exit 3) with what changed, until `mcpctl trust SERVER [TOOL]` accepts it. Tools that
 * appear on a server pinned before are `new` until trusted, and run by the ordinary rules.
 *
 * The pure parts (hash, store updates, the diff) are plain functions; the `Pins` service keeps
 * the pins of the servers it has seen in memory, so checking a call is a map lookup, reads a
 * server's file again only when its stamp changed, and writes it through `JsonStore`. This module
 * is the tag, its types and layers; the implementation is `internal/catalog/pins.ts`.
 */
import type { Tool } from "@modelcontextprotocol/client"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import type { McpConfig } from "../config/McpConfig.js"
import type { ResolvedServer } from "../config/ServerConfig.js"
import type { ConfigError } from "../Errors.js"
import type * as PinFiles from "../internal/catalog/PinFiles.js"
import * as internal from "../internal/catalog/pins.js"

// ---------------------------------------------------------------------------------------------
// Definitions, hashes, one server's pins and what changed (pure; `internal/catalog/pins.ts`)

/**
 * The parts of a tool definition that pinning covers (the name is the key it is stored under).
 * @since 0.1.0
 */
export type PinnedDefinition = PinFiles.PinnedDefinition

/**
 * The pinned parts of a server's tool definition, as it sent them (descriptions uncut).
 * @since 0.1.0
 */
export const definitionOf: (tool: Tool) => PinnedDefinition = internal.definitionOf

/**
 * JSON with object keys sorted at every level, so equal definitions hash equally whatever the key order.
 * @since 0.1.0
 */
export const canonicalJson: (value: unknown) => string = internal.canonicalJson

/**
 * sha256 (hex) of a tool's name and pinned parts.
 * @since 0.1.0
 */
export const definitionHash: (tool: Tool) => string = internal.definitionHash

/**
 * One pinned tool.
 * @since 0.1.0
 */
export type PinEntry = PinFiles.PinEntry

/**
 * One server's pins.
 * @since 0.1.0
 */
export type ServerPins = PinFiles.ServerPins

/**
 * What pinning says of one tool: as pinned, new since, changed since, or not pinned at all.
 * @since 0.1.0
 */
export type PinState = internal.PinState

/**
 * The state of a definition (by hash) against a server's pins. Unknown tools are `new`: they are about to be recorded.
 * @since 0.1.0
 */
export const stateIn: (pins: ServerPins | undefined, tool: string, hash: string) => PinState = internal.stateIn

/**
 * A definition to record: the server's tool name, its hash and pinned parts.
 * @since 0.1.0
 */
export type Seen = internal.Seen

/** @since 0.1.0 */
export const seenOf: (tool: Tool) => Seen = internal.seenOf

/**
 * Records what was never seen: every tool of a server seen for the first time (pinned as is),
 * tools that appeared since (pinned, marked `new`). Changed definitions are left as pinned: only
 * `trust` replaces them. Returns the same object when nothing was added.
 * @since 0.1.0
 */
export const observeIn: (
  pins: ServerPins | undefined,
  server: string,
  tools: ReadonlyArray<Seen>,
  now: number
) => ServerPins | undefined = internal.observeIn

/**
 * Accepts the given definitions as they are now (changed ones replaced, `new` marks cleared).
 * @since 0.1.0
 */
export const trustIn: (pins: ServerPins | undefined, server: string, tools: ReadonlyArray<Seen>, now: number) => ServerPins =
  internal.trustIn

/**
 * One part of a definition that differs from its pin, with a few lines that show how.
 * @since 0.1.0
 */
export type PinChange = internal.PinChange

/**
 * Two texts as the part that differs with a little context on each side: `- "…old…"` and
 * `+ "…new…"` (common prefix and suffix cut), so a one-sentence injection in a long description
 * shows at once.
 * @since 0.1.0
 */
export const textDiff: (before: string, after: string) => ReadonlyArray<string> = internal.textDiff

/**
 * The JSON paths at which two values differ (at most `MAX_PATHS`, then a count).
 * @since 0.1.0
 */
export const jsonDiff: (before: unknown, after: unknown) => ReadonlyArray<string> = internal.jsonDiff

/**
 * What differs between a pinned definition and the current one, part by part.
 * @since 0.1.0
 */
export const describeChanges: (before: PinnedDefinition, after: PinnedDefinition) => ReadonlyArray<PinChange> =
  internal.describeChanges

/**
 * The message of a refused call to a changed tool: what changed, and the command that accepts it.
 * @since 0.1.0
 */
export const changedMessage = (name: string, server: ResolvedServer, tool: string, changes: ReadonlyArray<PinChange>): string =>
  `${name} changed since it was pinned (${changes.map((c) => c.part).join(", ") || "definition"}); not run:\n` +
  changes.map((c) => `  ${c.part}:\n${c.lines.map((l) => `    ${l}`).join("\n")}`).join("\n") +
  `\nIf the new definition is expected, accept it with \`mcpctl trust ${server.name} ${tool}\` ` +
  `(every tool of the server: \`mcpctl trust ${server.name}\`); "pin": false in ${server.source} turns pinning off for "${server.originalName}".`

// ---------------------------------------------------------------------------------------------
// The service

/**
 * Pinning as the registry uses it.
 * @since 0.1.0
 */
export class Pins extends Context.Tag("@mcpctl/core/Pins")<
  Pins,
  {
    /**
     * Records a server's tools that were never seen (the first listing pins them all). Never
     * fails: a store that cannot be written is logged and kept in memory for this run.
     */
    readonly observe: (server: ResolvedServer, tools: ReadonlyArray<Tool>) => Effect.Effect<void>
    /** The state of one definition (by `definitionHash`), synchronously: this is on the call path. */
    readonly state: (server: ResolvedServer, tool: string, hash: string) => PinState
    /** What differs between the pinned definition of `tool` and this one. */
    readonly changes: (server: ResolvedServer, tool: Tool) => ReadonlyArray<PinChange>
    /** Accepts these definitions as they are now; the names accepted. */
    readonly trust: (server: ResolvedServer, tools: ReadonlyArray<Tool>) => Effect.Effect<ReadonlyArray<string>, ConfigError>
    /**
     * Reads again the pins of the servers seen so far whose files changed (another process may
     * have trusted a tool): a stat per server when nothing changed. True when any pins differ.
     */
    readonly reload: Effect.Effect<boolean>
    /** Runs `onChange` whenever another process rewrites the pins of a server seen (and they differ), while the scope lasts. */
    readonly watch: (onChange: Effect.Effect<void>) => Effect.Effect<void, never, Scope.Scope>
  }
>() {
  /** Pins in `$MCPCTL_HOME/pins/` (a version 1 `pins.json` is moved there on first use). */
  static readonly layer: Layer.Layer<Pins, never, McpConfig> = Layer.scoped(this, Effect.suspend(() => internal.make(true)))
  /** The same rules with the store in memory only (tests, embedders that keep no files). */
  static readonly layerMemory: Layer.Layer<Pins, never, McpConfig> = Layer.scoped(this, Effect.suspend(() => internal.make(false)))
}
