/**
 * `mcpctl config explain [SERVER]`: every effective setting with the file, scope and line it came
 * from, what it overrode and the `${VAR}`s it reads (set or not, never their values). Reads the
 * settings without connecting to anything.
 */
// @ts-nocheck

import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import { explain as explainSettings, type Explained, type FieldExplained } from "@mcpctl/core/internal/config/Explain"
import { UsageError } from "@mcpctl/core/Errors"
import { formatTitle } from "@mcpctl/core/internal/config/HostFormats"
import { unknownServerMessage } from "@mcpctl/core/ServerConfig"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Flags from "../Flags.js"
import { report } from "../Host.js"
import { json, out, table } from "../Render.js"

const server = Args.text({ name: "server" }).pipe(Args.withDescription("Only this server (default: every server)"), Args.optional)

const where = (o: { readonly source: string; readonly line?: number | undefined }) => `${o.source}${o.line ? `:${o.line}` : ""}`
const reads = (f: FieldExplained) =>
  f.variables.map((v) => `\${${v.name}} ${v.set ? "set" : v.hasDefault ? "unset, default" : "UNSET"}`).join(", ")
const valueText = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v))

/** The explanation for a person (pure). */
export const renderExplained = (e: Explained): Array<string> => {
  const lines: Array<string> = []
  for (const s of e.servers) {
    lines.push(`${s.name}  ${s.scope}  ${where(s)}${s.format !== "mcpctl" ? `  (${formatTitle[s.format]} format)` : ""}  transport ${s.transport}`)
    for (const o of s.overrides) lines.push(`  overrides ${o.scope} ${where(o)}`)
    const rows = s.fields.map((f) => [
      `  ${f.field}`,
      valueText(f.value),
      f.line ? `line ${f.line}${f.writtenAs ? ` (${f.writtenAs})` : ""}` : f.writtenAs ?? "",
      reads(f)
    ])
    lines.push(table(["  FIELD", "VALUE", "WHERE", "READS"], rows))
  }
  if (e.permissions.length > 0) {
    lines.push("permissions")
    lines.push(table(["  RULE", "BEHAVIOR", "FROM"], e.permissions.map((p) => [`  ${p.rule}`, p.behavior, `${p.scope} ${where(p)}`])))
  }
  lines.push("limits")
  lines.push(table(["  VARIABLE", "VALUE", "FROM"], e.limits.map((l) => [`  ${l.variable}`, l.value === null ? "none" : String(l.value), l.from])))
  lines.push("files")
  for (const f of e.files) lines.push(`  ${f.scope}  ${f.source}${f.exists ? f.format && f.format !== "mcpctl" ? `  (${formatTitle[f.format]} format)` : "" : "  (none)"}`)
  return lines
}

const explainCommand = Command.make("explain", { json: Flags.json, config: Flags.config, cwd: Flags.cwd, server }, (flags) =>
  Effect.gen(function*() {
    const explained = yield* explainSettings({ cwd: Option.getOrUndefined(flags.cwd), configFiles: flags.config, env: process.env })
    yield* Effect.forEach(explained.warnings, (warning) => Effect.logWarning(warning), { discard: true })
    let result: Explained = explained
    if (Option.isSome(flags.server)) {
      const name = flags.server.value
      const one = explained.servers.find((s) => s.name === name) ?? explained.servers.find((s) => s.originalName === name)
      if (!one) {
        return yield* new UsageError({ message: unknownServerMessage([name], explained.servers as never) })
      }
      const rules = explained.permissions.filter((p) => p.rule === `mcp__${one.name}` || p.rule.startsWith(`mcp__${one.name}__`))
      result = { ...explained, servers: [one], permissions: rules }
    }
    if (flags.json) return json(result)
    for (const line of renderExplained(result)) out(line)
  }).pipe(Effect.tapError((error) => Effect.sync(() => report({ json: flags.json }, error))))
).pipe(Command.withDescription("Show every effective setting: file, scope and line, what it overrode, which ${VAR}s it reads"))

export const config = Command.make("config").pipe(
  Command.withDescription("Inspect the merged settings"),
  Command.withSubcommands([explainCommand])
)
