/** `mcpctl prompts [SERVER…]` and `mcpctl prompt SERVER NAME [key=value…]`. */
// @ts-nocheck

import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import { McpConfig } from "@mcpctl/core/McpConfig"
import { UsageError } from "@mcpctl/core/Errors"
import {
  getPromptChecked,
  listAllPrompts,
  parsePromptPairs,
  persistPromptMessages,
  setLogLevel
} from "@mcpctl/core/Resources"
import * as Effect from "effect/Effect"
import * as Path from "node:path"
import * as Flags from "../Flags.js"
import { runOnHost, unavailableWhenAllFailed } from "../Host.js"
import { checkServerNames, connectWithProgress } from "../Progress.js"
import { err, json, oneLine, out, renderContent, table } from "../Render.js"

/** Lists prompts with their declared arguments, so `prompt` can be called without guessing. */
export const prompts = Command.make("prompts", { ...Flags.global, ...Flags.adhoc, servers: Flags.servers }, (flags) =>
  runOnHost("prompts", flags, Effect.gen(function*() {
    const wanted = yield* connectWithProgress(flags.servers)
    const all = yield* listAllPrompts(wanted)
    const rows = all.prompts.map((p) => ({
      server: p.server,
      name: p.name,
      title: p.title ?? null,
      description: p.description ?? null,
      icons: p.icons ?? [],
      arguments: (p.arguments ?? []).map((a) => ({
        name: a.name,
        required: a.required === true,
        description: a.description ?? null
      }))
    }))
    const failed = all.errors.map((e) => e.server)
    if (flags.json) {
      json({ prompts: rows, errors: all.errors })
      return yield* unavailableWhenAllFailed(wanted, failed)
    }
    if (rows.length > 0) {
      out(table(
        ["SERVER", "PROMPT", "ARGUMENTS", "DESCRIPTION"],
        rows.map((p) => [
          p.server,
          p.name,
          p.arguments.map((a) => (a.required ? a.name : `[${a.name}]`)).join(" ") || "-",
          oneLine(p.description ?? p.title ?? "", 60)
        ])
      ))
    } else if (all.errors.length === 0) {
      err("No prompts. `mcpctl servers` shows which servers are configured and connected.")
    }
    for (const e of all.errors) err(`${e.server} (${e.status}): ${e.message}`)
    yield* unavailableWhenAllFailed(wanted, failed)
  }))).pipe(Command.withDescription("List the prompts of every server (or of the servers named)"))

const server = Args.text({ name: "server" }).pipe(Args.withDescription("Server name"))
const name = Args.text({ name: "name" }).pipe(Args.withDescription("Prompt name, as `mcpctl prompts` lists it"))
const pairs = Args.text({ name: "key=value" }).pipe(Args.withDescription("One argument of the prompt"), Args.repeated)

/**
 * Gets one prompt. Arguments are checked against the declaration first (exit 2 naming the
 * missing or unknown one), because servers answer bad arguments with opaque errors.
 */
export const prompt = Command.make("prompt", { ...Flags.global, ...Flags.adhoc, server, name, pairs }, (flags) =>
  runOnHost("prompt", flags, Effect.gen(function*() {
    yield* checkServerNames([flags.server])
    const config = yield* McpConfig
    const args = yield* parsePromptPairs(flags.pairs)
    yield* Effect.ignore(setLogLevel(flags.server, flags.logLevel))
    const { result } = yield* getPromptChecked(flags.server, flags.name, args)
    const persisted = yield* persistPromptMessages(result, Path.join(config.home, "outputs")).pipe(
      Effect.catchTag("OutputWriteError", (e) => Effect.fail(new UsageError({ message: e.message })))
    )
    if (flags.json) {
      return json({
        server: flags.server,
        name: flags.name,
        description: result.description ?? null,
        messages: persisted.messages,
        files: persisted.files
      })
    }
    persisted.messages.forEach((m, i) => {
      if (i > 0) out()
      out(`[${m.role}]`)
      out(renderContent(m.content))
    })
  }))).pipe(Command.withDescription("Get one prompt with its arguments filled in and print its messages"))
