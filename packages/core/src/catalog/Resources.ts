/**
 * Resources and prompts, beside the tools: listed per server (cached on the connection like tools
 * lists, so a closed connection drops them), read and fetched through the pool's one request path.
 * Also the small protocol features a host needs around them: argument completion and the
 * server's log level. This module is the signatures and docs; the implementation is
 * `internal/catalog/resources.ts`.
 */
import * as internal from "../internal/catalog/resources.js"

/**
 * A resource with the server that offers it.
 * @since 0.1.0
 */
export type ServerResource = internal.ServerResource

/**
 * A resource template with the server that offers it.
 * @since 0.1.0
 */
export type ServerResourceTemplate = internal.ServerResourceTemplate

/**
 * A prompt with the server that offers it.
 * @since 0.1.0
 */
export type ServerPrompt = internal.ServerPrompt

/**
 * A server's resources; empty when it does not offer resources.
 * @since 0.1.0
 */
export const listResources: typeof internal.listResources = internal.listResources

/**
 * A server's resource templates; empty when it does not offer resources.
 * @since 0.1.0
 */
export const listResourceTemplates: typeof internal.listResourceTemplates = internal.listResourceTemplates

/**
 * A server's prompts; empty when it does not offer prompts.
 * @since 0.1.0
 */
export const listPrompts: typeof internal.listPrompts = internal.listPrompts

/**
 * Reads one resource.
 * @since 0.1.0
 */
export const readResource: typeof internal.readResource = internal.readResource

/**
 * Gets one prompt with its arguments filled in, unchecked (see {@link getPromptChecked}). With a
 * gateway's `relay`, a server's `input_required` answer is the result (pool/InputRelay.ts).
 * @since 0.1.0
 */
export const getPrompt: typeof internal.getPrompt = internal.getPrompt

/**
 * A server that could not be listed: one entry per server, so one bad server never hides the rest.
 * @since 0.1.0
 */
export type ListFailure = internal.ListFailure

/**
 * Resources and templates of many servers (default: all enabled) for `mcpctl resources`; a server
 * that fails is reported in `errors` once, even though both lists were asked of it.
 * @since 0.1.0
 */
export const listAllResources: typeof internal.listAllResources = internal.listAllResources

/**
 * Resources grouped by server name, the shape of the `mcp_resources` dictionary an agent host
 * hands to a model; servers that fail are left out (use {@link listAllResources} for why).
 * @since 0.1.0
 */
export const resourcesByServer: typeof internal.resourcesByServer = internal.resourcesByServer

/**
 * Prompts of many servers (default: all enabled), with one error entry per unusable server.
 * @since 0.1.0
 */
export const listAllPrompts: typeof internal.listAllPrompts = internal.listAllPrompts

/**
 * One content of a read: text stays inline, a blob becomes a file descriptor.
 * @since 0.1.0
 */
export type ReadContent = internal.ReadContent

/**
 * A read result safe to print: no base64 anywhere.
 * @since 0.1.0
 */
export type ReadResult = internal.ReadResult

/**
 * Reads a resource and writes each blob under `dir` (content-addressed, like call output), because
 * a terminal or a model can do nothing with base64 but a path is useful to both.
 * @since 0.1.0
 */
export const readResourceToFiles: typeof internal.readResourceToFiles = internal.readResourceToFiles

/**
 * Checks `args` against the prompt's declared arguments before asking the server, because servers
 * answer a missing or misspelled argument with an opaque validation error (or silently ignore it).
 * Pure; the error names the offending key and lists the declared ones.
 * @since 0.1.0
 */
export const checkPromptArguments: typeof internal.checkPromptArguments = internal.checkPromptArguments

/**
 * Parses `key=value` pairs as prompt arguments (prompt arguments are always strings).
 * @since 0.1.0
 */
export const parsePromptPairs: typeof internal.parsePromptPairs = internal.parsePromptPairs

/**
 * Finds a prompt by name on a server; an unknown name lists the server's prompts.
 * @since 0.1.0
 */
export const findPrompt: typeof internal.findPrompt = internal.findPrompt

/**
 * Gets a prompt after checking the arguments against its declaration (see {@link checkPromptArguments}).
 * @since 0.1.0
 */
export const getPromptChecked: typeof internal.getPromptChecked = internal.getPromptChecked

/**
 * One prompt message with binaries as files.
 * @since 0.1.0
 */
export type PromptMessage = internal.PromptMessage

/**
 * Writes images, audio and blob resources of prompt messages under `dir`, as `call` does for tool
 * results, so a prompt can be printed or handed on without base64.
 * @since 0.1.0
 */
export const persistPromptMessages: typeof internal.persistPromptMessages = internal.persistPromptMessages

/**
 * What to complete: a prompt's argument, or a resource template's variable.
 * @since 0.1.0
 */
export type CompletionRef = internal.CompletionRef

/**
 * Asks a server for completions of one argument (`completion/complete`), so a host can offer
 * values while a user fills in a prompt or a template. `context` carries the arguments already
 * chosen, which servers use to narrow later ones. A server without the `completions` capability
 * answers with no values instead of an error.
 * @since 0.1.0
 */
export const complete: typeof internal.complete = internal.complete

/**
 * The MCP log levels, least severe first (syslog order, as the spec defines them).
 * @since 0.1.0
 */
export const logLevels: typeof internal.logLevels = internal.logLevels

/**
 * True when a message at `level` should be shown at the chosen `threshold`. Filtering on the client
 * too, because servers without `logging/setLevel` send whatever they like.
 * @since 0.1.0
 */
export const levelAtLeast: typeof internal.levelAtLeast = internal.levelAtLeast

/**
 * Tells a server which log level to send (`logging/setLevel`), once per connection; a server
 * without the `logging` capability is left alone (the request would be an error there). A
 * 2026-07-28 connection has no `logging/setLevel`: its requests name the level from now on.
 * @since 0.1.0
 */
export const setLogLevel: typeof internal.setLogLevel = internal.setLogLevel

/**
 * The MCP log level names.
 * @since 0.1.0
 */
export type LogLevel = internal.LogLevel

/**
 * One server log message (`notifications/message`) with the server that sent it.
 * @since 0.1.0
 */
export type ServerLog = internal.ServerLog

/**
 * A `configureClient` hook for `ConnectionPool.layerWith` that hands every server log message at
 * or above `threshold` to `write`. Without a handler the SDK drops them; a host decides where they
 * go (the CLI: stderr, so `--json` stdout stays clean).
 * @since 0.1.0
 */
export const forwardServerLogs: typeof internal.forwardServerLogs = internal.forwardServerLogs
