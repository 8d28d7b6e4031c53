/**
 * One JSON file that other runs and other processes read and write: the store under the file
 * stores (pins, era verdicts, needs-auth, project trust, …). It
 *
 * - decodes with a `Schema` (a missing, unreadable, corrupt or ill-shaped file reads as `None`,
 *   never as an error: the stores are caches or start empty);
 * - reads without following a symbolic link (`O_NOFOLLOW`, and only a regular file);
 * - writes with the one atomic writer of `files.ts` (temp file and rename: a link at the path is
 *   replaced, never written through), 0600 in a 0700 directory by default;
 * - serializes read-modify-writes with an `O_EXCL` lock file next to it, taken as a scoped
 *   resource (released when the update's scope closes, whatever happened); it orders the fibers
 *   of this process as well as other processes, so no lock state lives in module globals;
 * - gives updates the time from `Clock`, so expiry is testable with `TestClock`.
 *
 * Waiting for another process's lock uses the machine's time, not `Clock`: it is about the real
 * world (a process that holds a file), not about the store's expiry rules.
 */
// @ts-nocheck

import * as Effect from "effect/Effect"
import * as Clock from "effect/Clock"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import * as fsSync from "node:fs"
import * as fs from "node:fs/promises"
import * as Path from "node:path"
import { writeFileAtomic } from "./files.js"

/** A store file could not be written, or its lock not taken when the store must not go without it. */
export class JsonStoreError extends Schema.TaggedError<JsonStoreError>()("JsonStoreError", {
  file: Schema.String,
  reason: Schema.Literal("write", "lock"),
  cause: Schema.Defect
}) {
  override get message(): string {
    return this.reason === "lock"
      ? `${this.file} is locked by another process (${this.file}.lock)`
      : `cannot write ${this.file}: ${(this.cause as NodeJS.ErrnoException)?.code ?? String(this.cause)}`
  }
}

/** What a file was when it was read: an update of it by anyone changes one of these. */
export interface Stamp {
  readonly mtimeMs: number
  readonly size: number
  readonly ino: number
}

export const sameStamp = (a: Option.Option<Stamp>, b: Option.Option<Stamp>): boolean =>
  Option.isNone(a)
    ? Option.isNone(b)
    : Option.isSome(b) && a.value.mtimeMs === b.value.mtimeMs && a.value.size === b.value.size && a.value.ino === b.value.ino

/** How a store waits for its lock and writes its file. */
export interface StoreOptions {
  /** The file's mode (default 0600). */
  readonly mode?: number
  /** The mode of directories created on the way (default 0700). */
  readonly dirMode?: number
  /** How long to wait for another holder of the lock, ms (default 2 s). */
  readonly lockWaitMs?: number
  /**
   * Past the wait: `proceed` without the lock (default: caches, where a lost update is cheap and a
   * stuck run is not), or `fail` with a `JsonStoreError` (trust, where a lost update is data loss).
   */
  readonly onLockTimeout?: "proceed" | "fail"
  /** Indented JSON, for files people read (default true). */
  readonly pretty?: boolean
  /** Files larger than this read as `None` (default 64 MiB). */
  readonly maxBytes?: number
}

/** One JSON file of values `A`. */
export interface JsonStore<A> {
  readonly file: string
  /** The value now on disk. */
  readonly get: Effect.Effect<Option.Option<A>>
  /** The value and the stamp of the file it came from. */
  readonly getStamped: Effect.Effect<{ readonly value: Option.Option<A>; readonly stamp: Option.Option<Stamp> }>
  /** {@link getStamped}, synchronously (for a caller on a synchronous path; the file is small). */
  readonly readSync: () => { readonly value: Option.Option<A>; readonly stamp: Option.Option<Stamp> }
  /** The file's stamp (`lstat`), `None` when there is no regular file: tells whether to read again. */
  readonly stamp: Effect.Effect<Option.Option<Stamp>>
  /**
   * Read-modify-write under the lock: `f` gets the value as it is on disk now and the time, and
   * says what to return and what to store (`None`: remove the file; the same value: no write).
   */
  readonly modify: <B>(f: (current: Option.Option<A>, now: number) => readonly [B, Option.Option<A>]) => Effect.Effect<B, JsonStoreError>
  /** {@link modify} that stores what `f` returns (and returns it). */
  readonly update: (f: (current: Option.Option<A>, now: number) => A) => Effect.Effect<A, JsonStoreError>
}

const LOCK_WAIT_MS = 2_000
/** A lock file older than this is left over from a crashed process and is removed (ms). */
const LOCK_STALE_MS = 10_000

const pause = (ms: number) => Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, ms)))

const NOFOLLOW = fsSync.constants.O_NOFOLLOW ?? 0

const statOf = (s: fsSync.Stats): Stamp => ({ mtimeMs: s.mtimeMs, size: s.size, ino: s.ino })

/** A regular file's text and stamp, never through a link; `undefined` for anything else. */
const readText = (file: string, maxBytes: number): { readonly text: string; readonly stamp: Stamp } | undefined => {
  let fd: number | undefined
  try {
    fd = fsSync.openSync(file, fsSync.constants.O_RDONLY | fsSync.constants.O_NONBLOCK | NOFOLLOW)
    const stat = fsSync.fstatSync(fd)
    if (!stat.isFile() || stat.size > maxBytes) return undefined
    return { text: fsSync.readFileSync(fd, "utf8"), stamp: statOf(stat) }
  } catch {
    return undefined
  } finally {
    if (fd !== undefined) fsSync.closeSync(fd)
  }
}

/**
 * The lock of `file` as a scoped resource: `held` (released with the scope), `busy` (another holder
 * kept it past the wait) or `unusable` (it cannot be created here; the write then fails with the
 * real error).
 */
export const lockFile = (
  file: string,
  options: Pick<StoreOptions, "lockWaitMs" | "dirMode"> = {}
): Effect.Effect<"held" | "busy" | "unusable", never, Scope.Scope> => {
  const lock = `${file}.lock`
  const acquire = Effect.gen(function*() {
    const deadline = Date.now() + (options.lockWaitMs ?? LOCK_WAIT_MS)
    yield* Effect.promise(() => fs.mkdir(Path.dirname(lock), { recursive: true, mode: options.dirMode ?? 0o700 }).catch(() => undefined))
    for (;;) {
      const created = yield* Effect.promise(() =>
        fs.open(lock, "wx", 0o600).then(
          async (handle) => {
            await handle.writeFile(String(process.pid)).finally(() => handle.close())
            return "held" as const
          },
          (error: NodeJS.ErrnoException) => (error.code === "EEXIST" ? "exists" as const : "unusable" as const)
        )
      )
      if (created !== "exists") return created
      const stat = yield* Effect.promise(() => fs.stat(lock).catch(() => undefined))
      if (stat && Date.now() - stat.mtimeMs > LOCK_STALE_MS) {
        yield* Effect.promise(() => fs.rm(lock, { force: true }).catch(() => undefined))
        continue
      }
      if (Date.now() > deadline) return "busy" as const
      yield* pause(5 + Math.floor(Math.random() * 20))
    }
  })
  return Effect.acquireRelease(Effect.uninterruptible(acquire), (state) =>
    state === "held" ? Effect.promise(() => fs.rm(lock, { force: true }).catch(() => undefined)) : Effect.void)
}

/** A store of `schema`'s values in `file`. */
export const make = <A, I>(file: string, schema: Schema.Schema<A, I>, options: StoreOptions = {}): JsonStore<A> => {
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024
  const decode = Schema.decodeUnknownOption(Schema.parseJson(schema))
  const encode = Schema.encodeSync(schema)
  const readNow = () => {
    const read = readText(file, maxBytes)
    return read === undefined
      ? { value: Option.none<A>(), stamp: Option.none<Stamp>() }
      : { value: decode(read.text), stamp: Option.some(read.stamp) }
  }
  const getStamped = Effect.sync(readNow)
  const get = Effect.sync(() => readNow().value)
  const stamp = Effect.promise(() =>
    fs.lstat(file).then((s) => (s.isFile() ? Option.some(statOf(s)) : Option.none()), () => Option.none<Stamp>())
  )

  const write = (value: Option.Option<A>) =>
    Effect.tryPromise({
      try: () =>
        Option.isNone(value)
          ? fs.rm(file, { force: true })
          : writeFileAtomic(
            file,
            (options.pretty === false ? JSON.stringify(encode(value.value)) : JSON.stringify(encode(value.value), null, 2)) + "\n",
            { mode: options.mode ?? 0o600, dirMode: options.dirMode ?? 0o700 }
          ),
      catch: (cause) => new JsonStoreError({ file, reason: "write", cause })
    })

  const modify = <B>(f: (current: Option.Option<A>, now: number) => readonly [B, Option.Option<A>]) =>
    Effect.scoped(Effect.gen(function*() {
      const state = yield* lockFile(file, options)
      if (state === "busy" && options.onLockTimeout === "fail") {
        return yield* new JsonStoreError({ file, reason: "lock", cause: `held over ${options.lockWaitMs ?? LOCK_WAIT_MS} ms` })
      }
      const now = yield* Clock.currentTimeMillis
      const current = readNow().value
      const [result, next] = f(current, now)
      // The same object back means nothing to write (a second run writes nothing).
      const unchanged = Option.isSome(current) && Option.isSome(next) ? current.value === next.value : Option.isNone(current) && Option.isNone(next)
      if (!unchanged) yield* write(next)
      return result
    }))

  const update = (f: (current: Option.Option<A>, now: number) => A) =>
    modify((current, now) => {
      const next = f(current, now)
      return [next, Option.some(next)] as const
    })

  return { file, get, getStamped, readSync: readNow, stamp, modify, update }
}

/**
 * A record whose ill-formed entries are dropped, not the whole file: a hand-edited or truncated
 * store degrades to fewer entries. Encodes as the plain record.
 */
export const lenientRecord = <V, VI>(value: Schema.Schema<V, VI>): Schema.Schema<Readonly<Record<string, V>>, Readonly<Record<string, VI>>> => {
  const decodeEntry = Schema.decodeUnknownOption(value)
  const encodeEntry = Schema.encodeSync(value)
  return Schema.transform(
    Schema.Record({ key: Schema.String, value: Schema.Unknown }),
    Schema.Record({ key: Schema.String, value: Schema.typeSchema(value) }),
    {
      strict: false,
      decode: (raw) => {
        const out: Record<string, V> = {}
        for (const [k, v] of Object.entries(raw)) {
          const decoded = decodeEntry(v)
          if (Option.isSome(decoded)) out[k] = decoded.value
        }
        return out
      },
      encode: (values) => Object.fromEntries(Object.entries(values).map(([k, v]) => [k, encodeEntry(v as V)]))
    }
  ) as never
}
