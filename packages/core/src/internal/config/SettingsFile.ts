/**
 * Edits of one settings file (`add`, `remove`, an "always allow" answer) that keep the user's
 * comments and formatting, never leave a half-written file behind, and never lose another
 * writer's edit: each read-modify-write holds the file's lock (`JsonStore.lockFile`, a scoped resource), so eight `mcpctl
 * add` at once write eight entries.
 */
import * as Effect from "effect/Effect"
import { applyEdits, modify, printParseErrorCode, type ParseError } from "jsonc-parser"
import { parseJsoncSafe } from "../SafeJson.js"
import type { ServerConfig } from "../../config/ServerConfig.js"
import { ConfigError } from "../../Errors.js"
import { isNotRegularFile, readRegularFile, writeFileAtomic } from "../files.js"
import { lockFile } from "../JsonStore.js"

const formattingOptions = { insertSpaces: true, tabSize: 2, eol: "\n" }

const fail = (file: string, what: string) => (e: unknown) =>
  new ConfigError({
    message: isNotRegularFile(e)
      ? `${file}: cannot ${what}: ${e.message}.`
      : `${file}: cannot ${what} (${(e as NodeJS.ErrnoException).code ?? String(e)}).`,
    file,
    cause: e
  })

/** The file's text and its parsed value; a missing file is empty, a broken one is not edited. */
const read = (file: string) =>
  Effect.tryPromise({
    // Regular files only: a FIFO would hang the edit (SettingsLoad.ts says why).
    try: () => readRegularFile(file, 16 * 1024 * 1024).catch((e: NodeJS.ErrnoException) => (e.code === "ENOENT" ? "" : Promise.reject(e))),
    catch: fail(file, "read the settings file")
  }).pipe(Effect.flatMap((text) => {
    const errors: Array<ParseError> = []
    const { value } = parseJsoncSafe(text, errors)
    if (errors.length > 0 || typeof value !== "object" || value === null || Array.isArray(value)) {
      const why = errors[0] ? printParseErrorCode(errors[0].error) : "not a JSON object"
      return Effect.fail(new ConfigError({ message: `${file}: not edited, the file is not valid settings (${why}); fix it first.`, file }))
    }
    return Effect.succeed({ text, value: value as Record<string, any> })
  }))

/**
 * Writes next to the target then renames, so a crash or a concurrent reader never sees half a
 * file. Settings are ordinary files (0644 under the umask's directories), not secrets stores.
 */
const writeAtomic = (file: string, text: string) =>
  Effect.tryPromise({
    try: () => writeFileAtomic(file, text.endsWith("\n") ? text : `${text}\n`, { mode: 0o644, dirMode: 0o755 }),
    catch: fail(file, "write the settings file")
  })

/** jsonc-parser throws when the path crosses a non-object (`"permissions": 1`): a ConfigError, not a defect. */
const edit = (file: string, text: string, path: Array<string | number>, value: unknown, isArrayInsertion = false) =>
  Effect.try({
    try: () => applyEdits(text, modify(text, path, value, { formattingOptions, isArrayInsertion })),
    catch: (e) => new ConfigError({ message: `${file}: cannot set ${path.join(".")} (${String(e)}); fix the file by hand.`, file, cause: e })
  })

/** How long an edit waits for another process's edit of the same file (longer than a stale lock lives). */
const LOCK_WAIT_MS = 15_000

/**
 * Runs one read-modify-write of `file` under its lock. Nothing is written without the lock: a
 * writer that waited too long fails naming the lock file, instead of overwriting another edit.
 */
const locked = <A>(file: string, change: Effect.Effect<A, ConfigError>): Effect.Effect<A, ConfigError> =>
  // The lock is a scoped resource and the edit runs on the caller's fiber: its runtime (logger,
  // tracer, services) and its interruption, released with the scope whatever the edit's end.
  Effect.scoped(Effect.flatMap(lockFile(file, { lockWaitMs: LOCK_WAIT_MS, dirMode: 0o755 }), (state) =>
    state === "busy"
      ? Effect.fail(
        new ConfigError({
          message: `${file}: not edited, another process has been editing it for over ${LOCK_WAIT_MS / 1000} s. ` +
            `If no mcpctl is running, delete ${file}.lock and try again.`,
          file,
          cause: `${file}.lock held over ${LOCK_WAIT_MS} ms`
        })
      )
      : change))

/** Adds or replaces one server under `mcpServers`, creating the file and its directory if needed. */
export const writeServerEntry = Effect.fn("SettingsFile.writeServerEntry")(
  function*(file: string, name: string, config: ServerConfig | Record<string, unknown>) {
    yield* locked(file, Effect.gen(function*() {
      const { text } = yield* read(file)
      yield* writeAtomic(file, yield* edit(file, text, ["mcpServers", name], config))
    }))
  }
)

/** Removes one server; `false` (and no write) when the file does not define it. */
export const removeServerEntry = Effect.fn("SettingsFile.removeServerEntry")(function*(file: string, name: string) {
  return yield* locked(file, Effect.gen(function*() {
    const { text, value } = yield* read(file)
    const servers = value.mcpServers
    if (typeof servers !== "object" || servers === null || !Object.hasOwn(servers, name)) return false
    yield* writeAtomic(file, yield* edit(file, text, ["mcpServers", name], undefined))
    return true
  }))
})

/** Appends a permission rule unless already there; the "always" answer writes an allow rule this way. */
export const addPermissionRule = Effect.fn("SettingsFile.addPermissionRule")(
  function*(file: string, behavior: "allow" | "ask" | "deny", rule: string) {
    yield* locked(file, Effect.gen(function*() {
      const { text, value } = yield* read(file)
      const existing: unknown = value.permissions?.[behavior]
      if (Array.isArray(existing) && existing.includes(rule)) return
      const next = Array.isArray(existing)
        ? edit(file, text, ["permissions", behavior, -1], rule, true)
        : edit(file, text, ["permissions", behavior], [rule])
      yield* writeAtomic(file, yield* next)
    }))
  }
)

/** What `writeServerEntries` did (or, with `dryRun`, would do). */
export interface EntriesWritten {
  /** Names written that the file did not define. */
  readonly added: ReadonlyArray<string>
  /** Names the file defined and `force` replaced. */
  readonly replaced: ReadonlyArray<string>
  /** Names the file already defines, left as they are (no `force`). */
  readonly skipped: ReadonlyArray<string>
  /** Allow rules appended. */
  readonly allowed: ReadonlyArray<string>
}

/**
 * Writes several servers (and allow rules) into one file in one atomic write (`import`): a name
 * the file already defines is skipped unless `force`; comments and formatting are kept.
 */
export const writeServerEntries = Effect.fn("SettingsFile.writeServerEntries")(function*(
  file: string,
  entries: ReadonlyArray<{ readonly name: string; readonly config: ServerConfig | Record<string, unknown> }>,
  options: { readonly force?: boolean; readonly allow?: ReadonlyArray<string>; readonly dryRun?: boolean } = {}
) {
  return yield* locked(file, writeEntries(file, entries, options))
})

const writeEntries = (
  file: string,
  entries: ReadonlyArray<{ readonly name: string; readonly config: ServerConfig | Record<string, unknown> }>,
  options: { readonly force?: boolean; readonly allow?: ReadonlyArray<string>; readonly dryRun?: boolean }
) => Effect.gen(function*() {
  const { text, value } = yield* read(file)
  const existing: Record<string, unknown> = typeof value.mcpServers === "object" && value.mcpServers !== null ? value.mcpServers : {}
  const result = { added: [] as Array<string>, replaced: [] as Array<string>, skipped: [] as Array<string>, allowed: [] as Array<string> }
  let next = text
  for (const { config, name } of entries) {
    const defined = Object.hasOwn(existing, name)
    if (defined && !options.force) {
      result.skipped.push(name)
      continue
    }
    next = yield* edit(file, next, ["mcpServers", name], config)
    ;(defined ? result.replaced : result.added).push(name)
  }
  const rules: unknown = value.permissions?.allow
  const have = Array.isArray(rules) ? rules : []
  const add = [...new Set(options.allow ?? [])].filter((rule) => !have.includes(rule))
  if (add.length > 0 && !Array.isArray(rules)) next = yield* edit(file, next, ["permissions", "allow"], add)
  else for (const rule of add) next = yield* edit(file, next, ["permissions", "allow", -1], rule, true)
  result.allowed.push(...add)
  if (!options.dryRun && next !== text) yield* writeAtomic(file, next)
  return result as EntriesWritten
})
