/**
 * Project trust: a directory's own settings (`.mcp.json`, `.mcpctl/settings.json`,
 * `.mcpctl/settings.local.json`) come with the directory — a cloned repository writes them, not
 * the user. Their servers are commands that would run on this machine and their rules could turn
 * the user's own tools from ask into allow, so they apply only in a directory the user trusted:
 * asked once on a terminal (showing what would run), or `mcpctl trust --project [DIR]`, or
 * `MCPCTL_TRUST_PROJECT=1` for one run. Trust is keyed by the directory and a hash of those
 * files' contents, so a changed file (a `git pull`) asks again; edits mcpctl makes itself for the
 * user (`add`, `remove`, an "always" answer) keep a trusted directory trusted.
 *
 * The store is `$MCPCTL_HOME/trusted-projects.json` (0600), a `JsonStore` (atomic, under its lock).
 */
// @ts-nocheck

import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { createHash } from "node:crypto"
import * as fs from "node:fs/promises"
import * as Path from "node:path"
import * as readline from "node:readline/promises"
import { sanitize } from "../Sanitize.js"
import * as JsonStore from "../JsonStore.js"
import { redactUrl } from "./Redact.js"
import type { PermissionRules, ProjectTrustRequest, ServerConfig } from "../../config/ServerConfig.js"

/** The variable that trusts the project for one run (CI, scripts): `MCPCTL_TRUST_PROJECT=1`. */
export const TRUST_VARIABLE = "MCPCTL_TRUST_PROJECT"

/** Whether the environment trusts the project for this run (`1`, `true`, `yes`). */
export const trustedByEnv = (env: Readonly<Record<string, string | undefined>>): boolean =>
  /^(1|true|yes)$/i.test(env[TRUST_VARIABLE]?.trim() ?? "")

/** The project's own settings files, relative to it, in scope order. */
export const PROJECT_FILES: ReadonlyArray<string> = [
  ".mcp.json",
  Path.join(".mcpctl", "settings.json"),
  Path.join(".mcpctl", "settings.local.json")
]

/** The trust store of a `$MCPCTL_HOME`. */
export const trustFile = (home: string): string => Path.join(home, "trusted-projects.json")

/** One trusted directory: the hash of its settings files when it was trusted. */
export interface TrustEntry {
  readonly hash: string
  readonly trustedAt: number
}

/** One project file that exists, with its text. */
export interface ProjectFile {
  /** Relative to the project directory (`.mcp.json`). */
  readonly name: string
  readonly text: string
}

/**
 * The hash trust is keyed by (pure): every present project file's name and content, so a file
 * that changes, appears or goes away asks again.
 */
export const projectHash = (files: ReadonlyArray<ProjectFile>): string => {
  const h = createHash("sha256")
  for (const f of files) h.update(f.name).update("\0").update(f.text).update("\0")
  return `sha256:${h.digest("hex")}`
}

const Entries = JsonStore.lenientRecord(Schema.Struct({ hash: Schema.String, trustedAt: Schema.Number }))

/** Keeps the well-formed entries of a store file (a corrupt file trusts nothing). */
export const parseTrust = (raw: unknown): Readonly<Record<string, TrustEntry>> =>
  typeof raw === "object" && raw !== null && !Array.isArray(raw) ? Option.getOrElse(Schema.decodeUnknownOption(Entries)(raw), () => ({})) : {}

/** Whether `dir` was trusted with exactly these files. */
export const isTrusted = (entries: Readonly<Record<string, TrustEntry>>, dir: string, hash: string): boolean =>
  entries[dir]?.hash === hash

/**
 * Reads the project files of `dir` that exist. The user's own settings file is not one of them
 * even when `dir` is the home directory's parent (`~/.mcpctl/settings.json` is user scope).
 */
export const readProjectFiles = async (dir: string, home: string): Promise<ReadonlyArray<ProjectFile>> => {
  const found: Array<ProjectFile> = []
  for (const name of PROJECT_FILES) {
    if (Path.join(dir, name) === Path.join(home, "settings.json")) continue
    const text = await fs.readFile(Path.join(dir, name), "utf8").catch((e: NodeJS.ErrnoException) => {
      if (e.code === "ENOENT" || e.code === "ENOTDIR") return undefined
      throw e
    })
    if (text !== undefined) found.push({ name, text })
  }
  return found
}

/**
 * The store, locked like a settings edit (SettingsFile): waited for up to 15 s, then an error,
 * never a write without the lock. A lost update here could bring back a revoked trust.
 */
const store = (home: string) => JsonStore.make(trustFile(home), Entries, { lockWaitMs: 15_000, onLockTimeout: "fail" })

/** The trusted directories of a home. */
export const readTrust = (home: string): Effect.Effect<Readonly<Record<string, TrustEntry>>> =>
  Effect.map(store(home).get, Option.getOrElse(() => ({})))

/** Trusts `dir` with the hash of its current files. */
export const recordTrust = (home: string, dir: string, hash: string, now = Date.now()): Effect.Effect<void, JsonStore.JsonStoreError> =>
  store(home).update((current) => ({ ...Option.getOrElse(current, () => ({})), [dir]: { hash, trustedAt: now } })).pipe(Effect.asVoid)

/** Forgets `dir`; true when it was trusted. */
export const forgetTrust = (home: string, dir: string): Effect.Effect<boolean, JsonStore.JsonStoreError> =>
  store(home).modify((current) => {
    const { [dir]: gone, ...rest } = Option.getOrElse(current, (): Readonly<Record<string, TrustEntry>> => ({}))
    return gone === undefined ? [false, current] as const : [true, Option.some(rest)] as const
  })

/**
 * Runs an edit mcpctl makes for the user in a project file (`add`, `remove`, an "always" answer)
 * without losing the directory's trust: trusted before the edit, it is trusted with the new hash.
 * A directory without any project file before the edit is trusted too when the edit leaves exactly
 * one (the file it wrote): everything in it is the user's own (`mcpctl add` in a new directory,
 * then `mcpctl get`, as the README goes). A directory whose files someone else wrote stays untrusted.
 */
export const keepingTrust = <A, E, R>(home: string, dir: string, edit: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.gen(function*() {
    const filesBefore = yield* Effect.promise(() => readProjectFiles(dir, home).catch(() => undefined))
    const before = filesBefore === undefined
      ? "keep" as const
      : filesBefore.length === 0
      ? "empty" as const
      : isTrusted(yield* readTrust(home), dir, projectHash(filesBefore))
      ? "trusted" as const
      : "keep" as const
    const result = yield* edit
    if (before !== "keep") {
      yield* Effect.promise(() => readProjectFiles(dir, home)).pipe(
        Effect.flatMap((after) => (before === "trusted" || after.length === 1 ? recordTrust(home, dir, projectHash(after)) : Effect.void)),
        Effect.catchAllCause((cause) => Effect.logWarning(`could not keep ${dir} trusted in ${trustFile(home)}`, cause))
      )
    }
    return result
  })

// ---------------------------------------------------------------------------------------------
// What a project would do, for the question and the warning
// ---------------------------------------------------------------------------------------------

/** Whether trusting would change anything: a server, or a rule. */
export const contributes = (request: ProjectTrustRequest): boolean =>
  request.files.some((f) =>
    f.settings.servers.length > 0 || (["allow", "ask", "deny"] as const).some((k) => f.settings.permissions[k].length > 0)
  )

/** What a server entry runs, as written (`${VAR}` unexpanded, URL secrets hidden). */
const runs = (config: ServerConfig): string =>
  "command" in config
    ? [config.command, ...(config.args ?? [])].map((a) => (/[\s"'\\]/.test(a) ? JSON.stringify(a) : a)).join(" ")
    : `${config.type ?? "http"} ${redactUrl(config.url)}`

const ruleLines = (rules: PermissionRules) =>
  (["allow", "ask", "deny"] as const).filter((k) => rules[k].length > 0).map((k) => `permissions.${k}: ${rules[k].join(", ")}`)

/** The project's servers (what each runs) and rules, one line each, sanitized (pure). */
export const describeProject = (request: ProjectTrustRequest): string =>
  request.files.map((f) => {
    const lines = [
      ...f.settings.servers.map((s) => `server "${s.name}": ${runs(s.config)}${s.config.disabled ? " (disabled)" : ""}`),
      ...ruleLines(f.settings.permissions)
    ]
    return [`  ${f.name}`, ...lines.map((l) => `    ${sanitize(l, { multiline: false })}`)].join("\n")
  }).join("\n")

/** The warning of a run that skipped an untrusted project's settings (pure). */
export const untrustedWarning = (request: ProjectTrustRequest): string => {
  const what = request.files.map((f) => {
    const parts = [
      f.settings.servers.length > 0 ? `servers ${f.settings.servers.map((s) => s.name).join(", ")}` : undefined,
      ...(["allow", "ask", "deny"] as const).map((k) => {
        const n = f.settings.permissions[k].length
        return n > 0 ? `${n} ${k} rule${n === 1 ? "" : "s"}` : undefined
      })
    ].filter((p) => p !== undefined)
    return `${f.name}: ${parts.join(", ") || "nothing"}`
  })
  return sanitize(
    `${request.dir} is not a trusted project, so its settings were skipped (${what.join("; ")}). ` +
      `Review them, then run \`mcpctl trust --project ${request.dir}\` to trust it ` +
      `(or set ${TRUST_VARIABLE}=1 for one run).`,
    { multiline: false }
  )
}

/**
 * Asks on a terminal whether to trust a project, showing what would run; only an explicit yes
 * trusts. End of input is a no.
 */
export const askTrustOnTerminal = async (
  request: ProjectTrustRequest,
  input: NodeJS.ReadableStream = process.stdin,
  output: NodeJS.WritableStream = process.stderr
): Promise<boolean> => {
  output.write(
    `\n${sanitize(request.dir, { multiline: false })} has its own MCP settings. Trusting it starts these servers and ` +
      `applies these rules on this machine:\n${describeProject(request)}\n`
  )
  const rl = readline.createInterface({ input, output, terminal: true })
  // End of input (Ctrl-D) is a no: the question would otherwise wait forever.
  const closed = new Promise<string>((resolve) => rl.once("close", () => resolve("")))
  try {
    const answer = await Promise.race([rl.question("Trust this project? It is asked again when these files change. [y/N] "), closed])
    return /^y(es)?$/i.test(answer.trim())
  } catch {
    return false
  } finally {
    rl.close()
  }
}
