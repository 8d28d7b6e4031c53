/**
 * The shapes of settings: server entries (Schemas), the resolved server the pool connects to,
 * permission rules, limits and the inputs of loading. A leaf: it imports nothing of mcpctl but the
 * leaf `Suggest`, so every stage can depend on it without a cycle.
 */
// @ts-nocheck

import * as Schema from "effect/Schema"
import { didYouMean } from "../internal/Suggest.js"

/**
 * OAuth options of a remote server (pre-registered client, scopes, fixed callback port, grant modes, DPoP).
 * @since 0.1.0
 */
export const OAuthOptions = Schema.Struct({
  clientId: Schema.optional(Schema.String),
  clientSecret: Schema.optional(Schema.String),
  scopes: Schema.optional(Schema.Array(Schema.String)),
  callbackPort: Schema.optional(Schema.Number),
  /**
   * An HTTPS URL of mcpctl's client ID metadata document (SEP-991): authorization servers that
   * support it take the URL as the client ID, so no dynamic registration is needed.
   */
  clientMetadataUrl: Schema.optional(Schema.String),
  /**
   * `client_credentials` for machine-to-machine servers (SEP-1046): tokens come from
   * `clientId` + `clientSecret` (HTTP Basic) or a signed JWT (`privateKeyFile`), no browser.
   * Default `authorization_code`.
   */
  grantType: Schema.optional(Schema.Literal("authorization_code", "client_credentials", "jwt-bearer", "cross-app-access")),
  /** PEM (PKCS#8) private key file for `private_key_jwt` client authentication. */
  privateKeyFile: Schema.optional(Schema.String),
  /** JWT signing algorithm of `privateKeyFile` (default ES256). */
  signingAlgorithm: Schema.optional(Schema.String),
  /**
   * DPoP (RFC 9449): tokens bound to a key pair kept 0600 beside them in `$MCPCTL_HOME/oauth/`,
   * every request signed with it. With `authorization_code`.
   */
  dpop: Schema.optional(Schema.Boolean),
  /**
   * `jwt-bearer` (workload identity federation, RFC 7523): the workload's JWT, read at each token
   * request from this file or from the environment variable named by `assertionEnv`.
   */
  assertionFile: Schema.optional(Schema.String),
  assertionEnv: Schema.optional(Schema.String),
  /**
   * `cross-app-access` (enterprise-managed authorization): the enterprise IdP's ID token (a file,
   * or the variable named by `idTokenEnv`) is exchanged at the IdP for an ID-JAG (RFC 8693), which
   * `clientId`/`clientSecret` then trade for an access token (RFC 7523). The IdP is named by its
   * token endpoint, or by its issuer URL (`idpUrl`, discovered).
   */
  idpTokenEndpoint: Schema.optional(Schema.String),
  idpUrl: Schema.optional(Schema.String),
  idpClientId: Schema.optional(Schema.String),
  idpClientSecret: Schema.optional(Schema.String),
  idTokenFile: Schema.optional(Schema.String),
  idTokenEnv: Schema.optional(Schema.String)
})
/** @since 0.1.0 */
export type OAuthOptions = typeof OAuthOptions.Type

/**
 * Which protocol era mcpctl speaks with a server (docs/protocol.md): `modern` is MCP
 * 2026-07-28 (no `initialize`; `server/discover`, per-request `_meta`), `legacy` the 2025-era
 * `initialize` handshake (2025-11-25, 06-18, 03-26), `auto` (the default) probes once and
 * remembers the verdict in `$MCPCTL_HOME/eras.json`.
 * @since 0.1.0
 */
export const Protocol = Schema.Literal("auto", "modern", "legacy")
/** @since 0.1.0 */
export type Protocol = typeof Protocol.Type

/**
 * Per-tool settings of a server, keyed by the server's own tool name.
 * @since 0.1.0
 */
export const ToolSettings = Schema.Struct({
  /** Output budget of this tool's calls, in tokens; overrides the server's and any `_meta` hint. */
  maxOutputTokens: Schema.optional(Schema.Number)
})
/** @since 0.1.0 */
export type ToolSettings = typeof ToolSettings.Type

/**
 * What every server entry may carry about its catalogue (CLI.md, Settings): which of its tools
 * exist for mcpctl at all, whether they are loaded up front by `serve --tool-search`, whether
 * their definitions are pinned, and per-tool output budgets. The same names other hosts use
 * (gemini-cli `includeTools`/`excludeTools`; Codex `enabled_tools`/`disabled_tools` map onto them).
 */
const catalogFields = {
  /** Globs on the server's own tool names: only matching tools are listed and callable. */
  includeTools: Schema.optional(Schema.Array(Schema.String)),
  /** Globs on the server's own tool names: matching tools are hidden (wins over `includeTools`). */
  excludeTools: Schema.optional(Schema.Array(Schema.String)),
  /** `serve --tool-search` lists this server's tools directly instead of behind `search_tools`. */
  alwaysLoad: Schema.optional(Schema.Boolean),
  /** `false`: do not pin this server's tool definitions (CLI.md, Pinning). Default true. */
  pin: Schema.optional(Schema.Boolean),
  /** Per-tool settings by the server's own tool name. */
  tools: Schema.optional(Schema.Record({ key: Schema.String, value: ToolSettings })),
  /** The protocol era: `auto` (default), `modern` (2026-07-28) or `legacy` (2025-era). */
  protocol: Schema.optional(Protocol)
}

/**
 * A local server: a child process speaking JSON-RPC over stdin/stdout.
 * @since 0.1.0
 */
export const StdioServerConfig = Schema.Struct({
  type: Schema.optional(Schema.Literal("stdio")),
  command: Schema.String,
  args: Schema.optional(Schema.Array(Schema.String)),
  env: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String })),
  cwd: Schema.optional(Schema.String),
  timeout: Schema.optional(Schema.Number),
  /** Output budget of this server's calls, in tokens; overrides `MAX_MCP_OUTPUT_TOKENS`. */
  maxOutputTokens: Schema.optional(Schema.Number),
  disabled: Schema.optional(Schema.Boolean),
  ...catalogFields
})
/** @since 0.1.0 */
export type StdioServerConfig = typeof StdioServerConfig.Type

/**
 * A remote server over Streamable HTTP, SSE or WebSocket. No `type`: decided from the URL.
 * @since 0.1.0
 */
export const RemoteServerConfig = Schema.Struct({
  type: Schema.optional(Schema.Literal("http", "sse", "ws")),
  url: Schema.String,
  headers: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String })),
  timeout: Schema.optional(Schema.Number),
  /** Output budget of this server's calls, in tokens; overrides `MAX_MCP_OUTPUT_TOKENS`. */
  maxOutputTokens: Schema.optional(Schema.Number),
  disabled: Schema.optional(Schema.Boolean),
  oauth: Schema.optional(OAuthOptions),
  ...catalogFields
})
/** @since 0.1.0 */
export type RemoteServerConfig = typeof RemoteServerConfig.Type

/** @since 0.1.0 */
export const ServerConfig = Schema.Union(StdioServerConfig, RemoteServerConfig)
/** @since 0.1.0 */
export type ServerConfig = typeof ServerConfig.Type

/**
 * Where a setting came from, lowest to highest precedence.
 * @since 0.1.0
 */
export const Scope = Schema.Literal("user", "project", "local", "flag", "adhoc")
/** @since 0.1.0 */
export type Scope = typeof Scope.Type

/**
 * How a server is reached. `auto` is a `url` without `type` whose path does not end in `/sse`:
 * Streamable HTTP first, SSE when the first POST answers 4xx.
 * @since 0.1.0
 */
export type TransportKind = "stdio" | "http" | "sse" | "ws" | "auto"

/**
 * One server after merge and expansion: what the pool connects to.
 * @since 0.1.0
 */
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
  /** The entry as written, `${VAR}`s unexpanded: what `get` shows, so values from variables stay secret. */
  readonly rawConfig?: ServerConfig | undefined
  /**
   * Why the entry cannot be used as written (a `${VAR}` that is unset and has no default): the
   * message names the file, the field and the variable. Such a server is one failed server, never
   * started or contacted (`config` is then the entry unexpanded); the other servers run.
   */
  readonly unresolved?: { readonly message: string; readonly path: string } | undefined
}

/**
 * Permission rules of every scope, combined; each rule remembers its file for messages.
 * @since 0.1.0
 */
export interface PermissionRules {
  readonly allow: ReadonlyArray<string>
  readonly ask: ReadonlyArray<string>
  readonly deny: ReadonlyArray<string>
  /**
   * The allow rules (also in `allow`) found only in the project's shared files (`.mcp.json`,
   * `.mcpctl/settings.json`): they approve tools of the project's own servers (`projectServers`) only, so a trusted repository's
   * `mcp__*` cannot approve the user's servers. Its deny and ask rules apply everywhere (they
   * only restrict).
   */
  readonly projectAllow?: ReadonlyArray<string> | undefined
  /** The servers defined in project or local scope files, the ones `projectAllow` reaches. */
  readonly projectServers?: ReadonlyArray<string> | undefined
  /**
   * The settings files each rule was read from, per list (`sources.deny["mcp__fs__write_file"]`),
   * so a denial names the file to edit. Absent for rules written in code.
   */
  readonly sources?: {
    readonly [K in "allow" | "ask" | "deny"]?: Readonly<Record<string, ReadonlyArray<string>>>
  } | undefined
}

/**
 * Knobs read from the environment (docs/CLI.md, Environment), with their defaults applied.
 * @since 0.1.0
 */
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
  /** `MCPCTL_MAX_RESPONSE_BYTES`: the largest message a server may send, on every transport. */
  readonly maxResponseBytes: number
  /**
   * `MCPCTL_STARTUP_GRACE`: ms after its spawn a silent stdio server counts as ready to read (the
   * era probe's wait starts then, or at its first output); undefined: the default (10 s).
   */
  readonly startupGraceMs?: number | undefined
}

/** @since 0.1.0 */
export const defaultLimits: Limits = {
  connectTimeoutMs: 30_000,
  toolTimeoutMs: undefined,
  maxOutputTokens: 25_000,
  localConcurrency: 3,
  remoteConcurrency: 20,
  maxResponseBytes: 32 * 1024 * 1024
}

/**
 * The environment as loading sees it; injectable so tests never touch `process.env`.
 * @since 0.1.0
 */
export type Env = Readonly<Record<string, string | undefined>>

/**
 * Inputs of `load`: everything the CLI flags and the process contribute, all optional.
 * @since 0.1.0
 */
export interface LoadOptions {
  /** The project directory (`--cwd`); defaults to the current directory. */
  readonly cwd?: string
  /** `--config FILE`s in order; relative paths resolve against the process's current directory. */
  readonly configFiles?: ReadonlyArray<string>
  readonly env?: Env
  /** `$MCPCTL_HOME` override; else `env.MCPCTL_HOME`, else `~/.mcpctl`. */
  readonly home?: string
  /** Servers given on the command line (`--url`, `--stdio`): scope `adhoc`, highest precedence. */
  readonly adhoc?: ReadonlyArray<{ readonly name: string; readonly config: ServerConfig }>
  /**
   * Asks for a VS Code input that a `--config` file's server uses and the environment does not
   * set (a terminal prompt); undefined or an undefined answer makes it a configuration error.
   */
  readonly askInput?: ((input: HostInput) => Promise<string | undefined>) | undefined
  /**
   * Asks whether to trust the project directory's own settings files (a terminal prompt showing
   * what they would run); a yes is remembered for these files' contents. Undefined: an untrusted
   * project's servers and rules are skipped with a warning (`ProjectTrust.ts`).
   */
  readonly askTrust?: ((request: ProjectTrustRequest) => Promise<boolean>) | undefined
  /** Trust the project's settings without asking (an embedding application that vouches for them). */
  readonly trustProject?: boolean | undefined
}

/**
 * What trusting a project would start and apply, for `LoadOptions.askTrust` (see `ProjectTrust.ts`).
 * @since 0.1.0
 */
export interface ProjectTrustRequest {
  readonly dir: string
  /** The hash of the files' contents that trust is remembered for. */
  readonly hash: string
  readonly files: ReadonlyArray<{ readonly name: string; readonly settings: ParsedSettings }>
}

/**
 * A VS Code `inputs` entry that servers of a `--config` file use (`${input:id}`): its value comes
 * from the variable `MCPCTL_INPUT_<ID>`, else it is asked on a terminal (`LoadOptions.askInput`).
 * @since 0.1.0
 */
export interface HostInput {
  readonly id: string
  /** The variable the value is read from, `MCPCTL_INPUT_<ID>`. */
  readonly variable: string
  /** The servers (names as written) whose entries use it. */
  readonly servers: ReadonlyArray<string>
  readonly description?: string | undefined
  /** Asked without echo. */
  readonly password: boolean
  /** False when the file uses `${input:id}` without declaring it under `inputs`. */
  readonly declared: boolean
}

/**
 * One settings file after parsing and decoding, before merge and `${VAR}` expansion.
 * @since 0.1.0
 */
export interface ParsedSettings {
  readonly servers: ReadonlyArray<{ readonly name: string; readonly config: ServerConfig }>
  readonly permissions: PermissionRules
  readonly warnings: ReadonlyArray<string>
  /** VS Code inputs used by this file's servers (other hosts' formats only). */
  readonly inputs?: ReadonlyArray<HostInput> | undefined
}

/**
 * A parsed file tagged with where it came from, the input of `mergeSettings`.
 * @since 0.1.0
 */
export interface ScopedSettings {
  readonly scope: Scope
  readonly source: string
  readonly settings: ParsedSettings
}

/**
 * A merged server before expansion: the whole entry of the highest scope that defines it.
 * @since 0.1.0
 */
export interface MergedServer {
  readonly name: string
  readonly originalName: string
  readonly scope: Scope
  readonly source: string
  readonly config: ServerConfig
}

/**
 * The merged settings the host runs on: the shape of the `McpConfig` service.
 * @since 0.1.0
 */
export interface Settings {
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

/**
 * Inputs of `McpConfig.layerStatic`.
 * @since 0.1.0
 */
export interface StaticOptions {
  readonly servers?: Readonly<Record<string, ServerConfig>>
  readonly permissions?: Partial<PermissionRules>
  readonly limits?: Partial<Limits>
  readonly env?: Env
  readonly home?: string
  readonly projectDir?: string
}

/**
 * The one message for server names that are not configured (a typo on the command line, a tool
 * name with a wrong server part): it lists what is configured and how to add one.
 * @since 0.1.0
 */
export const unknownServerMessage = (names: ReadonlyArray<string>, servers: ReadonlyArray<ResolvedServer>): string =>
  `No server named ${names.map((n) => `"${n}"`).join(", ")}.${
    names.length === 1 ? didYouMean(names[0]!, servers.map((s) => s.name)) : ""
  } Configured: ${servers.map((s) => s.name).join(", ") || "none"}. \`mcpctl servers\` lists them; add one with \`mcpctl add NAME -- COMMAND ARGS…\`.`

/**
 * A server by its normalized name or by the name as written in the settings.
 * @since 0.1.0
 */
export const findServer = (servers: ReadonlyArray<ResolvedServer>, name: string): ResolvedServer | undefined =>
  servers.find((s) => s.name === name) ?? servers.find((s) => s.originalName === name)

/**
 * The transport a server uses; `auto` lets the pool try Streamable HTTP then fall back to SSE.
 * @since 0.1.0
 */
export function transportOf(config: ServerConfig): TransportKind {
  if ("command" in config) return "stdio"
  if (config.type) return config.type
  if (/^wss?:/i.test(config.url)) return "ws"
  try {
    return new URL(config.url).pathname.replace(/\/+$/, "").endsWith("/sse") ? "sse" : "auto"
  } catch {
    return config.url.split(/[?#]/)[0]!.replace(/\/+$/, "").endsWith("/sse") ? "sse" : "auto"
  }
}
