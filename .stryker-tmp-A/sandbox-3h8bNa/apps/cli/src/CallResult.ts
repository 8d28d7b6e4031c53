/**
 * Printing a tool's result, for `call` and for the tasks' `task wait` / `task result`: binary
 * content saved under `$MCPCTL_HOME/outputs`, the text held to the output budget (whole text
 * saved with `--save-full`), `isError` as exit 1 with a first line that says so.
 */
// @ts-nocheck

import { fullText, outputBudget, savedHint } from "@mcpctl/core/internal/content/Budget"
import { UsageError } from "@mcpctl/core/Errors"
import { McpConfig } from "@mcpctl/core/McpConfig"
import { persistBytes, persistCallContent } from "@mcpctl/core/internal/content/Persist"
import { shapeCallResult } from "@mcpctl/core/internal/content/Shape"
import * as Effect from "effect/Effect"
import * as Path from "node:path"
import { setExitCode } from "./Host.js"
import { err, json, out, renderContent } from "./Render.js"

/** Which tool gave the result: its full name, server and the server's name for it. */
export interface ResultOf {
  readonly name: string
  readonly server: string
  readonly tool: string
  readonly maxResultChars?: number | undefined
}

type ToolResult = Parameters<typeof persistCallContent>[0] & { readonly structuredContent?: unknown; readonly isError?: boolean }

export const printCallResult = (
  of: ResultOf,
  result: ToolResult,
  flags: { readonly json: boolean; readonly saveFull: boolean },
  /** More fields of the `--json` document (a task's id and status). */
  extra: Record<string, unknown> = {}
) =>
  Effect.gen(function*() {
    const config = yield* McpConfig
    const persisted = yield* persistCallContent(result, Path.join(config.home, "outputs")).pipe(
      Effect.mapError((e) => new UsageError({ message: `Could not save binary output: ${e.message}` }))
    )
    // `structuredContent` is any JSON value in the modern era (an array, a string, a number),
    // an object in the legacy one: shaped and printed as whatever it is.
    const input = { content: persisted.content, structuredContent: result.structuredContent }
    const budget = outputBudget(config, of.server, of.tool, of.maxResultChars)
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
        name: of.name,
        server: of.server,
        tool: of.tool,
        ...extra,
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
    if (isError) err(`mcpctl: ${of.name} returned an error (isError; exit 1):`)
    if (shaped.structuredContent !== undefined && shaped.content.length === 0) {
      ;(isError ? err : out)(JSON.stringify(shaped.structuredContent, null, 2))
    } else {
      ;(isError ? err : out)(text)
    }
    for (const note of shaped.notes) err(`note: ${note}`)
    if (saved) err(`note: full text saved to ${saved.path}`)
    // How to see the rest, in words: the setting that decided the budget, or --save-full.
    else if (shaped.truncated) err(`note: ${budget.hint}, or pass --save-full to keep the whole text in a file`)
  })
