/**
 * The implementation of `catalog/Pins.ts`: the pure rules (the definition's hash, a server's pins
 * updated, what changed) and the service that keeps the pins of the servers seen in memory and
 * writes them through `JsonStore` (`PinFiles.ts`).
 */
import type { Tool } from "@modelcontextprotocol/client"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import { createHash } from "node:crypto"
import { watch as watchDir } from "node:fs"
import { McpConfig } from "../../config/McpConfig.js"
import type { ResolvedServer } from "../../config/ServerConfig.js"
import { ConfigError } from "../../Errors.js"
import { privateDir } from "../files.js"
import { sameStamp, type Stamp } from "../JsonStore.js"
import * as PinFiles from "./PinFiles.js"
import { serverIdentity } from "../config/ServerIdentity.js"

// ---------------------------------------------------------------------------------------------
// Definitions and hashes

/**
 * The parts of a tool definition that pinning covers (the name is the key it is stored under).
 */
export type PinnedDefinition = PinFiles.PinnedDefinition

/**
 * The pinned parts of a server's tool definition, as it sent them (descriptions uncut).
 */
export const definitionOf = (tool: Tool): PinnedDefinition => ({
  ...(tool.title !== undefined ? { title: tool.title } : {}),
  ...(tool.description !== undefined ? { description: tool.description } : {}),
  inputSchema: tool.inputSchema,
  ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema } : {}),
  ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {})
})

/**
 * JSON with object keys sorted at every level, so equal definitions hash equally whatever the key order.
 */
export const canonicalJson = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, (v as Record<string, unknown>)[k]]))
      : v)

/**
 * sha256 (hex) of a tool's name and pinned parts.
 */
export const definitionHash = (tool: Tool): string =>
  createHash("sha256").update(canonicalJson({ name: tool.name, ...definitionOf(tool) })).digest("hex")

// ---------------------------------------------------------------------------------------------
// One server's pins (pure updates)

/**
 * One pinned tool.
 */
export type PinEntry = PinFiles.PinEntry

/**
 * One server's pins.
 */
export type ServerPins = PinFiles.ServerPins

/**
 * What pinning says of one tool: as pinned, new since, changed since, or not pinned at all.
 */
export type PinState = "pinned" | "new" | "changed" | "off"

/**
 * The state of a definition (by hash) against a server's pins. Unknown tools are `new`: they are about to be recorded.
 */
export const stateIn = (pins: ServerPins | undefined, tool: string, hash: string): PinState => {
  const entry = pins?.tools[tool]
  if (!entry) return "new"
  if (entry.hash !== hash) return "changed"
  return entry.new ? "new" : "pinned"
}

/**
 * A definition to record: the server's tool name, its hash and pinned parts.
 */
export interface Seen {
  readonly name: string
  readonly hash: string
  readonly definition: PinnedDefinition
}

/** @since 0.1.0 */
export const seenOf = (tool: Tool): Seen => ({ name: tool.name, hash: definitionHash(tool), definition: definitionOf(tool) })

/**
 * Records what was never seen: every tool of a server seen for the first time (pinned as is),
 * tools that appeared since (pinned, marked `new`). Changed definitions are left as pinned: only
 * `trust` replaces them. Returns the same object when nothing was added.
 */
export const observeIn = (pins: ServerPins | undefined, server: string, tools: ReadonlyArray<Seen>, now: number): ServerPins | undefined => {
  const fresh = tools.filter((t) => !pins?.tools[t.name])
  if (fresh.length === 0) return pins
  const added = Object.fromEntries(fresh.map((t) => [t.name, {
    hash: t.hash,
    definition: t.definition,
    at: now,
    ...(pins ? { new: true as const } : {})
  }]))
  return { server, tools: { ...pins?.tools, ...added } }
}

/**
 * Accepts the given definitions as they are now (changed ones replaced, `new` marks cleared).
 */
export const trustIn = (pins: ServerPins | undefined, server: string, tools: ReadonlyArray<Seen>, now: number): ServerPins => {
  const accepted = Object.fromEntries(tools.map((t) => [t.name, { hash: t.hash, definition: t.definition, at: now }]))
  return { server, tools: { ...pins?.tools, ...accepted } }
}

// ---------------------------------------------------------------------------------------------
// What changed (pure)

/**
 * One part of a definition that differs from its pin, with a few lines that show how.
 */
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

/**
 * The JSON paths at which two values differ (at most `MAX_PATHS`, then a count).
 */
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

/**
 * What differs between a pinned definition and the current one, part by part.
 */
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

/** What the service knows of one identity's pins. */
interface Known {
  readonly server: ResolvedServer
  /** Its own file's, or the inherited legacy ones (`inherited`), or none. */
  pins: ServerPins | undefined
  /** Its own file as read (none: there was none). */
  stamp: Option.Option<Stamp>
  inherited: boolean
}

export const make = (persist: boolean) =>
  Effect.gen(function*() {
    const config = yield* McpConfig
    const home = config.home
    const identities = new Map<string, string>()
    const identity = (server: ResolvedServer) => {
      let id = identities.get(server.name)
      // In memory (a transport of the caller's own), a command or URL says nothing about what
      // answers: two names with one command line are two servers, so the name is part of it.
      if (id === undefined) {
        const byConfig = serverIdentity(server, { projectDir: config.projectDir, pathVar: process.env.PATH })
        identities.set(server.name, id = persist ? byConfig : `${server.name}\u0000${byConfig}`)
      }
      return id
    }
    const off = (server: ResolvedServer) => server.config.pin === false
    const known = new Map<string, Known>()

    // The upgrade from pins.json, once per host, before the first read that may need it.
    const migrated = persist ? yield* Effect.cached(PinFiles.migrateLegacy(home)) : Effect.void
    // Sweeping old servers' files is due once a day, never in the way of the run.
    if (persist) yield* Effect.forkScoped(PinFiles.pruneIfDue(home))

    /** A server's pins as on disk now: its own file, else what version 1 pinned under its old key. */
    const readKnown = (server: ResolvedServer, id: string): Known => {
      if (!persist) return { server, pins: undefined, stamp: Option.none(), inherited: false }
      const own = PinFiles.storeOf(home, id).readSync()
      const pins = PinFiles.pinsOf(own.value, id)
      if (pins !== undefined) return { server, pins, stamp: own.stamp, inherited: false }
      const key = PinFiles.legacyIdentity(server, config.projectDir, process.env.PATH)
      const legacy = PinFiles.pinsOf(PinFiles.storeOf(home, key).readSync().value, key)
      return { server, pins: legacy, stamp: own.stamp, inherited: legacy !== undefined }
    }
    const knownOf = (server: ResolvedServer): Known => {
      const id = identity(server)
      let k = known.get(id)
      if (k === undefined) known.set(id, k = readKnown(server, id))
      return k
    }

    /** Read-modify-write of a server's file, `f` applied to its pins as on disk now. */
    const write = (server: ResolvedServer, f: (pins: ServerPins | undefined, now: number) => ServerPins | undefined) =>
      Effect.suspend(() => {
        const id = identity(server)
        const k = knownOf(server)
        if (!persist) return Effect.flatMap(Clock.currentTimeMillis, (now) => Effect.sync(() => void (k.pins = f(k.pins, now))))
        const store = PinFiles.storeOf(home, id)
        return store.modify((current, now) => {
          const base = PinFiles.pinsOf(current, id) ?? (Option.isNone(current) ? readKnown(server, id).pins : undefined)
          const next = f(base, now)
          return [next, next === undefined ? current : Option.some(PinFiles.fileOf(id, { ...next, server: server.name }))] as const
        }).pipe(
          Effect.flatMap((next) =>
            Effect.map(store.stamp, (stamp) => {
              k.pins = next
              k.stamp = stamp
              k.inherited = false
            })
          )
        )
      })

    const observe = (server: ResolvedServer, tools: ReadonlyArray<Tool>) =>
      Effect.suspend(() => {
        if (off(server)) return Effect.void
        const seen = tools.map(seenOf)
        return Effect.flatMap(Effect.zipRight(migrated, Clock.currentTimeMillis), (now) => {
          const k = knownOf(server)
          // A server in use keeps its file young (once a day), so the sweep never takes it.
          const aging = Option.isSome(k.stamp) && now - k.stamp.value.mtimeMs > PinFiles.REFRESH_AFTER_MS
          const added = observeIn(k.pins, server.name, seen, now) !== k.pins
          if (!added && !aging && !(k.inherited && persist)) return Effect.void
          return write(server, (pins, at) => observeIn(pins, server.name, seen, at) ?? pins).pipe(
            Effect.catchAll((error) =>
              Effect.sync(() => void (k.pins = observeIn(k.pins, server.name, seen, now))).pipe(
                Effect.zipRight(Effect.logWarning(`could not record tool pins of ${server.name}: ${error.message}`))
              ))
          )
        })
      })

    const state = (server: ResolvedServer, tool: string, hash: string): PinState =>
      off(server) ? "off" : stateIn(knownOf(server).pins, tool, hash)

    const changes = (server: ResolvedServer, tool: Tool) => {
      const entry = knownOf(server).pins?.tools[tool.name]
      return entry ? describeChanges(entry.definition, definitionOf(tool)) : []
    }

    const trust = (server: ResolvedServer, tools: ReadonlyArray<Tool>) =>
      Effect.suspend(() => {
        const seen = tools.map(seenOf)
        return Effect.zipRight(migrated, write(server, (pins, now) => trustIn(pins, server.name, seen, now))).pipe(
          Effect.as(seen.map((t) => t.name)),
          Effect.mapError((cause) =>
            new ConfigError({
              message: `Cannot write the tool pins in ${cause.file} (${cause.message}). Check that $MCPCTL_HOME is writable.`,
              file: cause.file,
              cause
            })
          )
        )
      })

    // A stat per server seen; a file is read again only when its stamp changed.
    const reload = Effect.suspend(() => {
      if (!persist) return Effect.succeed(false)
      return Effect.zipRight(
        migrated,
        Effect.reduce([...known.entries()], false, (changed, [id, k]) =>
          Effect.map(PinFiles.storeOf(home, id).stamp, (stamp) => {
            if (sameStamp(stamp, k.stamp) && !k.inherited) return changed
            const next = readKnown(k.server, id)
            const differs = canonicalJson(next.pins ?? null) !== canonicalJson(k.pins ?? null)
            known.set(id, next)
            return changed || differs
          }))
      )
    })

    const watch = (onChange: Effect.Effect<void>) =>
      persist
        ? Effect.gen(function*() {
          const dir = yield* Effect.promise(() => privateDir(home, "pins").catch(() => undefined))
          if (dir === undefined) return
          const changed = yield* Effect.acquireRelease(Queue.sliding<void>(1), Queue.shutdown)
          yield* Effect.acquireRelease(
            Effect.sync(() => {
              try {
                // The directory, not the files: atomic writes replace a file (a rename).
                return watchDir(dir, (_event, name) => {
                  if (name !== null && /^[0-9a-f]{64}\.json$/.test(String(name))) Queue.unsafeOffer(changed, undefined)
                })
              } catch {
                return undefined
              }
            }),
            (watcher) => Effect.sync(() => watcher?.close())
          )
          // The callback only signals; the reload runs here, on the host's runtime.
          yield* Queue.take(changed).pipe(
            Effect.zipRight(reload),
            Effect.flatMap((differs) => (differs ? onChange : Effect.void)),
            Effect.forever,
            Effect.forkScoped
          )
        })
        : Effect.void

    return { observe, state, changes, trust, reload, watch }
  })
