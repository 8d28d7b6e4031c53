/** `mcpctl tools [SERVER…]`: the catalogue. */
import * as Command from "@effect/cli/Command"
import { Permission } from "@mcpctl/core/Permission"
import { signInWhereNeeded } from "@mcpctl/core/SignIn"
import { ToolRegistry } from "@mcpctl/core/ToolRegistry"
import * as Effect from "effect/Effect"
import * as Flags from "../Flags.js"
import { runOnHost, unavailableWhenAllFailed } from "../Host.js"
import { connectWithProgress } from "../Progress.js"
import { err, json, oneLine, out, table } from "../Render.js"

export const tools = Command.make("tools", { ...Flags.global, ...Flags.adhoc, auth: Flags.auth, servers: Flags.servers }, (flags) =>
  runOnHost("tools", flags, Effect.gen(function*() {
    const registry = yield* ToolRegistry
    const permission = yield* Permission
    const wanted = yield* connectWithProgress(flags.servers)
    let { errors, tools } = yield* registry.list(wanted)
    if (yield* signInWhereNeeded(errors)) ({ errors, tools } = yield* registry.list(wanted))
    const rows = tools.map((t) => ({
      name: t.name,
      server: t.server,
      tool: t.tool,
      title: t.title,
      description: t.description,
      readOnly: t.readOnly,
      destructive: t.destructive,
      openWorld: t.openWorld,
      concurrencySafe: t.concurrencySafe,
      permission: permission.decide(t.name).behavior,
      inputSchema: t.inputSchema
    }))
    if (flags.json) {
      json({ tools: rows, errors })
      return yield* unavailableWhenAllFailed(wanted, errors.map((e) => e.server))
    }
    if (rows.length > 0) {
      out(table(
        ["NAME", "PERMISSION", "FLAGS", "DESCRIPTION"],
        rows.map((t) => [
          t.name,
          t.permission,
          [t.readOnly ? "read-only" : "", t.destructive ? "destructive" : "", t.openWorld ? "open-world" : ""]
            .filter(Boolean).join(",") || "-",
          oneLine(t.description || t.title, 70)
        ])
      ))
    } else if (errors.length === 0) {
      err("No tools. `mcpctl servers` shows which servers are configured and connected.")
    }
    for (const e of errors) err(`${e.server} (${e.status}): ${e.message}`)
    yield* unavailableWhenAllFailed(wanted, errors.map((e) => e.server))
  }))).pipe(Command.withDescription("List the tools of every server (or of the servers named)"))
