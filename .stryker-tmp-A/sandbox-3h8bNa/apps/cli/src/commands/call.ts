/** `mcpctl call NAME [--args JSON] [key=value…] [--detach]`: check permission, run one tool (or follow the task it became). */
// @ts-nocheck

import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { sanitizeAndCut } from "@mcpctl/core/internal/Sanitize"
import { setLogLevel } from "@mcpctl/core/Resources"
import { withInlineAuth } from "@mcpctl/core/SignIn"
import { isFinal, Tasks } from "@mcpctl/core/Tasks"
import { ToolRegistry } from "@mcpctl/core/ToolRegistry"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { buildArguments, checkRequired } from "../Args.js"
import { printCallResult } from "../CallResult.js"
import * as Flags from "../Flags.js"
import { runOnHost } from "../Host.js"
import { err, json, out } from "../Render.js"
import { finishTask, followTask } from "../TaskFollow.js"

const name = Args.text({ name: "name" }).pipe(Args.withDescription("Tool name, mcp__<server>__<tool>"))
const pairs = Args.text({ name: "key=value" }).pipe(
  Args.withDescription("One argument of the tool; the value is coerced by its input schema (n=3 is a number where it says so)"),
  Args.repeated
)
const argsJson = Options.text("args").pipe(Options.optional, Options.withDescription("Arguments as a JSON object"))
const timeout = Options.integer("timeout").pipe(
  Options.withSchema(Schema.Int.pipe(Schema.positive({ message: () => "--timeout must be a positive number of milliseconds" }))),
  Options.optional,
  Options.withDescription("Tool-call timeout in ms (overrides the server's timeout and MCP_TOOL_TIMEOUT)")
)
const saveFull = Options.boolean("save-full").pipe(
  Options.withDescription("When the result is cut to the output budget, save its full text to a file the result names")
)

const detach = Options.boolean("detach").pipe(
  Options.withDescription(
    "When the server runs the call as a task: print the task id and exit 0 instead of waiting (`mcpctl task wait SERVER ID` waits later)"
  )
)

/**
 * Server progress notifications as one updating stderr line, only on a terminal (scripts and
 * `--json` consumers never see carriage returns); `done` clears the line before output.
 */
const progressLine = (label: string, enabled = Boolean(process.stderr.isTTY)) => {
  let shown = false
  return {
    onProgress: enabled
      ? (p: { progress: number; total?: number; message?: string }) => {
        const of = p.total ? `${p.progress}/${p.total} (${Math.round((p.progress / p.total) * 100)}%)` : `${p.progress}`
        const message = p.message ? ` ${sanitizeAndCut(p.message, 100, { multiline: false })}` : ""
        process.stderr.write(`\r\x1b[K${label}: ${of}${message}`)
        shown = true
      }
      : undefined,
    done: Effect.sync(() => {
      if (shown) process.stderr.write("\r\x1b[K")
    })
  }
}

export const call = Command.make(
  "call",
  { ...Flags.global, ...Flags.adhoc, auth: Flags.auth, yes: Flags.yes, args: argsJson, timeout, saveFull, detach, name, pairs },
  (flags) =>
    runOnHost("call", flags, Effect.gen(function*() {
      const registry = yield* ToolRegistry
      const tasks = yield* Tasks
      // Inline sign-in (bounded) may be needed to list the tools as well as to call one.
      const { started, tool } = yield* withInlineAuth(Effect.gen(function*() {
        const tool = yield* registry.resolve(flags.name)
        const args = yield* buildArguments(
          Option.getOrUndefined(flags.args),
          flags.pairs,
          tool.inputSchema as never
        )
        // Servers answer a missing argument with an opaque validation error, after the permission
        // prompt; the schema says which are required before anything is asked or sent.
        yield* checkRequired(tool.name, args, tool.inputSchema as never)
        yield* Effect.ignore(setLogLevel(tool.server, flags.logLevel))
        const progress = progressLine(tool.name)
        // A call refused until the user completes a step in the browser (-32042) is sent again
        // by the registry once the step is done (with --yes or on a terminal).
        // The server may make a task of the call (the tasks extension): then it is followed below.
        const started = yield* tasks.start(flags.name, args, {
          timeoutMs: Option.getOrUndefined(flags.timeout),
          onProgress: progress.onProgress
        }).pipe(Effect.ensuring(progress.done))
        return { started, tool }
      }))
      if (started._tag === "Result") return yield* printCallResult(tool, started.result, flags)
      const { task } = started
      if (flags.detach) {
        if (flags.json) return json({ name: tool.name, tool: tool.tool, ...task })
        out(task.taskId)
        return err(`${tool.name} runs as task ${task.taskId} on ${tool.server}: \`mcpctl task wait ${tool.server} ${task.taskId}\` waits for it`)
      }
      const final = isFinal(task) ? task : yield* followTask(tool.server, task.taskId, tool.name)
      return yield* finishTask(tool, final, flags)
    }).pipe(Effect.provide(Tasks.layer)))
).pipe(Command.withDescription("Run one tool (after the permission check) and print its result"))
