/**
 * Files that other runs and other processes read: written atomically (temp file, fsync, rename)
 * and serialized by a lock file. The one writer for tokens, caches and settings edits.
 */
import * as Schema from "effect/Schema"
import { randomBytes } from "node:crypto"
import * as fsSync from "node:fs"
import * as fs from "node:fs/promises"
import * as path from "node:path"

// ---------------------------------------------------------------------------------------------
// Atomic files and locks
// ---------------------------------------------------------------------------------------------

/** How long another process may hold a lock before we take the file anyway (ms). */
const LOCK_WAIT_MS = 2_000
/** A lock file older than this is left over from a crashed process and is removed (ms). */
const LOCK_STALE_MS = 10_000

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Modes of `writeFileAtomic`: private by default (tokens, caches, outputs). */
export interface WriteOptions {
  /** The file's mode (default 0600). */
  readonly mode?: number
  /** The mode of directories created on the way (default 0700). */
  readonly dirMode?: number
}

/**
 * Writes `data` so that readers see either the old file or the new one, never half of one:
 * a uniquely named temp file in the same directory (pid + random, so two processes never share
 * one), flushed, then renamed over the target. The temp file is removed when anything fails.
 * The one atomic writer of the host: tokens, caches, settings edits and saved outputs.
 */
export const writeFileAtomic = async (file: string, data: string | Uint8Array, options: WriteOptions = {}): Promise<void> => {
  const mode = options.mode ?? 0o600
  const dir = path.dirname(file)
  await fs.mkdir(dir, { recursive: true, mode: options.dirMode ?? 0o700 })
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`)
  try {
    const handle = await fs.open(tmp, "wx", mode)
    try {
      await handle.writeFile(data)
      await handle.chmod(mode)
      await handle.sync()
    } finally {
      await handle.close()
    }
    await fs.rename(tmp, file)
  } catch (error) {
    await fs.rm(tmp, { force: true }).catch(() => undefined)
    throw error
  }
}

// ---------------------------------------------------------------------------------------------
// Private directories: no symlink followed inside $MCPCTL_HOME
// ---------------------------------------------------------------------------------------------

/** A directory mcpctl keeps secrets or outputs in turned out to be a symbolic link (or no directory). */
export class UnsafeDirectory extends Schema.TaggedError<UnsafeDirectory>()("UnsafeDirectory", {
  dir: Schema.String,
  /** What it is instead: "is a symbolic link", "is not a directory". */
  why: Schema.String
}) {
  override get message(): string {
    return `${this.dir} ${this.why}; mcpctl follows no links inside $MCPCTL_HOME for tokens and outputs (a link could ` +
      `point its writes and chmods at another file). Remove it and run again.`
  }
}

/** `dir` exists as a real directory (created 0700 when missing), never through a symbolic link. */
export const realDir = async (dir: string): Promise<string> => {
  await fs.mkdir(dir, { mode: 0o700 }).catch((e: NodeJS.ErrnoException) => {
    if (e.code === "ENOENT") return fs.mkdir(dir, { recursive: true, mode: 0o700 })
    if (e.code !== "EEXIST") throw e
  })
  const stat = await fs.lstat(dir)
  if (stat.isSymbolicLink()) throw new UnsafeDirectory({ dir, why: "is a symbolic link" })
  if (!stat.isDirectory()) throw new UnsafeDirectory({ dir, why: "is not a directory" })
  return dir
}

/**
 * `home/<segments…>` as private directories (0700), each created or checked on the way: none may
 * be a symbolic link. `home` itself may be one (the user's own choice of where it lives).
 */
export const privateDir = async (home: string, ...segments: ReadonlyArray<string>): Promise<string> => {
  await fs.mkdir(home, { recursive: true, mode: 0o700 })
  let dir = home
  for (const segment of segments) {
    dir = await realDir(path.join(dir, segment))
    await fs.chmod(dir, 0o700)
  }
  return dir
}

/** Reads a JSON file; a missing, unreadable or corrupt file reads as `undefined`, never an error. */
export const readJsonFile = async (file: string): Promise<unknown> => {
  try {
    return JSON.parse(await fs.readFile(file, "utf8"))
  } catch {
    return undefined
  }
}

// The Promise lock of the writers not yet on `JsonStore` (settings edits, DPoP
// keys); the stores on `JsonStore` take its scoped lock file instead and keep no state here.
const inProcessLocks = new Map<string, Promise<void>>()

/** How `withFileLock` waits for another process's lock. */
export interface LockOptions {
  /** How long to wait for another process's lock, ms (default 2 s). */
  readonly waitMs?: number
  /**
   * What to do when the wait is over: `proceed` without the lock (default: caches and tokens,
   * where a lost update is cheap and a stuck run is not), or `fail` with a `LockTimeout` (settings
   * edits, where a lost entry is a silent data loss).
   */
  readonly onTimeout?: "proceed" | "fail"
  /** The mode of directories created on the way (default 0700). */
  readonly dirMode?: number
}

/** Another process held the lock of `file` for longer than the wait. */
export class LockTimeout extends Schema.TaggedError<LockTimeout>()("LockTimeout", {
  file: Schema.String,
  waitMs: Schema.Number
}) {
  override get message(): string {
    return `${this.file} is locked by another process (${this.file}.lock, held over ${this.waitMs} ms)`
  }
}

/** `held`: ours; `busy`: another process kept it past the wait; `unusable`: it cannot be created here. */
const acquireLockFile = async (lock: string, options: LockOptions): Promise<"held" | "busy" | "unusable"> => {
  const deadline = Date.now() + (options.waitMs ?? LOCK_WAIT_MS)
  await fs.mkdir(path.dirname(lock), { recursive: true, mode: options.dirMode ?? 0o700 })
  for (;;) {
    try {
      const handle = await fs.open(lock, "wx", 0o600)
      await handle.writeFile(String(process.pid))
      await handle.close()
      return "held"
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") return "unusable"
      const stat = await fs.stat(lock).catch(() => undefined)
      if (stat && Date.now() - stat.mtimeMs > LOCK_STALE_MS) {
        await fs.rm(lock, { force: true }).catch(() => undefined)
        continue
      }
      if (Date.now() > deadline) return "busy"
      await sleep(10 + Math.floor(Math.random() * 20))
    }
  }
}

/**
 * Runs a read-modify-write of `file` with no other writer in between: fibers of this process
 * queue on an in-memory chain, other processes on an `O_EXCL` lock file next to it. By default the
 * lock file is best-effort: if another process holds it longer than 2 s (or it cannot be created)
 * we go ahead anyway, and since every writer re-reads right before it renames, the worst case is
 * that one of two simultaneous updates is lost. With `onTimeout: "fail"` nothing is written
 * without the lock: the call rejects with `LockTimeout` instead.
 */
export const withFileLock = async <A>(file: string, f: () => Promise<A>, options: LockOptions = {}): Promise<A> => {
  const previous = inProcessLocks.get(file) ?? Promise.resolve()
  let release!: () => void
  const mine = new Promise<void>((resolve) => (release = resolve))
  const tail = previous.then(() => mine)
  inProcessLocks.set(file, tail)
  await previous
  const lock = `${file}.lock`
  let owned = false
  try {
    const state = await acquireLockFile(lock, options)
    owned = state === "held"
    // A lock that cannot be created (read-only directory) is no reason to refuse: the write
    // itself then fails with the real error.
    if (state === "busy" && options.onTimeout === "fail") throw new LockTimeout({ file, waitMs: options.waitMs ?? LOCK_WAIT_MS })
    return await f()
  } finally {
    if (owned) await fs.rm(lock, { force: true }).catch(() => undefined)
    release()
    if (inProcessLocks.get(file) === tail) inProcessLocks.delete(file)
  }
}

// ---------------------------------------------------------------------------------------------
// Reading files that may not be files
// ---------------------------------------------------------------------------------------------

/** Why {@link readRegularFile} refused a path that exists. */
export class NotRegularFileError extends Schema.TaggedError<NotRegularFileError>()("NotRegularFileError", {
  file: Schema.String,
  /** What the path is: "FIFO (named pipe)", "directory", …; "file" when it is only too big. */
  kind: Schema.String,
  /** Its size, when that is the refusal. */
  size: Schema.optional(Schema.Number)
}) {
  override get message(): string {
    return this.size === undefined
      ? `${this.file} is a ${this.kind}, not a regular file`
      : `${this.file} is ${this.size} bytes, more than a settings file can be`
  }
}

/** A refusal of {@link readRegularFile}, by tag (what a Node error never carries). */
export const isNotRegularFile = (e: unknown): e is NotRegularFileError =>
  typeof e === "object" && e !== null && (e as { readonly _tag?: unknown })._tag === "NotRegularFileError"

const kindOf = (stat: fsSync.Stats): string =>
  stat.isFIFO()
    ? "FIFO (named pipe)"
    : stat.isSocket()
    ? "socket"
    : stat.isCharacterDevice()
    ? "character device"
    : stat.isBlockDevice()
    ? "block device"
    : stat.isDirectory()
    ? "directory"
    : "special file"

/**
 * Reads a file as text only if it is a regular file of at most `maxBytes`: opened non-blocking
 * and checked on the open descriptor (no race with a swap), so a FIFO fails at once instead of
 * waiting for a writer forever, and `/dev/zero` cannot fill the memory. Node errors (ENOENT…) as
 * they are; refusals as {@link NotRegularFileError}.
 */
export const readRegularFile = async (file: string, maxBytes: number): Promise<string> => {
  const handle = await fs.open(file, fsSync.constants.O_RDONLY | fsSync.constants.O_NONBLOCK)
  try {
    const stat = await handle.stat()
    if (!stat.isFile()) throw new NotRegularFileError({ file, kind: kindOf(stat) })
    if (stat.size > maxBytes) throw new NotRegularFileError({ file, kind: "file", size: stat.size })
    return await handle.readFile("utf8")
  } finally {
    await handle.close()
  }
}

/** {@link readRegularFile}, synchronously (for readers that cannot wait: other hosts' files). */
export const readRegularFileSync = (file: string, maxBytes: number): string => {
  const fd = fsSync.openSync(file, fsSync.constants.O_RDONLY | fsSync.constants.O_NONBLOCK)
  try {
    const stat = fsSync.fstatSync(fd)
    if (!stat.isFile()) throw new NotRegularFileError({ file, kind: kindOf(stat) })
    if (stat.size > maxBytes) throw new NotRegularFileError({ file, kind: "file", size: stat.size })
    return fsSync.readFileSync(fd, "utf8")
  } finally {
    fsSync.closeSync(fd)
  }
}
