/**
 * `mcpctl trust SERVER [TOOL]`: accept the current definitions of a server's tools (or one tool)
 * as pinned (CLI.md, Pinning), so changed tools run again and new ones lose their mark.
 *
 * One `trust` command for every kind of trust: `--project [DIR]` trusts a project directory's own
 * settings files as they are now (trustProject.ts; `--revoke` forgets it); `subjects` is where a
 * new one goes.
 */
// @ts-nocheck

import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { UsageError } from "@mcpctl/core/Errors"
import { ToolRegistry } from "@mcpctl/core/ToolRegistry"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Flags from "../Flags.js"
import { report, runOnHost } from "../Host.js"
import { checkServerNames } from "../Progress.js"
import { json, out } from "../Render.js"
import { trustProject } from "./trustProject.js"

const server = Args.text({ name: "server" }).pipe(Args.optional, Args.withDescription("The server whose tool definitions to accept"))
const tool = Args.text({ name: "tool" }).pipe(
  Args.optional,
  Args.withDescription("Only this tool (its own name or mcp__<server>__<tool>); default every tool of the server")
)

const project = Options.boolean("project").pipe(
  Options.withDescription("Trust a project directory's .mcp.json and .mcpctl/settings*.json as they are now (DIR, default the current one)")
)
const revoke = Options.boolean("revoke").pipe(Options.withDescription("With --project: forget the directory's trust"))

/** The trust subjects and their flags. */
const subjects = { server, tool, project, revoke } as const

/** `trust SERVER [TOOL]`: the tool pins. */
const trustPins = (serverName: string, toolName: string | undefined, asJson: boolean) =>
  Effect.gen(function*() {
    yield* checkServerNames([serverName])
    const registry = yield* ToolRegistry
    const trusted = yield* registry.trust(serverName, toolName)
    if (asJson) return json({ server: serverName, trusted })
    out(trusted.length === 0
      ? `${serverName}: no tools to trust.`
      : `Trusted ${trusted.length} tool definition${trusted.length === 1 ? "" : "s"} of ${serverName}: ${trusted.join(", ")}.`)
  })

export const trust = Command.make("trust", { ...Flags.global, ...Flags.adhoc, ...subjects }, (flags) =>
  flags.project
    // A project is trusted from its files alone: no settings are loaded, nothing connects.
    ? Effect.gen(function*() {
      if (Option.isSome(flags.tool)) return yield* new UsageError({ message: "--project takes one directory: mcpctl trust --project [DIR]." })
      return yield* trustProject({
        dir: Option.getOrUndefined(flags.server),
        cwd: Option.getOrUndefined(flags.cwd),
        revoke: flags.revoke,
        json: flags.json
      })
    }).pipe(Effect.tapError((error) => Effect.sync(() => report(flags, error))))
    : runOnHost("trust", flags, Effect.gen(function*() {
    const serverName = Option.getOrUndefined(flags.server)
    if (serverName === undefined) {
      return yield* Effect.fail(new UsageError({
        message: "Name what to trust: `mcpctl trust SERVER [TOOL]` accepts a server's current tool definitions; " +
          "`mcpctl trust --project [DIR]` a project directory's settings."
      }))
    }
    return yield* trustPins(serverName, Option.getOrUndefined(flags.tool), flags.json)
  }))).pipe(Command.withDescription(
    "Accept the current tool definitions of a server (or of one of its tools) as pinned; --project [DIR]: trust a project's own settings"
  ))
