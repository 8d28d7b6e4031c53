/**
 * Tasks through `serve` (the `io.modelcontextprotocol/tasks` extension, SEP-2663). The pool
 * declares the extension to every server, so a server may answer a `tools/call` with a task.
 *
 * - A client that negotiated the extension (in its `initialize`, or in the request's 2026-07-28
 *   envelope) gets the task as the server sent it, under serve's task id, and its `tasks/get`,
 *   `tasks/update` and `tasks/cancel` go to the server that made it. The id names that server
 *   (`<server>:<id>`, the server's own id when serve has one server), so any request of the
 *   client finds the task: another session, a stateless request, another replica.
 * - A client that did not is answered as the server would answer it directly: a 2026-07-28
 *   request's envelope carries that client's negotiation, not the pool's (CallOptions.tasks,
 *   InputRelay.requestCapabilities), so the server runs the call without a task, or refuses a
 *   tool that needs one with -32021. A 2025-era connection has no per-request capabilities (the
 *   pool declared tasks at initialize): there serve follows the task to its end and answers with
 *   its result (a `failed` task is the server's JSON-RPC error); the client cancelling its call
 *   cancels the task. A task that needs input such a client cannot give is cancelled.
 *
 * The extension has no `tasks/list` and no `tasks/result`: serve answers them -32601, as the SDK
 * does for any method it has no handler for.
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { pollDelay } from "../../catalog/Tasks.js"
import { McpRequestError } from "../../Errors.js"
import { ConnectionPool } from "../../pool/ConnectionPool.js"
import { taskRequest } from "../catalog/taskRequest.js"
import { CLIENT_CAPABILITIES_KEY } from "../pool/InputRelay.js"
import { TASK_RESULT_KEY, TASKS_EXTENSION } from "../pool/hostClient.js"
import { asOurs } from "./GatewayRelay.js"
import { JsonRpc, protocolError } from "./GatewayRequests.js"

export { TASKS_EXTENSION }

/** The JSON-RPC code of a request the client has not declared the capability for (SEP-2575). */
export const MISSING_CLIENT_CAPABILITY = -32021

/** The task methods serve routes to the server that owns the task. */
export const TASK_METHODS = ["tasks/get", "tasks/update", "tasks/cancel"] as const

/**
 * Whether our client negotiated the extension for this request: in the request's 2026-07-28
 * envelope, in the request's own `_meta`, or in its `initialize` (2025 era) (pure).
 */
export const negotiatesTasks = (envelope: object | undefined, meta: object | undefined, declared: object | undefined): boolean => {
  const has = (capabilities: unknown) =>
    (capabilities as { extensions?: Record<string, unknown> } | undefined)?.extensions?.[TASKS_EXTENSION] !== undefined
  // The SDK's parsed envelope names it `clientCapabilities`; the wire's `_meta`, by its full key.
  const env = envelope as Record<string, unknown> | undefined
  return has(env?.clientCapabilities) || has(env?.[CLIENT_CAPABILITIES_KEY]) ||
    has((meta as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_KEY]) ||
    has(declared)
}

/**
 * How task ids are named to serve's clients: `<server>:<id>`, or the server's own id when serve
 * has only one server (`single`). Server names are `[A-Za-z0-9_-]`, so the first `:` ends one (pure).
 */
export const taskIds = (servers: ReadonlyArray<string>) => {
  const single = servers.length === 1 ? servers[0] : undefined
  return {
    ours: (server: string, taskId: string): string => (single !== undefined ? taskId : `${server}:${taskId}`),
    route: (id: string): { readonly server: string; readonly taskId: string } | undefined => {
      if (single !== undefined) return { server: single, taskId: id }
      const at = id.indexOf(":")
      const server = id.slice(0, at)
      return at > 0 && servers.includes(server) ? { server, taskId: id.slice(at + 1) } : undefined
    }
  }
}

/** A task's wire fields, as the server sent them (the lifted `tools/call` answer, or `tasks/get`'s). */
interface RawTask {
  readonly [key: string]: unknown
  readonly taskId: string
  readonly status?: unknown
  readonly pollIntervalMs?: number | undefined
  readonly result?: unknown
  readonly error?: { readonly code?: unknown; readonly message?: unknown; readonly data?: unknown } | undefined
}

const FINAL = new Set(["completed", "failed", "cancelled"])

/** The task a `tools/call` result carries instead of a result (hostClient lifts it there), if any (pure). */
export const carriedTask = (result: object): RawTask | undefined => {
  const raw = (result as Record<string, unknown>)[TASK_RESULT_KEY] as RawTask | undefined
  return raw !== undefined && raw !== null && typeof raw === "object" && typeof raw.taskId === "string" ? raw : undefined
}

/** Whether a result is a task answer for our client (`resultType: "task"`), to be sent on unshaped (pure). */
export const isTaskAnswer = (result: object): boolean => (result as { resultType?: unknown }).resultType === "task"

/** How long a cancel sent on the way out may take: the client is gone, nobody waits for it. */
const CANCEL_BOUND = Duration.seconds(5)

/** The gateway's side of tasks, for the enabled servers `servers`; `denied` servers own no task. */
export const makeGatewayTasks = (servers: ReadonlyArray<string>, denied: (server: string) => boolean) =>
  Effect.map(ConnectionPool, (pool) => {
    const ids = taskIds(servers)

    const failedCall = (server: string, message: string, fromServer: boolean, code: number = JsonRpc.InternalError, data?: unknown) =>
      new McpRequestError({ server, method: "tools/call", code, message, ...(data !== undefined ? { data } : {}), fromServer })

    /** Follows the task to its end, for a client that cannot poll: its final state. */
    const follow = (server: string, taskId: string, first: RawTask) =>
      Effect.gen(function*() {
        let task = first
        while (!FINAL.has(String(task.status))) {
          if (task.status === "input_required") {
            return yield* Effect.fail(failedCall(server, `${server}'s task needs input, which this client cannot give (it did not negotiate the tasks extension); the task was cancelled.`, false))
          }
          yield* Effect.sleep(pollDelay(task))
          task = (yield* taskRequest(pool, server, "tasks/get", { taskId })) as RawTask
        }
        return task
      }).pipe(
        // Interrupted (the client cancelled, or went away), or given up on: the task is not left running.
        Effect.onExit((exit) =>
          exit._tag === "Success" ? Effect.void : Effect.ignore(Effect.timeout(taskRequest(pool, server, "tasks/cancel", { taskId }), CANCEL_BOUND))
        )
      )

    return {
      /**
       * A `tools/call` answer of `server` for our client: a task under serve's id when the client
       * negotiated tasks, else the task's result once it ends; any other answer as it came.
       */
      settle: <R extends object>(server: string, result: R, negotiated: boolean) =>
        Effect.gen(function*() {
          const task = carriedTask(result)
          if (task === undefined) return result
          const meta = (result as { _meta?: unknown })._meta
          if (negotiated) {
            return asOurs({ ...task, ...(meta !== undefined ? { _meta: meta } : {}), resultType: "task", taskId: ids.ours(server, task.taskId) }) as unknown as R
          }
          const last = yield* follow(server, task.taskId, task)
          if (last.status === "completed" && last.result !== null && typeof last.result === "object") return last.result as R
          if (last.status === "failed") {
            const error = last.error ?? {}
            return yield* Effect.fail(failedCall(
              server,
              typeof error.message === "string" ? error.message : `${server}'s task failed`,
              true,
              typeof error.code === "number" ? error.code : JsonRpc.InternalError,
              error.data
            ))
          }
          return yield* Effect.fail(failedCall(server, `${server}'s task ended ${String(last.status)} without a result.`, false))
        }),

      /**
       * `tasks/get`, `tasks/update` or `tasks/cancel` of our client, sent to the server that owns
       * the task, its answer under serve's id.
       */
      forward: (method: string, params: Record<string, unknown>, negotiated: boolean) =>
        Effect.gen(function*() {
          if (!negotiated) {
            return yield* Effect.fail(protocolError(MISSING_CLIENT_CAPABILITY, `${method} needs the ${TASKS_EXTENSION} extension, which this client did not declare`, {
              requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } }
            }))
          }
          const id = params.taskId
          const route = typeof id === "string" ? ids.route(id) : undefined
          if (route === undefined || denied(route.server)) {
            return yield* Effect.fail(protocolError(JsonRpc.InvalidParams, `unknown task ${String(id)}`))
          }
          const { _meta: _ours, ...rest } = params
          const answer = (yield* taskRequest(pool, route.server, method, { ...rest, taskId: route.taskId })) as Record<string, unknown>
          const out = asOurs(answer)
          return typeof out.taskId === "string" ? { ...out, taskId: ids.ours(route.server, out.taskId) } : out
        })
    }
  })
