/**
 * What tests are made of, stated once: the fixture MCP servers on disk, and builders for the
 * settings shapes the host runs on (`ResolvedServer`, the `McpConfig` service), so no test writes
 * those literals by hand and a new field of either is added in one place.
 */
import type { ConfigError } from "@mcpctl/core/Errors"
import { McpConfig } from "@mcpctl/core/McpConfig"
import {
  defaultLimits,
  type Limits,
  type PermissionRules,
  type RemoteServerConfig,
  type ResolvedServer,
  type ServerConfig,
  type Settings,
  type StaticOptions,
  type StdioServerConfig,
  transportOf
} from "@mcpctl/core/ServerConfig"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

// ---------------------------------------------------------------------------------------------
// Fixture servers (absolute paths, so tests in any package can spawn them with `node` or `sh`)
// ---------------------------------------------------------------------------------------------

/**
 * A well-behaved stdio MCP server (echo, add, slow, fail, big, destructive_thing, crash; a resource, a
 * prompt). Misbehaviour on request, as argv or in env `MCPCTL_ECHO_ARGS` (space-separated):
 * `--noise`, `--stderr TEXT`, `--fail-start`, `--never-initialize`; `--cancellations` adds a
 * `cancellations` tool telling what the server saw of cancelled `slow` calls.
 */
export const echoServer: string = fileURLToPath(new URL("./fixtures/echo-server.mjs", import.meta.url))

/**
 * A stdio server whose tools are what a JSON file says (`--tools FILE`), read again at every
 * `tools/list`: definitions can change between runs, and under a running host (it watches the
 * file and sends `notifications/tools/list_changed`).
 */
export const toolsServer: string = fileURLToPath(new URL("./fixtures/tools-server.mjs", import.meta.url))

/** A server that ignores SIGINT/SIGTERM/SIGHUP and stdin EOF, with a grandchild that does the same. */
export const stubbornServer: string = fileURLToPath(new URL("./fixtures/stubborn-server.mjs", import.meta.url))

/** `sh` wrapper around the stubborn server (sh → node → node), itself ignoring INT and TERM. */
export const stubbornWrapper: string = fileURLToPath(new URL("./fixtures/stubborn-wrapper.sh", import.meta.url))

/**
 * A hostile server (raw JSON-RPC, no SDK): output bombs, endless answers over stdio and HTTP,
 * infinite cursors, a ReDoS output schema, deep nesting, notification floods, and with
 * `--stubborn` a server and grandchild that only SIGKILL ends. Options in its header comment.
 */
export const hostileServer: string = fileURLToPath(new URL("./fixtures/hostile-server.mjs", import.meta.url))

/**
 * Real SDK v2 servers speaking both eras (2026-07-28 and 2025-era), one catalogue
 * (`fixtures/v2-catalog.mjs`): echo, add, era (which era served the call), regional_echo (an
 * `x-mcp-header` parameter; answers the `Mcp-Param-Region` header it got), deploy (multi round-trip
 * `input_required`: a confirmation form, then a reason form with `requestState`), add_tool (changes
 * the tool list), the resource `info://server` and the prompt `greet`. `--modern-only` rejects
 * 2025-era clients.
 *
 * The HTTP one is stateless Streamable HTTP (`createMcpHandler`) at `/mcp` of 127.0.0.1,
 * `--port PORT` (default any, printed as "listening URL"); start it with {@link httpServer}.
 */
export const v2HttpServer: string = fileURLToPath(new URL("./fixtures/v2-http-server.mjs", import.meta.url))

/**
 * A stdio SDK v2 server with the metadata of 2025-11-25 onward and completions: a tool, a
 * resource, a template and a prompt with `title` and `icons`; the template's `path` and the
 * prompt's `language` (narrowed by `style`, the context) complete from fixed lists.
 */
export const v2MetadataServer: string = fileURLToPath(new URL("./fixtures/v2-metadata-server.mjs", import.meta.url))

/**
 * A stdio SDK v2 server whose `greet` asks (input_required; elicitation/create in the 2025 era)
 * for a required `name` without a default until it gets one; `rounds` says how often greet ran.
 */
export const v2InsistServer: string = fileURLToPath(new URL("./fixtures/v2-insist-server.mjs", import.meta.url))

/**
 * A stdio SDK v2 server with the skills extension: `pdf-processing` (SKILL.md and
 * references/FORMS.md) and `git-helper`; `--tamper digest|frontmatter` serves a SKILL.md that
 * differs from its listing; the `reads` tool says which files the server was asked for.
 */
export const v2SkillsServer: string = fileURLToPath(new URL("./fixtures/v2-skills-server.mjs", import.meta.url))

/**
 * An SDK v2 server with the tasks extension (SEP-2663), stdio or `--http` (start it with
 * {@link httpServer}): `greet` (sync), `slow_compute {seconds, label}` (a task with a status
 * message a second, cancellable), `failing_job` (completed with isError), `protocol_error_job`
 * (failed), `started` (the task ids so far). Without the extension every tool runs synchronously.
 */
export const v2TasksServer: string = fileURLToPath(new URL("./fixtures/v2-tasks-server.mjs", import.meta.url))

/** The stdio SDK v2 server of {@link v2HttpServer}'s catalogue (`serveStdio`; the era is chosen by the opening message). */
export const v2StdioServer: string = fileURLToPath(new URL("./fixtures/v2-stdio-server.mjs", import.meta.url))

/**
 * An SDK v2 server (both eras; stdio, or stateless HTTP with `--http`) with the tools a host must
 * handle itself in the modern era: an invalid and a valid `x-mcp-header`, an array
 * `structuredContent`, `input_required` with an odd `requestState` and one that never ends,
 * JSON Schema 2020-12 schemas, and an output schema whose `$ref` points at `--ref-url URL`.
 */
export const v2ErasServer: string = fileURLToPath(new URL("./fixtures/v2-eras-server.mjs", import.meta.url))

/**
 * An HTTP fixture server (`node <script> <args…>` printing "listening URL" on stdout, like
 * {@link v2HttpServer}) for the scope: its URL and pid; killed when the scope closes.
 */
export const httpServer = (
  script: string,
  args: ReadonlyArray<string> = []
): Effect.Effect<{ readonly url: string; readonly pid: number }, Error, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.async<{ url: string; pid: number; kill: () => void }, Error>((resume) => {
      const child = spawn(process.execPath, [script, ...args], { stdio: ["ignore", "pipe", "inherit"] })
      let text = ""
      child.stdout.on("data", (chunk) => {
        text += chunk
        const m = /listening (\S+)/.exec(text)
        if (m) resume(Effect.succeed({ url: m[1]!, pid: child.pid!, kill: () => child.kill("SIGKILL") }))
      })
      child.on("exit", (code) => resume(Effect.fail(new Error(`${script} exited (${code}) before listening`))))
      return Effect.sync(() => child.kill("SIGKILL"))
    }),
    (s) => Effect.sync(() => s.kill())
  ).pipe(Effect.map(({ pid, url }) => ({ url, pid })))

// ---------------------------------------------------------------------------------------------
// Resolved servers
// ---------------------------------------------------------------------------------------------

/** The settings file every built server claims to come from (messages name it). */
export const SOURCE = "/test/settings.json"

/**
 * One server as the pool receives it after loading: normalized name = the name given, scope
 * `flag`, source {@link SOURCE}, transport decided from `config` the way settings files decide it
 * (`command` → stdio, `type`, else the URL). `overrides` replaces any of those.
 */
export const server = (name: string, config: ServerConfig, overrides: Partial<ResolvedServer> = {}): ResolvedServer => ({
  name,
  originalName: name,
  scope: "flag",
  source: SOURCE,
  transport: transportOf(config),
  config,
  ...overrides
})

/** A stdio entry for the in-memory transport, which never runs its command. */
export const inMemory = (name: string, config: Partial<StdioServerConfig> = {}): ResolvedServer =>
  server(name, { command: "in-memory", ...config })

/** A remote entry for the in-memory transport (`http://<name>.in-memory.test/mcp`, Streamable HTTP unless told). */
export const inMemoryRemote = (
  name: string,
  config: Partial<RemoteServerConfig> = {}
): ResolvedServer => server(name, { type: "http", url: `http://${name}.in-memory.test/mcp`, ...config })

/** A node script as a stdio server: `node <script> <args…>`, with `env` when given. */
export const nodeServer = (
  name: string,
  script: string,
  args: ReadonlyArray<string> = [],
  env?: Readonly<Record<string, string>>
): ResolvedServer => server(name, { command: process.execPath, args: [script, ...args], ...(env ? { env } : {}) })

// ---------------------------------------------------------------------------------------------
// The McpConfig service
// ---------------------------------------------------------------------------------------------

/** What a test says about its settings; everything else takes the loading defaults. */
export interface ConfigOptions {
  readonly servers?: ReadonlyArray<ResolvedServer>
  /** Missing lists are empty (so every call asks unless a rule says otherwise). */
  readonly permissions?: Partial<PermissionRules>
  /** On top of `defaultLimits`. */
  readonly limits?: Partial<Limits>
  /** `$MCPCTL_HOME`; see {@link settings} and {@link config} for the defaults. */
  readonly home?: string
  readonly projectDir?: string
  readonly warnings?: ReadonlyArray<string>
}

/** A home directory path that is never created: for settings whose home is never touched. */
export const UNUSED_HOME: string = path.join(tmpdir(), "mcpctl-test-unused-home")

/** The `McpConfig` service value; `home` defaults to {@link UNUSED_HOME}, `projectDir` to `/tmp`. */
export const settings = (options: ConfigOptions = {}): Settings => ({
  servers: options.servers ?? [],
  permissions: { allow: [], ask: [], deny: [], ...options.permissions },
  limits: { ...defaultLimits, ...options.limits },
  home: options.home ?? UNUSED_HOME,
  projectDir: options.projectDir ?? "/tmp",
  warnings: options.warnings ?? []
})

/**
 * The `McpConfig` layer of {@link settings}. Without `home`, each build gets a fresh empty home
 * directory (the pool keeps its needs-auth cache there), removed when the layer is released.
 */
export const config = (options: ConfigOptions = {}): Layer.Layer<McpConfig> =>
  options.home !== undefined
    ? Layer.sync(McpConfig, () => settings(options))
    : Layer.scoped(McpConfig, Effect.map(tempHome, (home) => settings({ ...options, home })))

/**
 * A fresh empty home directory (`$MCPCTL_HOME`) in the run's TMPDIR, removed when the scope closes:
 * the pool, pins and gateway write there (needs-auth cache, pins/, eras.json, processes/).
 */
export const tempHome: Effect.Effect<string, never, Scope.Scope> = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(path.join(tmpdir(), "mcpctl-test-home-"))),
  (home) => Effect.sync(() => rmSync(home, { recursive: true, force: true }))
)

/**
 * `McpConfig.layerStatic(options)`, the settings-in-code path with its merge and expansion, but
 * with a fresh home of its own unless `options.home` says otherwise: without one, layerStatic
 * resolves `~/.mcpctl`, and a test host would read and write the developer's real home.
 */
export const staticConfig = (options: StaticOptions = {}): Layer.Layer<McpConfig, ConfigError> =>
  options.home !== undefined
    ? McpConfig.layerStatic(options)
    : Layer.unwrapScoped(Effect.map(tempHome, (home) => McpConfig.layerStatic({ ...options, home })))
