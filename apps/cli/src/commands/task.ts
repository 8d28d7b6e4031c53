/**
 * `mcpctl task get|wait|result|cancel SERVER ID` and `mcpctl task list SERVER`: the tasks a server
 * runs for calls it made tasks of (the tasks extension), e.g. after `call --detach`.
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import type { McpctlError } from "@mcpctl/core/Errors"
import { type TaskInfo, Tasks } from "@mcpctl/core/Tasks"
import * as Effect from "effect/Effect"
import type { ResultOf } from "../CallResult.js"
import * as Flags from "../Flags.js"
import { type Host, type HostOptions, runOnHost } from "../Host.js"
import { checkServerNames } from "../Progress.js"
import { err, json, out } from "../Render.js"
import { finishTask, followTask, stateLine } from "../TaskFollow.js"

const server = Args.text({ name: "server" }).pipe(Args.withDescription("Server name"))
const id = Args.text({ name: "id" }).pipe(Args.withDescription("The task id (`call --detach` prints it)"))
const saveFull = Options.boolean("save-full").pipe(
  Options.withDescription("When the result is cut to the output budget, save its full text to a file the result names")
)

/** A task as `--json` shows it (the result and error as the server sent them). */
const document = (task: TaskInfo) => ({ ...task, result: task.result ?? null, error: task.error ?? null })

/** Whose result it is: the server's task (the tool that started it is not sent with it). */
const resultOf = (server: string, taskId: string): ResultOf => ({ name: `task ${taskId}`, server, tool: "" })

const flags = { ...Flags.global, ...Flags.adhoc } as const

/** Runs a task command with the server checked and the Tasks service there. */
const onServer = <A, E extends McpctlError>(command: string, options: HostOptions, name: string, program: Effect.Effect<A, E, Tasks | Host>) =>
  runOnHost(`task ${command}`, options, Effect.zipRight(checkServerNames([name]), program).pipe(Effect.provide(Tasks.layer)))

const get = Command.make("get", { ...flags, server, id }, (f) =>
  onServer("get", f, f.server, Effect.gen(function*() {
    const task = yield* (yield* Tasks).get(f.server, f.id)
    if (f.json) return json(document(task))
    out(stateLine(task))
    if (task.status === "failed" && task.error) err(`error ${task.error.code}: ${task.error.message}`)
  }))).pipe(Command.withDescription("Show a task's state now (without its result: `task result`)"))

/** `task wait --yes`: a task that asks for input gets its forms' defaults, as `call --yes` would give them. */
const yes = Options.boolean("yes").pipe(
  Options.withAlias("y"),
  Options.withDescription("Answer a task's questions (forms) with their defaults, as `call --yes` does")
)

const wait = Command.make("wait", { ...flags, saveFull, yes, server, id }, (f) =>
  onServer("wait", f, f.server, Effect.gen(function*() {
    const final = yield* followTask(f.server, f.id, f.server)
    return yield* finishTask(resultOf(f.server, f.id), final, f)
  }))).pipe(Command.withDescription("Wait for a task to end and print its result, as `call` would (Ctrl-C cancels the task)"))

const result = Command.make("result", { ...flags, saveFull, server, id }, (f) =>
  onServer("result", f, f.server, Effect.gen(function*() {
    const task = yield* (yield* Tasks).get(f.server, f.id)
    return yield* finishTask(resultOf(f.server, f.id), task, f)
  }))).pipe(Command.withDescription("Print the result of a task that has ended (exit 1 while it runs)"))

const cancel = Command.make("cancel", { ...flags, server, id }, (f) =>
  onServer("cancel", f, f.server, Effect.gen(function*() {
    const tasks = yield* Tasks
    yield* tasks.cancel(f.server, f.id)
    const task = yield* tasks.get(f.server, f.id)
    if (f.json) return json(document(task))
    out(stateLine(task))
  }))).pipe(Command.withDescription("Ask the server to cancel a task; prints its state after"))

const list = Command.make("list", { ...flags, server }, (f) =>
  onServer("list", f, f.server, Effect.gen(function*() {
    const tasks = yield* (yield* Tasks).list(f.server)
    if (f.json) return json({ server: f.server, tasks: tasks.map(document) })
    if (tasks.length === 0) return err(`No tasks started on ${f.server} from here that it still knows.`)
    for (const t of tasks) out(`${stateLine(t)}  (${t.tool}${t.createdAt ? `, ${t.createdAt}` : ""})`)
  }))).pipe(Command.withDescription("The tasks started from here on a server that it still knows, with their state"))

export const task = Command.make("task").pipe(
  Command.withDescription("Tasks: calls a server runs in the background (`call --detach` starts one)"),
  Command.withSubcommands([get, wait, result, cancel, list])
)
