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
// @ts-nocheck

import * as CatalogCache from "@mcpctl/core/internal/catalog/CatalogCache"
import { ConnectionPool } from "@mcpctl/core/ConnectionPool"
import { McpConfig } from "@mcpctl/core/McpConfig"
import { Pins } from "@mcpctl/core/Pins"
import { trustFile } from "@mcpctl/core/internal/config/ProjectTrust"
import { resolveHome, settingsFiles } from "@mcpctl/core/internal/config/SettingsLoad"
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
  /** What the fingerprint was taken of, to take it again (`recheck`). */
  readonly inputs: { readonly options: HostOptions; readonly env: Readonly<Record<string, string | undefined>>; readonly cwd: string }
  readonly scope: Scope.CloseableScope
  readonly context: Context.Context<Host>
  lastUsed: number
  commands: number
  /** Commands running on it now. */
  active: number
  /** No longer handed out (its inputs changed, or evicted); closed once no command runs on it. */
  retired: boolean
}

/** What `daemon status` shows of one host. */
export interface HostStatus {
  readonly key: string
  readonly cwd: string
  readonly config: ReadonlyArray<string>
  readonly commands: number
  readonly running: number
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
  /** A command found the settings changed (a new host replaced one): other processes' hosts may be stale too. */
  readonly onSettingsChanged?: () => void
}) => {
  const entries = new Map<string, Entry>()
  // Warm hosts outlive commands: their lists stay current through the change stream of modern servers.
  const pool = { idleTimeToLive: Duration.millis(options.serverIdleMs), listen: true }
  // Finding or building a host is one step at a time; the commands on a host run at once.
  const lock = Effect.unsafeMakeSemaphore(1)

  /** No new command gets it; it closes now, or when its last command ends. */
  const retire = (entry: Entry): Effect.Effect<void> =>
    Effect.suspend(() => {
      if (entries.get(entry.key) === entry) entries.delete(entry.key)
      if (entry.retired) return Effect.void
      entry.retired = true
      return entry.active === 0 ? Effect.asVoid(Effect.forkDaemon(Scope.close(entry.scope, Exit.void))) : Effect.void
    })

  /** A failed connect counts for the commands that saw it; the next command tries again. */
  const forgetFailures = (context: Context.Context<Host>) =>
    Effect.suspend(() => {
      const p = Context.get(context, ConnectionPool)
      return Effect.forEach(p.servers, (s) =>
        p.state(s.name).pipe(
          Effect.flatMap((state) => (state.status === "failed" || state.status === "needs-auth" ? p.invalidate(s.name) : Effect.void)),
          Effect.ignore
        ), { discard: true })
    })

  /**
   * As a run of its own asks the server, the next command does: the lists a live connection
   * remembers are dropped (a server may change a tool without saying so, and a pinned tool that
   * changed must be refused as in-process), except those the server's cache hints keep fresh
   * (`ttlMs`: the server promised them for that long).
   */
  const forgetLists = (context: Context.Context<Host>) =>
    Effect.sync(() => {
      const p = Context.get(context, ConnectionPool)
      for (const s of p.servers) p.peek(s.name)?.lists.dropUnlessFresh()
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

  /** The host for this command (built when none fits), counted as in use. */
  const acquire = (hostOptions: HostOptions) =>
    lock.withPermits(1)(Effect.gen(function*() {
      const cwd = process.cwd()
      const { key, slot } = fingerprint(hostOptions, process.env, cwd)
      const found = entries.get(key)
      if (found !== undefined) {
        found.active++
        return { entry: found, fresh: false }
      }
      const scope = yield* Scope.make()
      const context = yield* Layer.buildWithScope(hostLayer(hostOptions, pool), scope).pipe(
        Effect.onError(() => Scope.close(scope, Exit.void))
      )
      // The settings changed (or the environment): the host of the old ones goes.
      const replaced = [...entries.values()].filter((e) => e.slot === slot)
      const lru = [...entries.values()].filter((e) => !replaced.includes(e)).sort((a, b) => a.lastUsed - b.lastUsed)
      const evicted = entries.size - replaced.length >= MAX_HOSTS ? lru.slice(0, 1) : []
      for (const old of [...replaced, ...evicted]) yield* retire(old)
      yield* forgetChangedLists(context).pipe(Effect.forkIn(scope))
      const entry: Entry = {
        key,
        slot,
        label: { cwd, config: hostOptions.config },
        inputs: { options: hostOptions, env: { ...process.env }, cwd },
        scope,
        context,
        lastUsed: Date.now(),
        commands: 0,
        active: 1,
        retired: false
      }
      entries.set(key, entry)
      if (replaced.length > 0) yield* Effect.sync(() => options.onSettingsChanged?.())
      return { entry, fresh: true }
    }))

  /** The command is done with the host: the last one out forgets failures, or closes a retired host. */
  const release = (entry: Entry) =>
    Effect.suspend(() => {
      entry.active--
      entry.lastUsed = Date.now()
      if (entry.active > 0) return Effect.void
      return entry.retired ? Scope.close(entry.scope, Exit.void) : forgetFailures(entry.context)
    })

  /**
   * Takes every host's fingerprint again: a host whose files changed is never handed out again,
   * so it closes now (a server removed from the settings stops in every host, not at its idle
   * time to live).
   */
  const recheck = lock.withPermits(1)(Effect.suspend(() =>
    Effect.forEach([...entries.values()], (entry) =>
      fingerprint(entry.inputs.options, entry.inputs.env, entry.inputs.cwd).key === entry.key ? Effect.void : retire(entry), { discard: true })
  ))

  const provider: HostProvider = (hostOptions, program) =>
    Effect.gen(function*() {
      if (interactive(hostOptions) || hostOptions.auth === true) return yield* Effect.die(new NeedsTerminal())
      yield* Effect.sync(options.onStart)
      const { entry, fresh } = yield* acquire(hostOptions)
      return yield* Effect.gen(function*() {
        if (!fresh) {
          // As in a run of its own: the settings' warnings once per command, pins as on disk now,
          // lists as the server has them now.
          yield* Effect.forEach(Context.get(entry.context, McpConfig).warnings, (w) => Effect.logWarning(w), { discard: true })
          const pins = Context.getOption(entry.context as Context.Context<unknown>, Pins)
          if (Option.isSome(pins)) yield* pins.value.reload
          yield* forgetLists(entry.context)
        }
        entry.commands++
        return yield* Effect.provide(program, entry.context)
      }).pipe(Effect.ensuring(release(entry)))
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
          running: e.active,
          idleSeconds: Math.round((Date.now() - e.lastUsed) / 1000),
          servers
        })
      )
    })

  /** Closes every host: each server shuts down as on Ctrl-C. */
  const closeAll = Effect.suspend(() =>
    Effect.forEach([...entries.values()], (e) => {
      entries.delete(e.key)
      e.retired = true
      return Scope.close(e.scope, Exit.void)
    }, { concurrency: "unbounded", discard: true })
  )

  return { provider, status, closeAll, recheck }
}
