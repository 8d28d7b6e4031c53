/**
 * The pool's vocabulary: what a connection is, what `servers` reports, the events and the
 * options. Shared by the public `pool/ConnectionPool.ts`, which names each for users, and the
 * implementation `internal/pool/pool.ts`. A leaf of the pool stage.
 */
import type { Client, ClientCapabilities, Implementation, ServerCapabilities } from "@modelcontextprotocol/client"
import type * as Duration from "effect/Duration"
import type { Protocol, ResolvedServer } from "../../config/ServerConfig.js"
import type { ServerUnavailable } from "../../Errors.js"
import type { ConcreteKind } from "../transport/OpenedTransport.js"
import type { ConnectionLists, ListKind } from "./ConnectionLists.js"
import type { Era } from "./EraCache.js"

/** How mcpctl introduces itself in `initialize`. */
export const clientInfo: Implementation = { name: "mcpctl", version: "0.1.0" }

/**
 * A connected server: the SDK client plus what `initialize` told us.
 */
export interface Connection {
  readonly server: ResolvedServer
  readonly client: Client
  readonly kind: ConcreteKind
  readonly serverInfo: Implementation | undefined
  readonly capabilities: ServerCapabilities | undefined
  /**
   * What the pool declared to the server as ours: in `initialize` (2025 era), and in every
   * 2026-07-28 envelope unless a request sends its own (a gateway's, for its client: InputRelay.ts).
   */
  readonly clientCapabilities: ClientCapabilities
  readonly instructions: string | undefined
  readonly connectMs: number
  /**
   * Lists fetched over this connection (tools, resources, prompts), by typed key. They live and
   * die with the connection, and `list_changed` drops the one it names.
   */
  readonly lists: ConnectionLists
  /** The server's process id (stdio only): for diagnostics, and for tests that kill it. */
  readonly pid: number | undefined
  /** The protocol era of the connection: 2026-07-28 and later (`modern`) or the 2025 era (`legacy`). */
  readonly era: Era
  /** The protocol version negotiated (`server/discover` or `initialize`). */
  readonly protocolVersion: string | undefined
  /** Legacy only because the era probe went unanswered within its wait (not remembered). */
  readonly eraByTimeout?: boolean | undefined
}

/**
 * Options of one request through the pool.
 */
export interface RunOptions {
  /**
   * Sending the request twice is harmless, so a request lost with its connection is sent once
   * more on a fresh one. Default: true for everything but `tools/call`, whose callers pass the
   * tool's `readOnlyHint || idempotentHint`.
   */
  readonly idempotent?: boolean | undefined
}

/**
 * What `servers` reports for one server.
 */
export type ServerState =
  | { readonly status: "connected"; readonly server: ResolvedServer; readonly connection: Connection }
  | {
    readonly status: "failed" | "needs-auth"
    readonly server: ResolvedServer
    readonly error: ServerUnavailable
    readonly connectMs?: number
  }
  | { readonly status: "pending" | "disabled"; readonly server: ResolvedServer }

/**
 * Something changed on a server: caches built on it must be dropped or refreshed.
 */
export type PoolEvent =
  | { readonly _tag: "Closed"; readonly server: string }
  | { readonly _tag: "ListChanged"; readonly server: string; readonly list: ListKind }

/**
 * Library knobs of the pool beyond the settings' limits.
 */
export interface PoolOptions {
  /**
   * How long an unused connection stays open. Default: forever (the CLI's runs are short; an
   * agent loop may want stdio servers closed after a few idle minutes and reopened on demand).
   */
  readonly idleTimeToLive?: Duration.DurationInput | undefined
  /** Client capabilities to declare (elicitation, roots, ...). */
  readonly capabilities?: ConstructorParameters<typeof Client>[1]
  /**
   * Called with each new client before it connects, to register request handlers. The pool owns
   * the `list_changed` notification handlers (they drop cached lists); subscribe to `events`.
   */
  readonly configureClient?: ((client: Client, server: ResolvedServer) => void) | undefined
  /**
   * Remember a failed connect for the pool's life: later uses of the server fail at once with the
   * same error instead of connecting (and waiting out MCP_TIMEOUT) again; `invalidate` forgets it
   * (after a sign-in). The CLI's commands make one connect attempt per server this way. Default
   * false: the next use tries again, as a long-lived host (serve) wants.
   */
  readonly rememberFailedConnects?: boolean | undefined
  /** `--protocol`: the era of every server for this pool, over their `protocol` settings. */
  readonly protocol?: Protocol | undefined
  /**
   * Open a `subscriptions/listen` stream on each modern connection whose server announces
   * `listChanged`, so catalogue changes arrive as on legacy connections (events, dropped
   * lists). Default true; one-shot commands turn it off (nothing they hold outlives the run).
   */
  readonly listen?: boolean | undefined
  /**
   * Declare the tasks extension (`io.modelcontextprotocol/tasks`): a server may then answer a
   * `tools/call` with a task (Tasks.ts). Default true; a host that cannot hand a task on to its
   * own client turns it off, and the server runs such calls to the end instead.
   */
  readonly tasks?: boolean | undefined
  /** How long `auto`'s era probe waits (ms); default `probeTimeout`. */
  readonly probeTimeoutMs?: number | undefined
}

/**
 * How long `auto`'s era probe waits: `probeTimeoutMs` when given, else a tenth of the connect
 * timeout (MCP_TIMEOUT) but at least 3 s; never more than the connect timeout. A user who raises
 * MCP_TIMEOUT for a slow machine or server gets a probe that waits in proportion: a fixed 3 s
 * probe that times out on a loaded machine sends a modern server `initialize` instead.
 */
export const probeTimeout = (probeTimeoutMs: number | undefined, connectTimeoutMs: number): number =>
  Math.min(probeTimeoutMs ?? Math.max(3_000, Math.round(connectTimeoutMs / 10)), connectTimeoutMs)
