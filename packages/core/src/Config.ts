/**
 * Settings: the `mcpServers` and `permissions` of every scope (user, project, local, --config),
 * decoded, merged and with `${VAR}` expanded, as the `McpConfig` service the rest of the host
 * reads. Loading is the only place that touches settings files.
 */
import * as Context from "effect/Context"
import * as Schema from "effect/Schema"

/** OAuth options of a remote server (pre-registered client, scopes, fixed callback port). */
export const OAuthOptions = Schema.Struct({
  clientId: Schema.optional(Schema.String),
  clientSecret: Schema.optional(Schema.String),
  scopes: Schema.optional(Schema.Array(Schema.String)),
  callbackPort: Schema.optional(Schema.Number)
})
export type OAuthOptions = typeof OAuthOptions.Type

/** A local server: a child process speaking JSON-RPC over stdin/stdout. */
export const StdioServerConfig = Schema.Struct({
  type: Schema.optional(Schema.Literal("stdio")),
  command: Schema.String,
  args: Schema.optional(Schema.Array(Schema.String)),
  env: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String })),
  cwd: Schema.optional(Schema.String),
  timeout: Schema.optional(Schema.Number),
  disabled: Schema.optional(Schema.Boolean)
})
export type StdioServerConfig = typeof StdioServerConfig.Type

/** A remote server over Streamable HTTP, SSE or WebSocket. No `type`: decided from the URL. */
export const RemoteServerConfig = Schema.Struct({
  type: Schema.optional(Schema.Literal("http", "sse", "ws")),
  url: Schema.String,
  headers: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String })),
  timeout: Schema.optional(Schema.Number),
  disabled: Schema.optional(Schema.Boolean),
  oauth: Schema.optional(OAuthOptions)
})
export type RemoteServerConfig = typeof RemoteServerConfig.Type

export const ServerConfig = Schema.Union(StdioServerConfig, RemoteServerConfig)
export type ServerConfig = typeof ServerConfig.Type

/** Where a setting came from, lowest to highest precedence. */
export const Scope = Schema.Literal("user", "project", "local", "flag", "adhoc")
export type Scope = typeof Scope.Type

/**
 * How a server is reached. `auto` is a `url` without `type` whose path does not end in `/sse`:
 * Streamable HTTP first, SSE when the first POST answers 4xx.
 */
export type TransportKind = "stdio" | "http" | "sse" | "ws" | "auto"

/** One server after merge and expansion: what the pool connects to. */
export interface ResolvedServer {
  /** Normalized name, `[A-Za-z0-9_-]` only; the `<server>` of `mcp__<server>__<tool>`. */
  readonly name: string
  /** The key as written in the settings file. */
  readonly originalName: string
  readonly scope: Scope
  /** The file that defined it (absolute path), or `--url`/`--stdio` for ad-hoc servers. */
  readonly source: string
  readonly transport: TransportKind
  /** The entry with every `${VAR}` expanded. */
  readonly config: ServerConfig
}

/** Permission rules of every scope, combined; each rule remembers its file for messages. */
export interface PermissionRules {
  readonly allow: ReadonlyArray<string>
  readonly ask: ReadonlyArray<string>
  readonly deny: ReadonlyArray<string>
}

/** Knobs read from the environment (CLI.md, Environment), with their defaults applied. */
export interface Limits {
  /** `MCP_TIMEOUT`: connect timeout per server, ms. */
  readonly connectTimeoutMs: number
  /** `MCP_TOOL_TIMEOUT`: default tool-call timeout, ms; undefined means none. */
  readonly toolTimeoutMs: number | undefined
  /** `MAX_MCP_OUTPUT_TOKENS`: output budget of one call, in tokens (~4 characters each). */
  readonly maxOutputTokens: number
  /** `MCP_SERVER_CONNECTION_BATCH_SIZE`: stdio servers connecting at once. */
  readonly localConcurrency: number
  /** `MCP_REMOTE_SERVER_CONNECTION_BATCH_SIZE`: remote servers connecting at once. */
  readonly remoteConcurrency: number
}

export const defaultLimits: Limits = {
  connectTimeoutMs: 30_000,
  toolTimeoutMs: undefined,
  maxOutputTokens: 25_000,
  localConcurrency: 3,
  remoteConcurrency: 20
}

/** The merged settings the host runs on. */
export class McpConfig extends Context.Tag("@mcpctl/core/McpConfig")<
  McpConfig,
  {
    readonly servers: ReadonlyArray<ResolvedServer>
    readonly permissions: PermissionRules
    readonly limits: Limits
    /** `$MCPCTL_HOME` (user settings, tokens, caches), absolute. */
    readonly home: string
    /** The project directory (`--cwd` or the current directory), absolute. */
    readonly projectDir: string
    /** Non-fatal findings (unknown fields, ...), already phrased for the user. */
    readonly warnings: ReadonlyArray<string>
  }
>() {}
