/** `mcpctl complete SERVER (prompt NAME | resource URI) ARG [PREFIX] [--context K=V…]`. */
// @ts-nocheck

import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { complete as completeArgument, type CompletionRef, parsePromptPairs } from "@mcpctl/core/Resources"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Flags from "../Flags.js"
import { runOnHost } from "../Host.js"
import { checkServerNames } from "../Progress.js"
import { err, json, out } from "../Render.js"

const server = Args.text({ name: "server" }).pipe(Args.withDescription("Server name"))
const kind = Args.choice([["prompt", "prompt"], ["resource", "resource"]], { name: "prompt|resource" }).pipe(
  Args.withDescription("Complete an argument of a prompt, or a variable of a resource template")
)
const ref = Args.text({ name: "name|uri" }).pipe(
  Args.withDescription("The prompt's name, or the resource template (as `mcpctl resources` lists it)")
)
const argument = Args.text({ name: "arg" }).pipe(Args.withDescription("The argument (or template variable) to complete"))
const prefix = Args.text({ name: "prefix" }).pipe(Args.optional, Args.withDescription("What is typed so far (default: nothing)"))
const context = Options.text("context").pipe(
  Options.repeated,
  Options.withDescription("An argument already chosen, KEY=VALUE (repeatable): servers narrow the values with it")
)

/** Asks a server for the values an argument can take (`completion/complete`) and prints them, one a line. */
export const complete = Command.make(
  "complete",
  { ...Flags.global, ...Flags.adhoc, context, server, kind, ref, argument, prefix },
  (flags) =>
    runOnHost("complete", flags, Effect.gen(function*() {
      yield* checkServerNames([flags.server])
      const chosen = yield* parsePromptPairs(flags.context)
      const target: CompletionRef = flags.kind === "prompt"
        ? { type: "ref/prompt", name: flags.ref }
        : { type: "ref/resource", uri: flags.ref }
      const value = Option.getOrElse(flags.prefix, () => "")
      const result = yield* completeArgument(
        flags.server,
        target,
        { name: flags.argument, value },
        Object.keys(chosen).length > 0 ? chosen : undefined
      )
      if (flags.json) {
        return json({
          server: flags.server,
          ref: target,
          argument: flags.argument,
          prefix: value,
          values: result.values,
          total: result.total ?? null,
          hasMore: result.hasMore === true
        })
      }
      for (const v of result.values) out(v)
      if (result.values.length === 0) err(`No completions for ${flags.argument} from ${flags.server}.`)
      else if (result.hasMore === true || (result.total !== undefined && result.total > result.values.length)) {
        err(`(${result.values.length} shown${result.total !== undefined ? ` of ${result.total}` : ""}; type more to narrow)`)
      }
    }))
).pipe(Command.withDescription("Print the values a server proposes for a prompt argument or a resource template variable"))
