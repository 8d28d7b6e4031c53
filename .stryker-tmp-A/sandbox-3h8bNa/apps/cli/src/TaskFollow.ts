/**
 * Following a task (the tasks extension) from the CLI: its states as one updating stderr line on a
 * terminal (nothing elsewhere: scripts and `--json` read the result), a cancel sent to the server
 * when the wait is interrupted (Ctrl-C, SIGTERM, a daemon client that went away), and the final
 * state turned into what `call` prints or the error it exits with.
 */
// @ts-nocheck

import { McpRequestError } from "@mcpctl/core/Errors"
import { sanitizeAndCut } from "@mcpctl/core/internal/Sanitize"
import { type TaskInfo, Tasks } from "@mcpctl/core/Tasks"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { printCallResult, type ResultOf } from "./CallResult.js"
import { err } from "./Render.js"

/** How long a cancel on the way out may take before mcpctl exits anyway. */
const CANCEL_WAIT = Duration.seconds(5)

/** One line for a task's state (pure). */
export const stateLine = (task: Pick<TaskInfo, "taskId" | "status" | "statusMessage">): string =>
  `task ${task.taskId} ${task.status}${task.statusMessage ? `: ${sanitizeAndCut(task.statusMessage, 100, { multiline: false })}` : ""}`

/** Waits for the task to end, showing its states; interrupted, it cancels the task on the server. */
export const followTask = (server: string, taskId: string, label: string, tty = Boolean(process.stderr.isTTY)) =>
  Effect.flatMap(Tasks, (tasks) => {
    let shown = false
    const clear = Effect.sync(() => {
      if (shown) process.stderr.write("\r\x1b[K")
    })
    return tasks.wait(server, taskId).pipe(
      Stream.tap((task) =>
        Effect.sync(() => {
          if (!tty) return
          process.stderr.write(`\r\x1b[K${label}: ${stateLine(task)}`)
          shown = true
        })
      ),
      Stream.runLast,
      Effect.map((last) => last._tag === "Some" ? last.value : undefined),
      Effect.flatMap((last) => last === undefined ? tasks.get(server, taskId) : Effect.succeed(last)),
      Effect.ensuring(clear),
      Effect.onInterrupt(() =>
        tasks.cancel(server, taskId).pipe(
          Effect.timeout(CANCEL_WAIT),
          Effect.matchEffect({
            onFailure: (e) => Effect.sync(() => err(`mcpctl: could not cancel task ${taskId} on ${server}: ${e.message}`)),
            onSuccess: () => Effect.sync(() => err(`mcpctl: cancelled task ${taskId} on ${server}`))
          })
        ))
    )
  })

/** What a final state prints: the tool's result (as `call`), or the error the task ended with. */
export const finishTask = (of: ResultOf, task: TaskInfo, flags: { readonly json: boolean; readonly saveFull: boolean }) => {
  const fields = { taskId: task.taskId, status: task.status }
  const who = of.name === `task ${task.taskId}` ? of.name : `${of.name} (task ${task.taskId})`
  switch (task.status) {
    case "completed":
      return printCallResult(of, task.result ?? { content: [] }, flags, fields)
    case "failed":
      return Effect.fail(new McpRequestError({
        server: task.server,
        method: "tasks/get",
        code: task.error?.code ?? -32603,
        data: task.error?.data,
        fromServer: true,
        message: `${who} failed: ${task.error?.message ?? "no error given"}`
      }))
    case "cancelled":
      return Effect.fail(new McpRequestError({
        server: task.server,
        method: "tasks/get",
        code: -32800,
        fromServer: true,
        message: `${who} was cancelled${task.statusMessage ? `: ${task.statusMessage}` : ""}`
      }))
    default:
      return Effect.fail(new McpRequestError({
        server: task.server,
        method: "tasks/get",
        code: -32603,
        message: `task ${task.taskId} on ${task.server} has not ended (${task.status}): \`mcpctl task wait ${task.server} ${task.taskId}\` waits for it`
      }))
  }
}
