/**
 * The tasks this host started, by server (`$MCPCTL_HOME/tasks.json`): the tasks extension has no
 * `tasks/list`, so `Tasks.list` asks the server about each task recorded here. An entry goes when
 * the server no longer knows the task, past its time to live (a day when the server gave none),
 * or when the file holds more than {@link MAX_ENTRIES} (the oldest go first).
 */
// @ts-nocheck

import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Path from "node:path"
import * as JsonStore from "./JsonStore.js"

const Entry = Schema.Struct({
  server: Schema.String,
  taskId: Schema.String,
  tool: Schema.String,
  /** When it was started here (ms since the epoch). */
  startedAt: Schema.Number,
  ttlMs: Schema.optional(Schema.NullOr(Schema.Number))
})
export type TaskLogEntry = typeof Entry.Type

const Entries = JsonStore.lenientRecord(Entry)
type Entries = typeof Entries.Type

export const MAX_ENTRIES = 200
const DAY_MS = 24 * 60 * 60_000

const keyOf = (server: string, taskId: string) => `${server}\u0000${taskId}`

/** The entries still worth asking about, newest last (pure). */
export const pruned = (entries: Entries, now: number): Entries => {
  const alive = Object.entries(entries).filter(([, e]) => e.startedAt + (e.ttlMs ?? DAY_MS) > now)
  alive.sort(([, a], [, b]) => a.startedAt - b.startedAt)
  return Object.fromEntries(alive.slice(-MAX_ENTRIES))
}

export interface TaskLog {
  readonly add: (entry: Omit<TaskLogEntry, "startedAt">) => Effect.Effect<void>
  readonly of: (server: string) => Effect.Effect<ReadonlyArray<TaskLogEntry>>
  readonly remove: (server: string, taskIds: ReadonlyArray<string>) => Effect.Effect<void>
}

/** The log under `home`; a failed write is logged at debug level, never an error (it is a convenience). */
export const taskLog = (home: string): TaskLog => {
  const store = JsonStore.make(Path.join(home, "tasks.json"), Entries)
  const quiet = <A>(effect: Effect.Effect<A, JsonStore.JsonStoreError>) =>
    Effect.asVoid(Effect.catchAll(effect, (e) => Effect.logDebug(`tasks: ${e.message}`)))
  return {
    add: (entry) =>
      quiet(store.update((current, now) =>
        pruned({ ...Option.getOrElse(current, () => ({})), [keyOf(entry.server, entry.taskId)]: { ...entry, startedAt: now } }, now)
      )),
    of: (server) =>
      Effect.map(store.get, (current) =>
        Object.values(Option.getOrElse(current, () => ({}) as Entries))
          .filter((e) => e.server === server)
          .sort((a, b) => a.startedAt - b.startedAt)),
    remove: (server, taskIds) =>
      taskIds.length === 0 ? Effect.void : quiet(store.update((current, now) => {
        const next = { ...Option.getOrElse(current, () => ({}) as Entries) }
        for (const id of taskIds) delete next[keyOf(server, id)]
        return pruned(next, now)
      }))
  }
}
