/**
 * Every error a user can see, as `Schema.TaggedError` classes. Each carries what went wrong, where
 * (file, server, tool) and what to do next, and maps to one exit code of docs/CLI.md. Errors made
 * from a failure underneath (a Node error, an SDK error) keep it as `cause`, for logs and
 * debugging; messages never depend on it, and `--json` output leaves it out.
 */
import * as Schema from "effect/Schema"

/** The failure underneath an error, when there is one. */
const cause = Schema.optional(Schema.Unknown)

/**
 * A settings file or flag is wrong: names the file, the JSON path and the fix. Exit 2.
 * @since 0.1.0
 */
export class ConfigError extends Schema.TaggedError<ConfigError>()("ConfigError", {
  message: Schema.String,
  cause,
  file: Schema.optional(Schema.String),
  path: Schema.optional(Schema.String)
}) {}

/**
 * The command line itself is wrong (unknown tool, bad `--args`, missing argument). Exit 2.
 * @since 0.1.0
 */
export class UsageError extends Schema.TaggedError<UsageError>()("UsageError", {
  message: Schema.String,
  cause
}) {}

/**
 * A call was refused by a rule, or asked without a way to answer. Exit 3.
 * @since 0.1.0
 */
export class PermissionDenied extends Schema.TaggedError<PermissionDenied>()("PermissionDenied", {
  message: Schema.String,
  cause,
  tool: Schema.String,
  /** The rule that decided (deny) or the rule to add (ask without a terminal). */
  rule: Schema.String,
  behavior: Schema.Literal("deny", "ask"),
  /**
   * The `permissions.ask` rule that asked, when one did (an allow rule would not help: ask beats
   * allow); absent when the tool was asked for because no rule allowed it.
   */
  askRule: Schema.optional(Schema.String)
}) {}

/**
 * A pinned tool's definition changed since it was pinned (a possible "rug pull"): the call is
 * refused until the user accepts it with `mcpctl trust SERVER [TOOL]`. Exit 3, like a refusal.
 * @since 0.1.0
 */
export class ToolChanged extends Schema.TaggedError<ToolChanged>()("ToolChanged", {
  message: Schema.String,
  cause,
  server: Schema.String,
  tool: Schema.String,
  /** The parts that differ: title, description, inputSchema, outputSchema, annotations. */
  changed: Schema.Array(Schema.String)
}) {}

/**
 * Server states other than connected, as the pool reports them.
 * @since 0.1.0
 */
export const UnavailableStatus = Schema.Literal("failed", "needs-auth", "pending", "disabled")
/** @since 0.1.0 */
export type UnavailableStatus = typeof UnavailableStatus.Type

/**
 * A server could not be used: failed to start or connect, needs auth, timed out, disabled. Exit 4.
 * @since 0.1.0
 */
export class ServerUnavailable extends Schema.TaggedError<ServerUnavailable>()("ServerUnavailable", {
  message: Schema.String,
  cause,
  server: Schema.String,
  status: UnavailableStatus
}) {}

/**
 * A transport-level failure talking to a connected server (connection lost, reset, bad frame). Exit 4.
 * @since 0.1.0
 */
export class TransportFailure extends Schema.TaggedError<TransportFailure>()("TransportFailure", {
  message: Schema.String,
  cause,
  server: Schema.String,
  /** Node error code (ECONNRESET, EPIPE, …) or HTTP status, when known. */
  code: Schema.optional(Schema.String),
  /** True when a request was in flight and may have run on the server. */
  mayHaveRun: Schema.optional(Schema.Boolean),
  /**
   * What broke: `closed` (the peer closed the connection), `not-sent` (the request never left
   * this process), `broken` (a reset, refusal, timeout or closed pipe), `other` (a failure with
   * a code that names no broken connection). All but `other` count toward closing a connection.
   */
  reason: Schema.optional(Schema.Literal("closed", "not-sent", "broken", "other"))
}) {}

/**
 * A Streamable HTTP session expired (404 with JSON-RPC -32001): re-initialize and retry once.
 * @since 0.1.0
 */
export class SessionExpired extends Schema.TaggedError<SessionExpired>()("SessionExpired", {
  message: Schema.String,
  cause,
  server: Schema.String
}) {}

/**
 * The server answered a request with a JSON-RPC error: it is up and refused or failed this one
 * request (bad SQL, an unknown resource, wrong arguments). Exit 2 when it blames the request's
 * parameters (-32602 invalid params, -32002 resource not found), else 1; not 4, which says the
 * server itself cannot be used, unless `refusedAnswer`: mcpctl refused what the server sent
 * (over the size limit, not matching the tool's output schema).
 * @since 0.1.0
 */
export class McpRequestError extends Schema.TaggedError<McpRequestError>()("McpRequestError", {
  message: Schema.String,
  cause,
  server: Schema.String,
  method: Schema.String,
  code: Schema.Number,
  /** True when the error is mcpctl's refusal of the server's answer, not the server's own. */
  refusedAnswer: Schema.optional(Schema.Boolean),
  /** The `data` of the server's JSON-RPC error, kept so a gateway can pass it on. */
  data: Schema.optional(Schema.Unknown),
  /** True when the server answered with this JSON-RPC error itself (not a timeout or transport failure of ours). */
  fromServer: Schema.optional(Schema.Boolean)
}) {}

/**
 * A tool call ran past its timeout; the request was cancelled. Exit 5.
 * @since 0.1.0
 */
export class ToolTimeout extends Schema.TaggedError<ToolTimeout>()("ToolTimeout", {
  message: Schema.String,
  cause,
  server: Schema.String,
  tool: Schema.String,
  timeoutMs: Schema.Number
}) {}

/**
 * Any error of this module.
 * @since 0.1.0
 */
export type McpctlError =
  | ConfigError
  | UsageError
  | PermissionDenied
  | ToolChanged
  | ServerUnavailable
  | TransportFailure
  | SessionExpired
  | McpRequestError
  | ToolTimeout

/** JSON-RPC codes that say the request itself was wrong: invalid params, resource not found. */
const requestRefusedCodes: ReadonlyArray<number> = [-32602, -32002]

/**
 * The exit code docs/CLI.md promises for each error.
 * @since 0.1.0
 */
export const exitCodeOf = (error: McpctlError): number => {
  switch (error._tag) {
    case "ConfigError":
    case "UsageError":
      return 2
    case "PermissionDenied":
    case "ToolChanged":
      return 3
    case "ServerUnavailable":
    case "TransportFailure":
    case "SessionExpired":
      return 4
    case "McpRequestError":
      return error.refusedAnswer ? 4 : requestRefusedCodes.includes(error.code) ? 2 : 1
    case "ToolTimeout":
      return 5
  }
}
