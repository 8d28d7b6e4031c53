/**
 * Pinned tool definitions, against "rug pulls": a server that changes a tool's description or
 * schema after the user approved it. The first time mcpctl sees a tool it records a hash of its
 * definition (name, title, description, input and output schema, annotations) in
 * `$MCPCTL_HOME/pins.json`, keyed by the server's identity (its URL, or its resolved command line),
 * so renaming a server keeps its pins and pointing a name at another server does not inherit them.
 * A later definition that differs is `changed`: listed with that mark, hidden by `serve`, refused
 * by `call` (exit 3) with what changed, until `mcpctl trust SERVER [TOOL]` accepts it. Tools that
 * appear on a server pinned before are `new` until trusted, and run by the ordinary rules.
 *
 * The pure parts (hash, identity, store updates, the diff) are plain functions; the `Pins`
 * service keeps the store in memory, so checking a call is a map lookup, and writes it with the
 * one atomic writer and lock of `internal/files.ts`.
 */
import type { Tool } from "@modelcontextprotocol/client"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import { createHash } from "node:crypto"
import { accessSync, constants, existsSync, watch as watchDir } from "node:fs"
import { mkdir } from "node:fs/promises"
import * as Path from "node:path"
import { McpConfig } from "../config/McpConfig.js"
import type { ResolvedServer } from "../config/ServerConfig.js"
import { ConfigError } from "../Errors.js"
import { readJsonFile, withFileLock, writeFileAtomic } from "../internal/files.js"

// ---------------------------------------------------------------------------------------------
// Definitions and hashes

/** The parts of a tool definition that pinning covers (the name is the key it is stored under). */
export interface PinnedDefinition {
  readonly title?: string | undefined
  readonly description?: string | undefined
  readonly inputSchema?: unknown
  readonly outputSchema?: unknown
  readonly annotations?: unknown
}

/** The pinned parts of a server's tool definition, as it sent them (descriptions uncut). */
export const definitionOf = (tool: Tool): PinnedDefinition => ({
  ...(tool.title !== undefined ? { title: tool.title } : {}),
  ...(tool.description !== undefined ? { description: tool.description } : {}),
  inputSchema: tool.inputSchema,
  ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema } : {}),
  ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {})
})

/** JSON with object keys sorted at every level, so equal definitions hash equally whatever the key order. */
export const canonicalJson = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, (v as Record<string, unknown>)[k]]))
      : v)

/** sha256 (hex) of a tool's name and pinned parts. */
export const definitionHash = (tool: Tool): string =>
  createHash("sha256").update(canonicalJson({ name: tool.name, ...definitionOf(tool) })).digest("hex")

// ---------------------------------------------------------------------------------------------
// Server identity

const isExecutable = (file: string): boolean => {
  try {
    accessSync(file, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/** A command as the shell would find it: a path made absolute, a bare name looked up on `PATH`. */
export const resolveCommand = (command: string, cwd: string, pathVar: string | undefined): string => {
  if (command.includes("/") || command.includes("\\")) return Path.resolve(cwd, command)
  for (const dir of (pathVar ?? "").split(Path.delimiter)) {
    if (dir && isExecutable(Path.join(dir, command))) return Path.join(dir, command)
  }
  return command
}

/**
 * Who a server is, whatever it is called in the settings: a remote server's URL (user info and
 * fragment dropped, the query only as a hash, since tokens travel there), a local one's resolved
 * command line (the executable found on `PATH`, arguments that name existing files made absolute).
 */
export const serverIdentity = (server: ResolvedServer, projectDir: string, pathVar: string | undefined): string => {
  const config = server.config
  if ("url" in config) {
    try {
      const u = new URL(config.url)
      const query = u.search ? `?sha256:${createHash("sha256").update(u.search).digest("hex").slice(0, 16)}` : ""
      return `${u.protocol}//${u.host}${u.pathname}${query}`
    } catch {
      return config.url
    }
  }
  const cwd = config.cwd ?? projectDir
  const args = (config.args ?? []).map((a) =>
    !a.startsWith("-") && /[/\\]/.test(a) && existsSync(Path.resolve(cwd, a)) ? Path.resolve(cwd, a) : a
  )
  return JSON.stringify([resolveCommand(config.command, cwd, config.env?.PATH ?? pathVar), ...args])
}

// ---------------------------------------------------------------------------------------------
// The store (pure updates)

/** One pinned tool. */
export interface PinEntry {
  readonly hash: string
  readonly definition: PinnedDefinition
  /** When it was pinned (ms since epoch). */
  readonly at: number
  /** It appeared after its server was first pinned and nobody trusted it yet. */
  readonly new?: true | undefined
}

/** One server's pins. */
export interface ServerPins {
  /** The name it had when it was last pinned, for people reading the file. */
  readonly server: string
  readonly tools: Readonly<Record<string, PinEntry>>
}

/** `$MCPCTL_HOME/pins.json`. */
export interface PinStore {
  readonly version: 1
  readonly servers: Readonly<Record<string, ServerPins>>
}

export const emptyStore: PinStore = { version: 1, servers: {} }

/** The pins file of a `$MCPCTL_HOME`. */
export const pinsFile = (home: string): string => Path.join(home, "pins.json")

/** Keeps only well-formed entries, so a hand-edited or truncated file degrades to fewer pins. */
export const parseStore = (raw: unknown): PinStore => {
  const servers: Record<string, ServerPins> = {}
  const given = (raw as { servers?: unknown } | null)?.servers
  if (!given || typeof given !== "object") return emptyStore
  for (const [identity, value] of Object.entries(given)) {
    const v = value as { server?: unknown; tools?: unknown } | null
    if (!v || typeof v.tools !== "object" || v.tools === null) continue
    const tools: Record<string, PinEntry> = {}
    for (const [name, e] of Object.entries(v.tools as Record<string, unknown>)) {
      const entry = e as Partial<PinEntry> | null
      if (!entry || typeof entry.hash !== "string" || typeof entry.definition !== "object" || entry.definition === null) continue
      tools[name] = {
        hash: entry.hash,
        definition: entry.definition,
        at: typeof entry.at === "number" ? entry.at : 0,
        ...(entry.new === true ? { new: true } : {})
      }
    }
    servers[identity] = { server: typeof v.server === "string" ? v.server : "", tools }
  }
  return { version: 1, servers }
}

/** What pinning says of one tool: as pinned, new since, changed since, or not pinned at all. */
export type PinState = "pinned" | "new" | "changed" | "off"

/** The state of a definition (by hash) against the store. Unknown tools are `new`: they are about to be recorded. */
export const stateIn = (store: PinStore, identity: string, tool: string, hash: string): PinState => {
  const entry = store.servers[identity]?.tools[tool]
  if (!entry) return "new"
  if (entry.hash !== hash) return "changed"
  return entry.new ? "new" : "pinned"
}

/** A definition to record: the server's tool name, its hash and pinned parts. */
export interface Seen {
  readonly name: string
  readonly hash: string
  readonly definition: PinnedDefinition
}

export const seenOf = (tool: Tool): Seen => ({ name: tool.name, hash: definitionHash(tool), definition: definitionOf(tool) })

/**
 * Records what was never seen: every tool of a server seen for the first time (pinned as is),
 * tools that appeared since (pinned, marked `new`). Changed definitions are left as pinned: only
 * `trust` replaces them. Returns the same store object when nothing was added.
 */
export const observeIn = (store: PinStore, identity: string, server: string, tools: ReadonlyArray<Seen>, now: number): PinStore => {
  const known = store.servers[identity]
  const fresh = tools.filter((t) => !known?.tools[t.name])
  if (fresh.length === 0) return store
  const added = Object.fromEntries(fresh.map((t) => [t.name, {
    hash: t.hash,
    definition: t.definition,
    at: now,
    ...(known ? { new: true as const } : {})
  }]))
  return {
    version: 1,
    servers: { ...store.servers, [identity]: { server, tools: { ...known?.tools, ...added } } }
  }
}

/** Accepts the given definitions as they are now (changed ones replaced, `new` marks cleared). */
export const trustIn = (store: PinStore, identity: string, server: string, tools: ReadonlyArray<Seen>, now: number): PinStore => {
  const known = store.servers[identity]
  const accepted = Object.fromEntries(tools.map((t) => [t.name, { hash: t.hash, definition: t.definition, at: now }]))
  return { version: 1, servers: { ...store.servers, [identity]: { server, tools: { ...known?.tools, ...accepted } } } }
}

// ---------------------------------------------------------------------------------------------
// What changed (pure)

/** One part of a definition that differs from its pin, with a few lines that show how. */
export interface PinChange {
  readonly part: "title" | "description" | "inputSchema" | "outputSchema" | "annotations"
  readonly lines: ReadonlyArray<string>
}

const CONTEXT = 30
const MAX_FRAGMENT = 160
const MAX_PATHS = 6

const quote = (text: string): string => JSON.stringify(text)

const clip = (text: string, max = MAX_FRAGMENT): string => (text.length > max ? text.slice(0, max - 1) + "…" : text)

/**
 * Two texts as the part that differs with a little context on each side: `- "…old…"` and
 * `+ "…new…"` (common prefix and suffix cut), so a one-sentence injection in a long description
 * shows at once.
 */
export const textDiff = (before: string, after: string): ReadonlyArray<string> => {
  let start = 0
  while (start < before.length && start < after.length && before[start] === after[start]) start++
  let end = 0
  while (
    end < before.length - start && end < after.length - start &&
    before[before.length - 1 - end] === after[after.length - 1 - end]
  ) end++
  const from = Math.max(0, start - CONTEXT)
  const side = (text: string) => {
    const to = Math.min(text.length, text.length - end + CONTEXT)
    return (from > 0 ? "…" : "") + clip(text.slice(from, to)) + (to < text.length ? "…" : "")
  }
  return [`- ${quote(side(before))}`, `+ ${quote(side(after))}`]
}

const show = (v: unknown): string => (v === undefined ? "absent" : clip(canonicalJson(v), 60))

/** The JSON paths at which two values differ (at most `MAX_PATHS`, then a count). */
export const jsonDiff = (before: unknown, after: unknown): ReadonlyArray<string> => {
  const out: Array<string> = []
  let more = 0
  const walk = (a: unknown, b: unknown, path: string) => {
    if (canonicalJson(a) === canonicalJson(b)) return
    const objects = a && b && typeof a === "object" && typeof b === "object" && Array.isArray(a) === Array.isArray(b)
    if (objects) {
      const keys = new Set([...Object.keys(a), ...Object.keys(b)])
      for (const k of [...keys].sort()) walk((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], path ? `${path}.${k}` : k)
      return
    }
    if (out.length >= MAX_PATHS) return void more++
    const at = path || "(whole)"
    out.push(a === undefined ? `${at}: added ${show(b)}` : b === undefined ? `${at}: removed (was ${show(a)})` : `${at}: ${show(a)} → ${show(b)}`)
  }
  walk(before, after, "")
  if (more > 0) out.push(`… and ${more} more`)
  return out
}

/** What differs between a pinned definition and the current one, part by part. */
export const describeChanges = (before: PinnedDefinition, after: PinnedDefinition): ReadonlyArray<PinChange> => {
  const changes: Array<PinChange> = []
  if ((before.title ?? "") !== (after.title ?? "")) changes.push({ part: "title", lines: textDiff(before.title ?? "", after.title ?? "") })
  if ((before.description ?? "") !== (after.description ?? "")) {
    changes.push({ part: "description", lines: textDiff(before.description ?? "", after.description ?? "") })
  }
  for (const part of ["inputSchema", "outputSchema", "annotations"] as const) {
    // An absent part reads as empty, so a part that appears shows its own keys ("readOnlyHint: added").
    const lines = jsonDiff(before[part] ?? {}, after[part] ?? {})
    if (lines.length > 0) changes.push({ part, lines })
  }
  return changes
}

/** The message of a refused call to a changed tool: what changed, and the command that accepts it. */
export const changedMessage = (name: string, server: ResolvedServer, tool: string, changes: ReadonlyArray<PinChange>): string =>
  `${name} changed since it was pinned (${changes.map((c) => c.part).join(", ") || "definition"}); not run:\n` +
  changes.map((c) => `  ${c.part}:\n${c.lines.map((l) => `    ${l}`).join("\n")}`).join("\n") +
  `\nIf the new definition is expected, accept it with \`mcpctl trust ${server.name} ${tool}\` ` +
  `(every tool of the server: \`mcpctl trust ${server.name}\`); "pin": false in ${server.source} turns pinning off for "${server.originalName}".`

// ---------------------------------------------------------------------------------------------
// The service

/** Pinning as the registry uses it. */
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
    /** Reads the store again (another process may have trusted a tool); true when it differs. */
    readonly reload: Effect.Effect<boolean>
    /** Runs `onChange` whenever another process rewrites the store (and it differs), while the scope lasts. */
    readonly watch: (onChange: Effect.Effect<void>) => Effect.Effect<void, never, Scope.Scope>
  }
>() {
  /** Pins in `$MCPCTL_HOME/pins.json`. */
  static readonly layer: Layer.Layer<Pins, never, McpConfig> = Layer.effect(this, Effect.suspend(() => make(true)))
  /** The same rules with the store in memory only (tests, embedders that keep no files). */
  static readonly layerMemory: Layer.Layer<Pins, never, McpConfig> = Layer.effect(this, Effect.suspend(() => make(false)))
}

const make = (persist: boolean) =>
  Effect.gen(function*() {
    const config = yield* McpConfig
    const file = pinsFile(config.home)
    const identities = new Map<string, string>()
    const identity = (server: ResolvedServer) => {
      let id = identities.get(server.name)
      if (id === undefined) identities.set(server.name, id = serverIdentity(server, config.projectDir, process.env.PATH))
      return id
    }
    const off = (server: ResolvedServer) => server.config.pin === false
    let store: PinStore = emptyStore
    let text = ""
    const read = async () => {
      const raw = persist ? await readJsonFile(file) : undefined
      return raw === undefined ? store : parseStore(raw)
    }
    let loaded: Promise<void> | undefined
    const load = () => (loaded ??= read().then((s) => void ((store = s), (text = canonicalJson(s)))))

    /** Read-modify-write under the lock, the update applied to the store as it is on disk now. */
    const update = (f: (s: PinStore, now: number) => PinStore) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Effect.tryPromise({
          try: async () => {
            await load()
            if (!persist) return void (store = f(store, now))
            await withFileLock(file, async () => {
              const next = f(await read(), now)
              await writeFileAtomic(file, JSON.stringify(next, null, 2) + "\n")
              store = next
              text = canonicalJson(next)
            })
          },
          catch: (cause) => cause
        }))

    const observe = (server: ResolvedServer, tools: ReadonlyArray<Tool>) =>
      Effect.suspend(() => {
        if (off(server)) return Effect.void
        const id = identity(server)
        const seen = tools.map(seenOf)
        return Effect.flatMap(Effect.promise(load), () => {
          if (observeIn(store, id, server.name, seen, 0) === store) return Effect.void
          return update((s, now) => observeIn(s, id, server.name, seen, now)).pipe(
            Effect.catchAll((cause) =>
              Effect.flatMap(Clock.currentTimeMillis, (now) => {
                store = observeIn(store, id, server.name, seen, now)
                return Effect.logWarning(`could not record tool pins of ${server.name} in ${file}: ${String(cause)}`)
              }))
          )
        })
      })

    const state = (server: ResolvedServer, tool: string, hash: string): PinState =>
      off(server) ? "off" : stateIn(store, identity(server), tool, hash)

    const changes = (server: ResolvedServer, tool: Tool) => {
      const entry = store.servers[identity(server)]?.tools[tool.name]
      return entry ? describeChanges(entry.definition, definitionOf(tool)) : []
    }

    const trust = (server: ResolvedServer, tools: ReadonlyArray<Tool>) =>
      Effect.suspend(() => {
        const id = identity(server)
        const seen = tools.map(seenOf)
        return update((s, now) => trustIn(s, id, server.name, seen, now)).pipe(
          Effect.as(seen.map((t) => t.name)),
          Effect.mapError((cause) =>
            new ConfigError({
              message: `Cannot write the tool pins in ${file} (${(cause as NodeJS.ErrnoException)?.code ?? String(cause)}). ` +
                "Check that $MCPCTL_HOME is writable.",
              file,
              cause
            })
          )
        )
      })

    const reload = Effect.promise(async () => {
      await load()
      const next = await read()
      const nextText = canonicalJson(next)
      if (nextText === text) return false
      store = next
      text = nextText
      return true
    })

    const watch = (onChange: Effect.Effect<void>) =>
      persist
        ? Effect.gen(function*() {
          const runFork = Effect.runFork
          yield* Effect.promise(() => mkdir(config.home, { recursive: true, mode: 0o700 }).catch(() => undefined))
          yield* Effect.acquireRelease(
            Effect.sync(() => {
              try {
                // The directory, not the file: atomic writes replace the file (a rename).
                return watchDir(config.home, (_event, name) => {
                  if (name === Path.basename(file)) runFork(Effect.flatMap(reload, (changed) => (changed ? onChange : Effect.void)))
                })
              } catch {
                return undefined
              }
            }),
            (watcher) => Effect.sync(() => watcher?.close())
          )
        })
        : Effect.void

    return Pins.of({ observe, state, changes, trust, reload, watch })
  })
