/** `mcpctl tools [SERVER…] [--search QUERY [--limit N]]`: the catalogue, or the tools that match. */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { Permission } from "@mcpctl/core/Permission"
import { signInWhereNeeded } from "@mcpctl/core/SignIn"
import { type McpTool, ToolRegistry } from "@mcpctl/core/ToolRegistry"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Flags from "../Flags.js"
import { runOnHost, unavailableWhenAllFailed } from "../Host.js"
import { connectWithProgress } from "../Progress.js"
import { err, json, oneLine, out, table } from "../Render.js"

const search = Options.text("search").pipe(
  Options.optional,
  Options.withDescription("Only the tools that match these words (name, title, description, parameter names), best first")
)
const limit = Options.integer("limit").pipe(
  Options.withSchema(Schema.Int.pipe(Schema.positive({ message: () => "--limit must be a positive number" }))),
  Options.optional,
  Options.withDescription("At most this many tools (default with --search: 10)")
)

/** The pin mark of the FLAGS column: a changed definition shouts, a new one says so. */
const pinFlag = (t: McpTool) => (t.pin === "changed" ? "CHANGED" : t.pin === "new" ? "new" : "")

export const tools = Command.make(
  "tools",
  { ...Flags.global, ...Flags.adhoc, auth: Flags.auth, servers: Flags.servers, search, limit },
  (flags) =>
    runOnHost("tools", flags, Effect.gen(function*() {
      const registry = yield* ToolRegistry
      const permission = yield* Permission
      const wanted = yield* connectWithProgress(flags.servers)
      const query = Option.getOrUndefined(flags.search)
      const max = Option.getOrUndefined(flags.limit) ?? (query === undefined ? undefined : 10)
      const find = query === undefined
        ? Effect.map(registry.list(wanted), ({ errors, tools }) => ({ errors, found: tools.map((tool) => ({ tool, score: undefined })) }))
        : Effect.map(registry.search(query, { servers: wanted }), ({ errors, results }) => ({ errors, found: results }))
      let { errors, found } = yield* find
      if (yield* signInWhereNeeded(errors)) ({ errors, found } = yield* find)
      if (max !== undefined) found = found.slice(0, max)
      const rows = found.map(({ score, tool: t }) => ({
        name: t.name,
        server: t.server,
        tool: t.tool,
        title: t.title,
        description: t.description,
        readOnly: t.readOnly,
        destructive: t.destructive,
        openWorld: t.openWorld,
        concurrencySafe: t.concurrencySafe,
        permission: permission.decide(t.name, t).behavior,
        pin: t.pin ?? "off",
        ...(score !== undefined ? { score } : {}),
        inputSchema: t.inputSchema
      }))
      const failed = errors.map((e) => e.server)
      if (flags.json) {
        json({ tools: rows, errors })
        return yield* unavailableWhenAllFailed(wanted, failed)
      }
      if (rows.length > 0) {
        out(table(
          [...(query === undefined ? [] : ["SCORE"]), "NAME", "PERMISSION", "FLAGS", "DESCRIPTION"],
          found.map(({ score, tool: t }, i) => [
            ...(score === undefined ? [] : [score.toFixed(2)]),
            t.name,
            rows[i]!.permission,
            [pinFlag(t), t.readOnly ? "read-only" : "", t.destructive ? "destructive" : "", t.openWorld ? "open-world" : ""]
              .filter(Boolean).join(",") || "-",
            oneLine(t.description || t.title, 70)
          ])
        ))
      } else if (errors.length === 0) {
        err(query === undefined
          ? "No tools. `mcpctl servers` shows which servers are configured and connected."
          : `No tool matches "${query}".`)
      }
      const changed = found.filter(({ tool }) => tool.pin === "changed").map(({ tool }) => tool)
      if (changed.length > 0) {
        err(`\n${changed.length} tool definition${changed.length === 1 ? "" : "s"} changed since pinned (CHANGED): ` +
          `${changed.map((t) => t.name).join(", ")}. Calls are refused until you accept them with ` +
          "`mcpctl trust SERVER [TOOL]`; `mcpctl call NAME` shows what changed.")
      }
      for (const e of errors) err(`${e.server} (${e.status}): ${e.message}`)
      yield* unavailableWhenAllFailed(wanted, failed)
    }))
).pipe(Command.withDescription("List the tools of every server (or of the servers named), or search them with --search"))
