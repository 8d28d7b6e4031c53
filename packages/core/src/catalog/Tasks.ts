/**
 * Tasks (the `io.modelcontextprotocol/tasks` extension, SEP-2663): a server may answer a
 * `tools/call` with a task instead of a result, when the client declared the extension (the pool
 * does, unless `PoolOptions.tasks` is false). The task is then polled (`tasks/get`, whose answer
 * carries the tool's result, or the protocol error, once the task has ended), cancelled
 * (`tasks/cancel`), or waited on: {@link wait} is a `Stream` of its states, one element per
 * change of status or status message, ending with the final one. The server decides which calls
 * become tasks; the extension has no `tasks/list` and no `tasks/result`: {@link Tasks} `list`
 * asks the server about each task this host started there (recorded in `$MCPCTL_HOME/tasks.json`).
 *
 * A task that needs input (`input_required`, its `inputRequests` keyed by the server's ids) is
 * answered while it is waited on: each `elicitation/create` goes to the host's {@link Elicitation}
 * policy (a prompt on a terminal, the defaults under `--yes`), the answers go back with
 * `tasks/update`, and the task resumes on the server. A request the host cannot answer (no
 * elicitation layer, or sampling and roots, which mcpctl does not offer) ends the wait with an
 * error that says so; the task stays on the server until it is cancelled or expires.
 *
 * Every request goes through `ConnectionPool.run` (in {@link request}), so a task started by one
 * command can be looked at by another, on another connection, as long as the server keeps it (an
 * HTTP server, or a stdio server the daemon keeps running).
 */
import type { CallToolResult } from "@modelcontextprotocol/client"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import type { ElicitRequest } from "@modelcontextprotocol/client"
import { McpConfig } from "../config/McpConfig.js"
import { Elicitation, fromSdkRequest } from "../elicitation/Elicitation.js"
import { McpRequestError, type ServerUnavailable } from "../Errors.js"
import { taskLog } from "../internal/taskLog.js"
import { TASK_RESULT_KEY } from "../internal/pool/hostClient.js"
import { ConnectionPool } from "../pool/ConnectionPool.js"
import { taskRequest } from "../internal/catalog/taskRequest.js"
import type { RequestError } from "../internal/pool/RequestErrors.js"
import { type CallOptions, type McpTool, ToolRegistry } from "./ToolRegistry.js"

/**
 * A task's states; the last three are final.
 * @since 0.1.0
 */
export const TaskStatus = Schema.Literal("working", "input_required", "completed", "failed", "cancelled")
/** @since 0.1.0 */
export type TaskStatus = typeof TaskStatus.Type

/** The protocol error a failed task ended with. */
const TaskError = Schema.Struct({
  code: Schema.Number,
  message: Schema.String,
  data: Schema.optional(Schema.Unknown)
})

/** A task as the server reports it (`CreateTaskResult`, or `tasks/get`'s `DetailedTask`). */
const WireTask = Schema.Struct({
  taskId: Schema.String,
  status: TaskStatus,
  statusMessage: Schema.optional(Schema.String),
  createdAt: Schema.optional(Schema.String),
  lastUpdatedAt: Schema.optional(Schema.String),
  ttlMs: Schema.optional(Schema.NullOr(Schema.Number)),
  pollIntervalMs: Schema.optional(Schema.Number),
  result: Schema.optional(Schema.Unknown),
  error: Schema.optional(TaskError),
  inputRequests: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
})

/**
 * A task of a server.
 * @since 0.1.0
 */
export interface TaskInfo extends Omit<typeof WireTask.Type, "result"> {
  readonly server: string
  /** The tool's result, once the task `completed` (`isError` when the tool reported an error). */
  readonly result?: CallToolResult | undefined
}

/**
 * Whether a task has ended (pure).
 * @since 0.1.0
 */
export const isFinal = (task: Pick<TaskInfo, "status">): boolean =>
  task.status === "completed" || task.status === "failed" || task.status === "cancelled"

const decodeTask = Schema.decodeUnknownEither(WireTask)

/** A server's task answer as a TaskInfo; an ill-shaped one is mcpctl's refusal of it. */
const toTask = (server: string, method: string, raw: unknown): Effect.Effect<TaskInfo, McpRequestError> => {
  const decoded = decodeTask(raw, { onExcessProperty: "ignore" })
  if (decoded._tag === "Right") return Effect.succeed({ ...decoded.right, server } as TaskInfo)
  return Effect.fail(new McpRequestError({
    server,
    method,
    code: -32603,
    refusedAnswer: true,
    message: `${server} answered ${method} with something that is not a task: ${ParseResult.TreeFormatter.formatErrorSync(decoded.left)}`
  }))
}

/**
 * The task a `tools/call` result carries instead of a result, if it does (pure).
 * @since 0.1.0
 */
export const taskOf = (server: string, result: CallToolResult): TaskInfo | undefined => {
  const raw = (result as Record<string, unknown>)[TASK_RESULT_KEY]
  if (raw === undefined) return undefined
  const decoded = decodeTask(raw, { onExcessProperty: "ignore" })
  return decoded._tag === "Right" ? { ...decoded.right, server } as TaskInfo : undefined
}

/**
 * A task of {@link Tasks} `list`: with the tool that started it.
 * @since 0.1.0
 */
export interface ListedTask extends TaskInfo {
  readonly tool: string
}

/**
 * What a call the server may turn into a task gave: a result, or a task.
 * @since 0.1.0
 */
export type Started =
  | { readonly _tag: "Result"; readonly tool: McpTool; readonly result: CallToolResult }
  | { readonly _tag: "Task"; readonly tool: McpTool; readonly task: TaskInfo }

/**
 * How long between two `tasks/get` of {@link wait}: the server's hint, within 100 ms – 5 s (pure).
 * @since 0.1.0
 */
export const pollDelay = (task: Pick<TaskInfo, "pollIntervalMs">, fallbackMs = 1_000): Duration.Duration =>
  Duration.millis(Math.min(5_000, Math.max(100, task.pollIntervalMs ?? fallbackMs)))

/** The one place task requests are sent (the pool's seam). */
const request = taskRequest

/** @since 0.1.0 */
export class Tasks extends Context.Tag("@mcpctl/core/Tasks")<
  Tasks,
  {
    /**
     * Calls a tool (as `ToolRegistry.call`: permission, pins, timeout) and says whether the
     * server answered or made a task of it.
     */
    readonly start: (
      name: string,
      args: Record<string, unknown>,
      options?: CallOptions
    ) => Effect.Effect<Started, Effect.Effect.Error<ReturnType<ToolRegistry["Type"]["call"]>>>
    /** The task's state now (`tasks/get`). */
    readonly get: (server: string, taskId: string) => Effect.Effect<TaskInfo, ServerUnavailable | RequestError>
    /** Asks the server to cancel the task (`tasks/cancel`); its state says when it is. */
    readonly cancel: (server: string, taskId: string) => Effect.Effect<void, ServerUnavailable | RequestError>
    /**
     * The task's states from now on, one per change of status or status message, polled at the
     * server's `pollIntervalMs`; the stream ends with the final state.
     */
    readonly wait: (server: string, taskId: string) => Stream.Stream<TaskInfo, ServerUnavailable | RequestError>
    /** Waits for the task to end; its final state (with the result, or the error). */
    readonly result: (server: string, taskId: string) => Effect.Effect<TaskInfo, ServerUnavailable | RequestError>
    /**
     * The tasks this host started on the server that the server still knows, oldest first, each
     * as `tasks/get` has it now (the ones it no longer knows are forgotten).
     */
    readonly list: (server: string) => Effect.Effect<ReadonlyArray<ListedTask>, ServerUnavailable | RequestError>
  }
>() {
  static readonly layer: Layer.Layer<Tasks, never, ConnectionPool | ToolRegistry | McpConfig> = Layer.effect(
    Tasks,
    Effect.gen(function*() {
      const pool = yield* ConnectionPool
      const registry = yield* ToolRegistry
      const log = taskLog((yield* McpConfig).home)
      // As for the registry: a host without an elicitation layer answers nothing (and declares nothing).
      const elicitation = Option.getOrUndefined(yield* Effect.serviceOption(Elicitation))

      /** One input request of a task, answered by the host's policy. */
      const answerOne = (server: string, taskId: string, key: string, entry: unknown): Effect.Effect<unknown, McpRequestError> => {
        const method = (entry as { method?: unknown } | null)?.method
        if (method === "elicitation/create" && elicitation !== undefined) {
          return elicitation.answer(fromSdkRequest(entry as ElicitRequest, server))
        }
        return Effect.fail(new McpRequestError({
          server,
          method: "tasks/update",
          code: -32603,
          message: `task ${taskId} on ${server} needs input mcpctl cannot give (${typeof method === "string" ? method : "no method"} ` +
            `for "${key}"${method === "elicitation/create" ? ": this host answers no elicitation" : ""}); ` +
            `\`mcpctl task cancel ${server} ${taskId}\` cancels it`
        }))
      }

      /** Answers what the task asks that this wait has not answered yet, one request after another, and sends the answers. */
      const answerInputs = (task: TaskInfo, answered: Set<string>) => {
        const asked = Object.entries(task.inputRequests ?? {}).filter(([key]) => !answered.has(key))
        return Effect.forEach(asked, ([key, entry]) => Effect.map(answerOne(task.server, task.taskId, key, entry), (answer) => [key, answer] as const)).pipe(
          Effect.tap(() => Effect.sync(() => asked.forEach(([key]) => answered.add(key)))),
          Effect.flatMap((answers) =>
            request(pool, task.server, "tasks/update", { taskId: task.taskId, inputResponses: Object.fromEntries(answers) }))
        )
      }

      /** Whether the task waits on input this wait has not answered yet (pure). */
      const asksAnew = (task: TaskInfo, answered: ReadonlySet<string>) =>
        task.status === "input_required" && Object.keys(task.inputRequests ?? {}).some((key) => !answered.has(key))

      const get = (server: string, taskId: string) =>
        Effect.flatMap(request(pool, server, "tasks/get", { taskId }), (raw) => toTask(server, "tasks/get", raw))

      const cancel = (server: string, taskId: string) => Effect.asVoid(request(pool, server, "tasks/cancel", { taskId }))

      const wait = (server: string, taskId: string) =>
        Stream.suspend(() => {
          // The keys answered by this wait: a poll that comes before the server took the answers in is not asked again.
          const answered = new Set<string>()
          return Stream.paginateEffect(Option.none<TaskInfo>(), (previous: Option.Option<TaskInfo>) =>
            Effect.map(
              Option.match(previous, {
                onNone: () => get(server, taskId),
                // Asked: answered as soon as its state has been emitted (shown), then looked at again at once.
                onSome: (task) =>
                  Effect.zipRight(
                    asksAnew(task, answered) ? answerInputs(task, answered) : Effect.sleep(pollDelay(task)),
                    get(server, taskId)
                  )
              }),
              (task) => [task, isFinal(task) ? Option.none() : Option.some(Option.some(task))] as const
            ))
        }).pipe(
          Stream.changesWith((a, b) => a.status === b.status && a.statusMessage === b.statusMessage)
        )

      const result = (server: string, taskId: string) =>
        Effect.map(Stream.runLast(wait(server, taskId)), (last) => Option.getOrThrow(last))

      const start = (name: string, args: Record<string, unknown>, options?: CallOptions) =>
        Effect.flatMap(registry.call(name, args, options), ({ result, tool }): Effect.Effect<Started> => {
          const task = taskOf(tool.server, result)
          if (task === undefined) return Effect.succeed({ _tag: "Result", tool, result })
          return Effect.as(log.add({ server: tool.server, taskId: task.taskId, tool: tool.name, ttlMs: task.ttlMs }), { _tag: "Task", tool, task })
        })

      const list = (server: string) =>
        Effect.gen(function*() {
          const entries = yield* log.of(server)
          const found = yield* Effect.forEach(entries, (entry) =>
            get(server, entry.taskId).pipe(
              Effect.map((task): ListedTask | undefined => ({ ...task, tool: entry.tool })),
              // Unknown to the server (ended and expired, or another server by that name).
              Effect.catchIf((e) => e._tag === "McpRequestError" && e.code === -32602, () => Effect.succeed(undefined))
            ), { concurrency: 4 })
          yield* log.remove(server, entries.filter((_, i) => found[i] === undefined).map((e) => e.taskId))
          return found.filter((t): t is ListedTask => t !== undefined)
        })

      return Tasks.of({ start, get, cancel, wait, result, list })
    })
  )
}
