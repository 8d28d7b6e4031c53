/**
 * The warm hosts of a daemon host process: the core services of `Host.hostLayer`, built once per
 * set of inputs and kept (servers connected) from one command to the next. A command gets the
 * host whose inputs are exactly its own, so it prints what it would print in a run of its own:
 *
 * - the inputs: the host flags (`--config`, `--cwd`, `--url`/`--stdio`…, `--yes`, `--log-level`),
 *   the bytes, mode and owner of every settings file of every scope and of the project-trust
 *   store, and the environment (but `_`, `PWD`, `OLDPWD`, `SHLVL`, unless a settings file names
 *   them as `${VAR}`). Files are read again for every command: an edit is seen on the next one;
 * - a new host for the same flags and directory replaces the old one (closed, servers shut down);
 * - per command, as in a run of its own: the settings warnings are logged, a failed connect is
 *   remembered only until the command ends, pins are read again where their files changed;
 * - a command that could ask a person (a terminal on stdin and stderr, `--auth`) is not run here:
 *   it dies with {@link NeedsTerminal} before anything happens and the client runs it itself.
 */
import * as CatalogCache from "@mcpctl/core/CatalogCache"
import { ConnectionPool } from "@mcpctl/core/ConnectionPool"
import { McpConfig } from "@mcpctl/core/McpConfig"
import { Pins } from "@mcpctl/core/Pins"
import { trustFile } from "@mcpctl/core/ProjectTrust"
import { resolveHome, settingsFiles } from "@mcpctl/core/SettingsLoad"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as PubSub from "effect/PubSub"
import * as Queue from "effect/Queue"
import * as Scope from "effect/Scope"
import { createHash } from "node:crypto"
import { lstatSync, readFileSync, statSync } from "node:fs"
import * as Path from "node:path"
import { type Host, hostLayer, type HostOptions, type HostProvider, interactive } from "../Host.js"

/** The command needs the caller's terminal: the client runs it in-process. */
export class NeedsTerminal {
  readonly _tag = "NeedsTerminal"
}

/** Variables a shell changes between commands that say nothing about the settings. */
const VOLATILE = new Set(["_", "PWD", "OLDPWD", "SHLVL"])

/** `${NAME}` / `${env:NAME}` references in settings text (pure). */
export const referencedVariables = (text: string): Array<string> =>
  [...text.matchAll(/\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!)

/** One file as a fingerprint line: absent, not a regular file, or its mode, owner and bytes. */
const fileLine = (file: string): { readonly line: string; readonly text: string } => {
  try {
    const link = lstatSync(file)
    const stat = link.isSymbolicLink() ? statSync(file) : link
    if (!stat.isFile()) return { line: `${file} not-regular ${stat.mode}`, text: "" }
    // The loader refuses files over its limit and files others may write: mode and owner count.
    const text = stat.size > 16 * 1024 * 1024 ? "" : readFileSync(file, "utf8")
    const hash = createHash("sha256").update(text).digest("hex")
    return { line: `${file} ${link.isSymbolicLink() ? "link " : ""}${stat.mode} ${stat.uid} ${stat.size} ${hash}`, text }
  } catch (error) {
    return { line: `${file} ${(error as NodeJS.ErrnoException).code ?? "error"}`, text: "" }
  }
}

/** The host flags of a command: what `hostLayer` reads besides the files and the environment. */
const flagsOf = (options: HostOptions) => ({
  config: options.config,
  cwd: Option.getOrUndefined(options.cwd),
  yes: options.yes === true,
  logLevel: options.logLevel ?? "warning",
  url: options.url ? Option.getOrUndefined(options.url) : undefined,
  transport: options.transport ? Option.getOrUndefined(options.transport) : undefined,
  header: options.header ?? [],
  stdio: options.stdio ? Option.getOrUndefined(options.stdio) : undefined,
  adhocName: options.adhocName,
  retryConnects: options.retryConnects === true,
  noPrompt: options.noPrompt === true
})

/**
 * The key of the host a command needs, and its slot (the same flags and directory, whatever the
 * files and the environment say), from the files as they are now.
 */
export const fingerprint = (
  options: HostOptions,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string
): { readonly key: string; readonly slot: string } => {
  const flags = flagsOf(options)
  const home = resolveHome(env)
  const projectDir = Path.resolve(cwd, flags.cwd ?? ".")
  const files = [...settingsFiles(projectDir, home, options.config.map((f) => Path.resolve(cwd, f))).map((f) => f.path), trustFile(home)]
  const lines = files.map(fileLine)
  const named = new Set(lines.flatMap((l) => referencedVariables(l.text)))
  const vars = Object.keys(env).filter((k) => !VOLATILE.has(k) || named.has(k)).sort().map((k) => [k, env[k]])
  const slot = JSON.stringify({ cwd, projectDir, flags })
  const key = createHash("sha256").update(slot).update(JSON.stringify(lines.map((l) => l.line))).update(JSON.stringify(vars)).digest("hex")
  return { key, slot }
}

interface Entry {
  readonly key: string
  readonly slot: string
  readonly label: { readonly cwd: string; readonly config: ReadonlyArray<string> }
  readonly scope: Scope.CloseableScope
  readonly context: Context.Context<Host>
  lastUsed: number
  commands: number
}

/** What `daemon status` shows of one host. */
export interface HostStatus {
  readonly key: string
  readonly cwd: string
  readonly config: ReadonlyArray<string>
  readonly commands: number
  readonly idleSeconds: number
  readonly servers: ReadonlyArray<{ readonly name: string; readonly status: string }>
}

/** At most this many warm hosts per host process; the least recently used one is closed first. */
const MAX_HOSTS = 8

/** The warm hosts of this process, and the `HostProvider` that hands them to commands. */
export const makeWarmHosts = (options: {
  readonly serverIdleMs: number
  /** Called once a command is past the terminal check, before it can do anything. */
  readonly onStart: () => void
}) => {
  const entries = new Map<string, Entry>()
  const pool = { idleTimeToLive: Duration.millis(options.serverIdleMs) }

  const close = (entry: Entry) => {
    entries.delete(entry.key)
    return Scope.close(entry.scope, Exit.void)
  }

  /** A failed connect counts for the command that saw it; the next command tries again. */
  const forgetFailures = (context: Context.Context<Host>) =>
    Effect.suspend(() => {
      const p = Context.get(context, ConnectionPool)
      return Effect.forEach(p.servers, (s) =>
        p.state(s.name).pipe(
          Effect.flatMap((state) => (state.status === "failed" || state.status === "needs-auth" ? p.invalidate(s.name) : Effect.void)),
          Effect.ignore
        ), { discard: true })
    })

  /** While a host is warm, a server's `tools/list_changed` drops its entry of the catalogue cache. */
  const forgetChangedLists = (context: Context.Context<Host>) =>
    Effect.gen(function*() {
      const p = Context.get(context, ConnectionPool)
      const config = Context.get(context, McpConfig)
      const spot = { home: config.home, projectDir: config.projectDir, pathVar: process.env.PATH }
      const events = yield* PubSub.subscribe(p.events)
      while (true) {
        const event = yield* Queue.take(events)
        const server = p.servers.find((s) => s.name === event.server)
        if (event._tag === "ListChanged" && event.list === "tools" && server) yield* CatalogCache.remove(spot, server)
      }
    }).pipe(Effect.scoped)

  const provider: HostProvider = (hostOptions, program) =>
    Effect.gen(function*() {
      if (interactive(hostOptions) || hostOptions.auth === true) return yield* Effect.die(new NeedsTerminal())
      yield* Effect.sync(options.onStart)
      const cwd = process.cwd()
      const { key, slot } = fingerprint(hostOptions, process.env, cwd)
      let entry = entries.get(key)
      if (entry === undefined) {
        const scope = yield* Scope.make()
        const context = yield* Layer.buildWithScope(hostLayer(hostOptions, pool), scope).pipe(
          Effect.onError(() => Scope.close(scope, Exit.void))
        )
        // The settings changed (or the environment): the host of the old ones goes, in the background.
        const replaced = [...entries.values()].filter((e) => e.slot === slot)
        const lru = [...entries.values()].sort((a, b) => a.lastUsed - b.lastUsed)
        const evicted = entries.size - replaced.length >= MAX_HOSTS ? lru.filter((e) => !replaced.includes(e)).slice(0, 1) : []
        for (const old of [...replaced, ...evicted]) yield* Effect.forkDaemon(close(old))
        yield* forgetChangedLists(context).pipe(Effect.forkIn(scope))
        entry = { key, slot, label: { cwd, config: hostOptions.config }, scope, context, lastUsed: Date.now(), commands: 0 }
        entries.set(key, entry)
      } else {
        // As in a run of its own: the settings' warnings once per command, pins as on disk now.
        yield* Effect.forEach(Context.get(entry.context, McpConfig).warnings, (w) => Effect.logWarning(w), { discard: true })
        const pins = Context.getOption(entry.context as Context.Context<unknown>, Pins)
        if (Option.isSome(pins)) yield* pins.value.reload
      }
      const used = entry
      used.commands++
      return yield* program.pipe(
        Effect.provide(used.context),
        Effect.ensuring(Effect.zipRight(forgetFailures(used.context), Effect.sync(() => (used.lastUsed = Date.now()))))
      )
    })

  const status = (): Effect.Effect<Array<HostStatus>> =>
    Effect.forEach([...entries.values()], (e) => {
      const p = Context.get(e.context, ConnectionPool)
      return Effect.map(
        Effect.forEach(p.servers, (s) =>
          p.state(s.name).pipe(
            Effect.map((state) => ({ name: s.name, status: state.status })),
            Effect.orElseSucceed(() => ({ name: s.name, status: "unknown" }))
          )),
        (servers): HostStatus => ({
          key: e.key.slice(0, 12),
          cwd: e.label.cwd,
          config: e.label.config,
          commands: e.commands,
          idleSeconds: Math.round((Date.now() - e.lastUsed) / 1000),
          servers
        })
      )
    })

  /** Closes every host: each server shuts down as on Ctrl-C. */
  const closeAll = Effect.suspend(() => Effect.forEach([...entries.values()], close, { concurrency: "unbounded", discard: true }))

  return { provider, status, closeAll }
}
