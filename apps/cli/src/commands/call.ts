/** `mcpctl call NAME [--args JSON] [key=value…]`: check permission, run one tool. */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { fullText, outputBudget, savedHint } from "@mcpctl/core/Budget"
import { McpConfig } from "@mcpctl/core/McpConfig"
import { sanitizeAndCut } from "@mcpctl/core/Sanitize"
import { shapeCallResult } from "@mcpctl/core/Shape"
import { persistBytes, persistCallContent } from "@mcpctl/core/Persist"
import { setLogLevel } from "@mcpctl/core/Resources"
import { withInlineAuth } from "@mcpctl/core/SignIn"
import { ToolRegistry } from "@mcpctl/core/ToolRegistry"
import { UsageError } from "@mcpctl/core/Errors"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Path from "node:path"
import { buildArguments, checkRequired } from "../Args.js"
import * as Flags from "../Flags.js"
import { runOnHost, setExitCode } from "../Host.js"
import { err, json, out, renderContent } from "../Render.js"

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
  { ...Flags.global, ...Flags.adhoc, auth: Flags.auth, yes: Flags.yes, args: argsJson, timeout, saveFull, name, pairs },
  (flags) =>
    runOnHost("call", flags, Effect.gen(function*() {
      const registry = yield* ToolRegistry
      const config = yield* McpConfig
      // Inline sign-in (bounded) may be needed to list the tools as well as to call one.
      const { result, tool } = yield* withInlineAuth(Effect.gen(function*() {
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
        const { result } = yield* registry.call(flags.name, args, {
          timeoutMs: Option.getOrUndefined(flags.timeout),
          onProgress: progress.onProgress
        }).pipe(Effect.ensuring(progress.done))
        return { result, tool }
      }))
      const persisted = yield* persistCallContent(result, Path.join(config.home, "outputs")).pipe(
        Effect.mapError((e) => new UsageError({ message: `Could not save binary output: ${e.message}` }))
      )
      // `structuredContent` is any JSON value in the modern era (an array, a string, a number),
      // an object in the legacy one: shaped and printed as whatever it is.
      const input = { content: persisted.content, structuredContent: result.structuredContent }
      const budget = outputBudget(config, tool.server, tool.tool, tool.maxResultChars)
      // The budget counts what is printed: pretty JSON, with --json and for structuredContent.
      const printed = { pretty: true }
      let shaped = shapeCallResult(input, budget.chars, budget.hint, printed)
      // The whole text goes to a content-addressed file only when something was cut, and the
      // markers then say where it is.
      const full = flags.saveFull && shaped.truncated ? fullText(input) : undefined
      const saved = full === undefined ? undefined : yield* persistBytes(Path.join(config.home, "outputs"), Buffer.from(full), "text/plain").pipe(
        Effect.mapError((e) => new UsageError({ message: `Could not save the full text: ${e.message}` }))
      )
      if (saved) shaped = shapeCallResult(input, budget.chars, savedHint(saved.path, full!.length), printed)
      const isError = result.isError === true
      if (isError) yield* setExitCode(1)
      if (flags.json) {
        return json({
          name: tool.name,
          server: tool.server,
          tool: tool.tool,
          isError,
          content: shaped.content,
          structuredContent: shaped.structuredContent ?? null,
          truncated: shaped.truncated,
          ...(shaped.notes.length > 0 ? { notes: shaped.notes } : {}),
          ...(saved ? { fullText: saved.path } : {}),
          files: persisted.files
        })
      }
      const text = shaped.content.map(renderContent).join("\n")
      // The tool's own text may not say it failed: the first line does.
      if (isError) err(`mcpctl: ${tool.name} returned an error (isError; exit 1):`)
      if (shaped.structuredContent !== undefined && shaped.content.length === 0) {
        ;(isError ? err : out)(JSON.stringify(shaped.structuredContent, null, 2))
      } else {
        ;(isError ? err : out)(text)
      }
      for (const note of shaped.notes) err(`note: ${note}`)
      if (saved) err(`note: full text saved to ${saved.path}`)
      // How to see the rest, in words: the setting that decided the budget, or --save-full.
      else if (shaped.truncated) err(`note: ${budget.hint}, or pass --save-full to keep the whole text in a file`)
    }))
).pipe(Command.withDescription("Run one tool (after the permission check) and print its result"))
