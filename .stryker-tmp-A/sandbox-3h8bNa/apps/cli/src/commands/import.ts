/**
 * `mcpctl import --from HOST [FILE]`: another host's servers written into an mcpctl scope, with
 * the target file's comments kept, references kept as references, and names the target already
 * has left alone unless `--force`.
 */
// @ts-nocheck

import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { type ImportEntry, importHosts, readHost } from "@mcpctl/core/internal/config/HostImport"
import { writeServerEntries } from "@mcpctl/core/internal/config/SettingsFile"
import { resolveHome, scopeFile } from "@mcpctl/core/internal/config/SettingsLoad"
import { REDACTED, redactUrl } from "@mcpctl/core/internal/config/Redact"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { homedir } from "node:os"
import * as Path from "node:path"
import * as Flags from "../Flags.js"
import { report } from "../Host.js"
import { err, json, out } from "../Render.js"

const from = Options.choice("from", importHosts).pipe(
  Options.withDescription(`The host to import from: ${importHosts.join(", ")}`)
)
const scope = Options.choice("scope", ["user", "project", "local"]).pipe(
  Options.withDefault("user" as const),
  Options.withDescription(
    "Settings scope to write: user (default: $MCPCTL_HOME/settings.json, ~/.mcpctl), project (.mcp.json in the project " +
      "directory), local (.mcpctl/settings.local.json there)"
  )
)
const dryRun = Options.boolean("dry-run").pipe(Options.withDescription("Show what would be written; write nothing"))
const force = Options.boolean("force").pipe(Options.withDescription("Overwrite servers the target already defines"))
const file = Args.text({ name: "file" }).pipe(
  Args.withDescription("The host's settings file, when it is not where that host keeps it"),
  Args.optional
)

/** A literal value (not a `${VAR}` reference) is shown hidden: it may be a secret. */
const shown = (v: unknown) => (typeof v === "string" && !v.includes("${") ? REDACTED : v)
const hideRecord = (r: unknown) =>
  r && typeof r === "object" ? Object.fromEntries(Object.entries(r).map(([k, v]) => [k, shown(v)])) : r

/** An entry fit to print: env and header values hidden unless they are references (pure). */
export const printable = (entry: ImportEntry["entry"]): Record<string, unknown> => ({
  ...entry,
  ...(entry.env ? { env: hideRecord(entry.env) } : {}),
  ...(entry.headers ? { headers: hideRecord(entry.headers) } : {}),
  ...(typeof entry.url === "string" ? { url: redactUrl(entry.url) } : {}),
  ...(entry.oauth && typeof entry.oauth === "object" && "clientSecret" in entry.oauth
    ? { oauth: { ...entry.oauth, clientSecret: shown((entry.oauth as { clientSecret: unknown }).clientSecret) } }
    : {})
})

export const importCommand = Command.make(
  "import",
  { json: Flags.json, cwd: Flags.cwd, from, scope, dryRun, force, file },
  (flags) =>
    Effect.gen(function*() {
      const projectDir = Path.resolve(Option.getOrElse(flags.cwd, () => process.cwd()))
      const target = scopeFile(flags.scope, projectDir, resolveHome(process.env))
      const plan = yield* readHost(flags.from, Option.getOrUndefined(flags.file), {
        userHome: homedir(),
        projectDir,
        platform: process.platform,
        env: process.env
      })
      const written = yield* writeServerEntries(
        target,
        plan.servers.map((s) => ({ name: s.name, config: s.entry })),
        { force: flags.force, allow: plan.allow, dryRun: flags.dryRun }
      )
      const imported = plan.servers.filter((s) => !written.skipped.includes(s.name))
      const result = {
        from: flags.from,
        sources: plan.sources,
        scope: flags.scope,
        target,
        dryRun: flags.dryRun,
        imported: imported.map((s) => ({ name: s.name, source: s.source, replaced: written.replaced.includes(s.name), entry: printable(s.entry) })),
        skipped: [
          ...written.skipped.map((name) => ({ name, reason: `already in ${target} (--force overwrites)` })),
          ...plan.invalid.map((i) => ({ name: i.name, reason: `${i.reason} (${i.source})` }))
        ],
        allow: written.allowed,
        unhonoured: plan.unhonoured,
        notes: [
          ...plan.notes,
          ...plan.inputs.map((i) => `set ${i.variable} for the VS Code input "${i.id}"${i.description ? ` (${i.description})` : ""}`)
        ]
      }
      if (flags.json) return json(result)
      const verb = flags.dryRun ? "Would import" : "Imported"
      out(`${verb} ${imported.length} server${imported.length === 1 ? "" : "s"} from ${plan.sources.join(", ")} into ${target} (${flags.scope})`)
      for (const s of result.imported) out(`  ${s.name}${s.replaced ? " (replaced)" : ""}  ${JSON.stringify(s.entry)}`)
      for (const rule of result.allow) out(`  allow ${rule}`)
      for (const s of result.skipped) err(`mcpctl: skipped "${s.name}": ${s.reason}`)
      if (result.unhonoured.length > 0) err(`mcpctl: warning: mcpctl cannot honour ${result.unhonoured.join(", ")}`)
      for (const note of result.notes) err(`mcpctl: note: ${note}`)
    }).pipe(Effect.tapError((error) => Effect.sync(() => report({ json: flags.json }, error))))
).pipe(Command.withDescription("Import the MCP servers of another host (Claude, Cursor, VS Code, Windsurf, Codex, gemini-cli) into a scope"))
