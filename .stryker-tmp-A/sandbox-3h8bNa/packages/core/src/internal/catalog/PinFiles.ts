/**
 * Where the tool pins live: one file per server identity, `$MCPCTL_HOME/pins/<sha256>.json`
 * (`{ version: 2, identity, server, tools }`), so a run reads only the servers it connects and a
 * long history costs nothing. Each file is a `JsonStore` (atomic, locked, no link followed).
 *
 * - Upgrade from version 1 (one `pins.json` keyed by the command line alone): split once into
 *   `legacy:` files (under the old file's lock), then `pins.json` is renamed `pins.json.migrated`.
 *   A server with no file of its own starts from the legacy pins of its old key, so a tool that
 *   changed is still `changed`; it gets a file of its own on its next write.
 * - Pruning: a file not written for 90 days (a server in use is rewritten once a day at most, when
 *   it is seen) is removed, by a sweep that runs at most once a day (`pins/.pruned`), off the
 *   run's path.
 */
// @ts-nocheck

import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { existsSync } from "node:fs"
import * as fs from "node:fs/promises"
import * as Path from "node:path"
import type { ResolvedServer } from "../../config/ServerConfig.js"
import { privateDir, writeFileAtomic } from "../files.js"
import * as JsonStore from "../JsonStore.js"
import { identityFileName, resolveCommand } from "../config/ServerIdentity.js"

/** The parts of a tool definition that pinning covers (the name is the key it is stored under). */
export interface PinnedDefinition {
  readonly title?: string | undefined
  readonly description?: string | undefined
  readonly inputSchema?: unknown
  readonly outputSchema?: unknown
  readonly annotations?: unknown
}

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

const Definition: Schema.Schema<PinnedDefinition> = Schema.Struct({
  title: Schema.optional(Schema.String),
  description: Schema.optional(Schema.String),
  inputSchema: Schema.optional(Schema.Unknown),
  outputSchema: Schema.optional(Schema.Unknown),
  annotations: Schema.optional(Schema.Unknown)
})

const Entry: Schema.Schema<PinEntry, { readonly hash: string; readonly definition: PinnedDefinition; readonly at?: number; readonly new?: boolean }> = Schema
  .Struct({
    hash: Schema.String,
    definition: Definition,
    at: Schema.optionalWith(Schema.Number, { default: () => 0 }),
    new: Schema.optional(Schema.Boolean)
  })
  .pipe(Schema.transform(Schema.typeSchema(Schema.Struct({
    hash: Schema.String,
    definition: Definition,
    at: Schema.Number,
    new: Schema.optional(Schema.Literal(true))
  })), {
    strict: false,
    decode: ({ new: isNew, ...rest }) => (isNew === true ? { ...rest, new: true as const } : rest),
    encode: (e) => e
  })) as never

/** One server's file. */
export interface PinFile {
  readonly version: 2
  /** The identity it is the file of (the file name is its hash: a misplaced file is not read). */
  readonly identity: string
  readonly server: string
  readonly tools: Readonly<Record<string, PinEntry>>
}

const PinFileSchema: Schema.Schema<PinFile, unknown> = Schema.Struct({
  version: Schema.Literal(2),
  identity: Schema.String,
  server: Schema.optionalWith(Schema.String, { default: () => "" }),
  tools: JsonStore.lenientRecord(Entry)
}) as never

/** `$MCPCTL_HOME/pins/`. */
export const pinsDir = (home: string): string => Path.join(home, "pins")

/** The file of one identity. */
export const pinFile = (home: string, identity: string): string => Path.join(pinsDir(home), `${identityFileName(identity)}.json`)

/** The version 1 store, read once to migrate. */
export const legacyFile = (home: string): string => Path.join(home, "pins.json")

/** The store of one identity's pins. */
export const storeOf = (home: string, identity: string): JsonStore.JsonStore<PinFile> => JsonStore.make(pinFile(home, identity), PinFileSchema)

/** The pins a file holds for `identity` (a file of another identity holds none). */
export const pinsOf = (file: Option.Option<PinFile>, identity: string): ServerPins | undefined =>
  Option.isSome(file) && file.value.identity === identity ? { server: file.value.server, tools: file.value.tools } : undefined

export const fileOf = (identity: string, pins: ServerPins): PinFile => ({ version: 2, identity, server: pins.server, tools: pins.tools })

// ---------------------------------------------------------------------------------------------
// Version 1

/**
 * The key version 1 stored a server under (kept for the upgrade only): a remote server's URL (no
 * user info or fragment, the query hashed), a local one's resolved command line.
 */
export const legacyIdentity = (server: ResolvedServer, projectDir: string, pathVar: string | undefined): string => {
  const config = server.config
  if ("url" in config) {
    try {
      const u = new URL(config.url)
      const query = u.search ? `?sha256:${identityFileName(u.search).slice(0, 16)}` : ""
      return `legacy:${u.protocol}//${u.host}${u.pathname}${query}`
    } catch {
      return `legacy:${config.url}`
    }
  }
  const cwd = config.cwd ?? projectDir
  const args = (config.args ?? []).map((a) =>
    !a.startsWith("-") && /[/\\]/.test(a) && existsSync(Path.resolve(cwd, a)) ? Path.resolve(cwd, a) : a
  )
  return `legacy:${JSON.stringify([resolveCommand(config.command, cwd, config.env?.PATH ?? pathVar), ...args])}`
}

const LegacySchema = Schema.Struct({
  servers: JsonStore.lenientRecord(Schema.Struct({
    server: Schema.optionalWith(Schema.String, { default: () => "" }),
    tools: JsonStore.lenientRecord(Entry)
  }))
})

/**
 * Splits a version 1 `pins.json` into `legacy:` files, once: under its lock, so parallel runs
 * migrate it once; a file written since (by this version) is never overwritten. Never fails: a
 * migration that fails is logged and tried again by the next run.
 */
export const migrateLegacy = (home: string): Effect.Effect<void> =>
  Effect.gen(function*() {
    const file = legacyFile(home)
    const present = yield* Effect.promise(() => fs.lstat(file).then((s) => s.isFile(), () => false))
    if (!present) return
    yield* Effect.scoped(Effect.gen(function*() {
      yield* JsonStore.lockFile(file)
      const old = JsonStore.make(file, LegacySchema).readSync()
      if (Option.isNone(old.stamp)) return // migrated by another run meanwhile
      yield* Effect.promise(() => privateDir(home, "pins"))
      for (const [key, pins] of Object.entries(Option.match(old.value, { onNone: () => ({}), onSome: (v) => v.servers }))) {
        const identity = `legacy:${key}`
        yield* storeOf(home, identity).modify((current) =>
          [undefined, Option.isSome(current) ? current : Option.some(fileOf(identity, pins))] as const
        )
      }
      yield* Effect.promise(() => fs.rename(file, `${file}.migrated`))
    }))
  }).pipe(
    Effect.catchAllCause((cause) => Effect.logWarning(`could not move the tool pins of ${legacyFile(home)} to ${pinsDir(home)}`, cause))
  )

// ---------------------------------------------------------------------------------------------
// Pruning

const DAY_MS = 24 * 60 * 60 * 1000
/** A server's file not written for this long is removed. */
export const PRUNE_AFTER_MS = 90 * DAY_MS
/** A server in use has its file rewritten when it is older than this (so pruning sees it used). */
export const REFRESH_AFTER_MS = DAY_MS

/**
 * Removes the files not written for 90 days, if the last sweep is a day old (`pins/.pruned`); a
 * file is checked again under its lock, so a run that writes it meanwhile keeps it. Never fails.
 * The number of files removed.
 */
export const pruneIfDue = (home: string): Effect.Effect<number> =>
  Effect.gen(function*() {
    const now = yield* Clock.currentTimeMillis
    const dir = pinsDir(home)
    const marker = Path.join(dir, ".pruned")
    // The marker holds the time of the last sweep (Clock's, so TestClock can drive it).
    const last = yield* Effect.promise(() => fs.readFile(marker, "utf8").then(Number, () => Number.NaN))
    if (Number.isFinite(last) && now - last < DAY_MS) return 0
    const names = yield* Effect.promise(() => fs.readdir(dir).catch(() => [] as Array<string>))
    let removed = 0
    for (const name of names) {
      if (!/^[0-9a-f]{64}\.json$/.test(name)) continue
      const file = Path.join(dir, name)
      const old = (s: { isFile(): boolean; mtimeMs: number } | undefined) => s !== undefined && s.isFile() && now - s.mtimeMs > PRUNE_AFTER_MS
      if (!old(yield* Effect.promise(() => fs.lstat(file).catch(() => undefined)))) continue
      removed += yield* Effect.scoped(Effect.gen(function*() {
        yield* JsonStore.lockFile(file)
        if (!old(yield* Effect.promise(() => fs.lstat(file).catch(() => undefined)))) return 0
        yield* Effect.promise(() => fs.rm(file, { force: true }))
        return 1
      }))
    }
    if (names.length > 0) yield* Effect.promise(() => writeFileAtomic(marker, `${now}\n`))
    return removed
  }).pipe(Effect.catchAllCause((cause) => Effect.as(Effect.logDebug(`pruning ${pinsDir(home)} failed`, cause), 0)))
