/**
 * The implementation of `catalog/Resources.ts`: resources, templates and prompts listed per server
 * (cached on the connection), read and fetched through the pool's one request path, completion
 * and the server's log level.
 */
import type { CompleteResult, GetPromptResult, LoggingLevel, Prompt, ReadResourceResult, Resource, ResourceTemplateType, Client } from "@modelcontextprotocol/client"
import { ProtocolErrorCode } from "@modelcontextprotocol/client"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type { ResolvedServer } from "../../config/ServerConfig.js"
import { ListKey } from "../pool/ConnectionLists.js"
import { type Connection, ConnectionPool, request } from "../../pool/ConnectionPool.js"
import { type InputRelay, relayParams, requestCapabilities } from "../pool/InputRelay.js"
import { type RequestError } from "../pool/RequestErrors.js"
import { type ContentItem, type FileContent } from "../../content/ContentItem.js"
import { type OutputWriteError, persistBinary, persistCallContent } from "../content/Persist.js"
import { type ServerUnavailable, UsageError } from "../../Errors.js"
import { didYouMean } from "../Suggest.js"
import { collectPages } from "./Pagination.js"
import { HostClient } from "../pool/hostClient.js"

/**
 * A resource with the server that offers it.
 */
export interface ServerResource extends Resource {
  readonly server: string
}

/**
 * A resource template with the server that offers it.
 */
export interface ServerResourceTemplate extends ResourceTemplateType {
  readonly server: string
}

/**
 * A prompt with the server that offers it.
 */
export interface ServerPrompt extends Prompt {
  readonly server: string
}


// One request per page (as ToolRegistry's tools/list): SDK v2's list methods without a cursor
// walk every page themselves and cache the result, past the bounds of Pagination.ts.
const params = (cursor: string | undefined) => (cursor ? { cursor } : undefined)

/**
 * A list method the server does not implement (-32601) is an empty list: servers that declare
 * `resources` often implement `resources/list` but not `resources/templates/list` (server-postgres,
 * server-puppeteer), and one missing method must not hide what the other one lists.
 */
const emptyWhenNotImplemented = <A>(
  fetch: (c: Connection) => Effect.Effect<Array<A>, RequestError>
) =>
(c: Connection): Effect.Effect<Array<A>, RequestError> =>
  Effect.catchIf(
    fetch(c),
    (error) => error._tag === "McpRequestError" && error.fromServer === true && error.code === ProtocolErrorCode.MethodNotFound,
    () => Effect.succeed([])
  )

/** Every page of one list method, each page one request (bounded: Pagination.ts). */
const pagesOf = <T, I>(
  c: Connection,
  method: "resources/list" | "resources/templates/list" | "prompts/list",
  page: (client: Client, params: { cursor: string } | undefined, signal: AbortSignal) => Promise<{ readonly nextCursor?: string | undefined } & T>,
  items: (page: T) => ReadonlyArray<I>
) =>
  collectPages(c.server.name, method, (cursor) =>
    Effect.map(request(c, method, (client, signal) => page(client, params(cursor), signal)), (r) => ({ items: items(r), nextCursor: r.nextCursor })))

const fetchResources = emptyWhenNotImplemented((c) =>
  pagesOf(c, "resources/list", (client, params, signal) => client.request({ method: "resources/list", params }, { signal }),
    (r) => r.resources.map((x) => ({ ...x, server: c.server.name }))))

const fetchTemplates = emptyWhenNotImplemented((c) =>
  pagesOf(c, "resources/templates/list", (client, params, signal) => client.request({ method: "resources/templates/list", params }, { signal }),
    (r) => r.resourceTemplates.map((x) => ({ ...x, server: c.server.name }))))

const fetchPrompts = emptyWhenNotImplemented((c) =>
  pagesOf(c, "prompts/list", (client, params, signal) => client.request({ method: "prompts/list", params }, { signal }),
    (r) => r.prompts.map((x) => ({ ...x, server: c.server.name }))))

/** The lists on a connection (`connection.lists`): resources/list_changed drops templates too. */
const resourcesList = new ListKey<ReadonlyArray<ServerResource>>("resources", "resources")
const templatesList = new ListKey<ReadonlyArray<ServerResourceTemplate>>("templates", "resources")
const promptsList = new ListKey<ReadonlyArray<ServerPrompt>>("prompts", "prompts")

/**
 * A server's resources; empty when it does not offer resources.
 */
export const listResources = (server: string) =>
  Effect.flatMap(ConnectionPool, (pool) =>
    pool.run(server, "resources/list", (c): Effect.Effect<ReadonlyArray<ServerResource>, RequestError> =>
      c.capabilities?.resources ? c.lists.get(resourcesList, fetchResources(c)) : Effect.succeed([])))

/**
 * A server's resource templates; empty when it does not offer resources.
 */
export const listResourceTemplates = (server: string) =>
  Effect.flatMap(ConnectionPool, (pool) =>
    pool.run(server, "resources/templates/list", (c): Effect.Effect<ReadonlyArray<ServerResourceTemplate>, RequestError> =>
      c.capabilities?.resources ? c.lists.get(templatesList, fetchTemplates(c)) : Effect.succeed([])))

/**
 * A server's prompts; empty when it does not offer prompts.
 */
export const listPrompts = (server: string) =>
  Effect.flatMap(ConnectionPool, (pool) =>
    pool.run(server, "prompts/list", (c): Effect.Effect<ReadonlyArray<ServerPrompt>, RequestError> =>
      c.capabilities?.prompts ? c.lists.get(promptsList, fetchPrompts(c)) : Effect.succeed([])))

/**
 * Reads one resource.
 */
export const readResource = (server: string, uri: string, relay?: InputRelay) =>
  Effect.flatMap(ConnectionPool, (pool) =>
    pool.run(server, "resources/read", (c) =>
      request(c, "resources/read", (client, signal) =>
        client.readResource({ uri, ...relayParams(c.era, relay, requestCapabilities(c.clientCapabilities, relay, undefined)) } as { uri: string }, { signal, ...(relay ? { allowInputRequired: true } : {}) }))))

/**
 * Gets one prompt with its arguments filled in, unchecked (see {@link getPromptChecked}). With a
 * gateway's `relay`, a server's `input_required` answer is the result (pool/InputRelay.ts).
 */
export const getPrompt = (server: string, name: string, args: Record<string, string>, relay?: InputRelay) =>
  Effect.flatMap(ConnectionPool, (pool) =>
    pool.run(server, "prompts/get", (c) =>
      request(c, "prompts/get", (client, signal) =>
        client.getPrompt({ name, arguments: args, ...relayParams(c.era, relay, requestCapabilities(c.clientCapabilities, relay, undefined)) } as { name: string; arguments: Record<string, string> }, {
          signal,
          ...(relay ? { allowInputRequired: true } : {})
        }))))

// ---------------------------------------------------------------------------------------------
// Across servers
// ---------------------------------------------------------------------------------------------

/**
 * A server that could not be listed: one entry per server, so one bad server never hides the rest.
 */
export interface ListFailure {
  readonly server: string
  readonly status: string
  readonly message: string
}

const failureOf = (server: string, error: ServerUnavailable | RequestError): ListFailure => ({
  server,
  status: error._tag === "ServerUnavailable" ? error.status : "failed",
  message: error.message
})

/** The enabled servers, or the ones named. */
const serverNames = (servers: ReadonlyArray<string> | undefined) =>
  Effect.map(ConnectionPool, (pool) => servers ?? pool.servers.filter((s) => !s.config.disabled).map((s) => s.name))

/** Runs one list per server concurrently; failures are collected, not raised. */
const gather = <A, E extends ServerUnavailable | RequestError, R>(
  servers: ReadonlyArray<string> | undefined,
  one: (server: string) => Effect.Effect<ReadonlyArray<A>, E, R>
) =>
  Effect.gen(function*() {
    const names = yield* serverNames(servers)
    const results = yield* Effect.forEach(names, (name) => Effect.either(one(name)), { concurrency: "unbounded" })
    const items: Array<A> = []
    const errors: Array<ListFailure> = []
    results.forEach((r, i) => {
      if (Either.isRight(r)) items.push(...r.right)
      else errors.push(failureOf(names[i]!, r.left))
    })
    return { items, errors }
  })

/**
 * Resources and templates of many servers (default: all enabled) for `mcpctl resources`; a server
 * that fails is reported in `errors` once, even though both lists were asked of it.
 */
export const listAllResources = (servers?: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const both = (server: string) =>
      Effect.zip(listResources(server), listResourceTemplates(server), { concurrent: true }).pipe(
        Effect.map(([resources, templates]) => [{ resources, templates }])
      )
    const { errors, items } = yield* gather(servers, both)
    return {
      resources: items.flatMap((x) => x.resources),
      templates: items.flatMap((x) => x.templates),
      errors
    }
  })

/**
 * Resources grouped by server name, the shape of the `mcp_resources` dictionary an agent host
 * hands to a model; servers that fail are left out (use {@link listAllResources} for why).
 */
export const resourcesByServer = (servers?: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const names = yield* serverNames(servers)
    const results = yield* Effect.forEach(names, (name) => Effect.either(listResources(name)), {
      concurrency: "unbounded"
    })
    const out: Record<string, Array<ServerResource>> = {}
    results.forEach((r, i) => {
      if (Either.isRight(r)) out[names[i]!] = [...r.right]
    })
    return out
  })

/**
 * Prompts of many servers (default: all enabled), with one error entry per unusable server.
 */
export const listAllPrompts = (servers?: ReadonlyArray<string>) =>
  Effect.map(gather(servers, listPrompts), ({ errors, items }) => ({ prompts: items, errors }))

// ---------------------------------------------------------------------------------------------
// Reading with binaries as files
// ---------------------------------------------------------------------------------------------

/**
 * One content of a read: text stays inline, a blob becomes a file descriptor.
 */
export type ReadContent =
  | { readonly uri: string; readonly mimeType?: string | undefined; readonly text: string }
  | (FileContent & { readonly uri: string })

/**
 * A read result safe to print: no base64 anywhere.
 */
export interface ReadResult {
  readonly server: string
  readonly uri: string
  readonly contents: ReadonlyArray<ReadContent>
  readonly files: ReadonlyArray<FileContent>
}

/**
 * Reads a resource and writes each blob under `dir` (content-addressed, like call output), because
 * a terminal or a model can do nothing with base64 but a path is useful to both.
 */
export const readResourceToFiles = Effect.fn("Resources.readResourceToFiles")(function*(
  server: string,
  uri: string,
  dir: string
) {
  const result: ReadResourceResult = yield* readResource(server, uri)
  const contents = yield* Effect.forEach(result.contents, (c): Effect.Effect<ReadContent, OutputWriteError> => {
    if ("blob" in c && typeof c.blob === "string") {
      const mimeType = c.mimeType ?? "application/octet-stream"
      return Effect.map(persistBinary(dir, c.blob, mimeType), (file) => ({
        type: "file" as const,
        ...file,
        originalType: "resource" as const,
        uri: c.uri
      }))
    }
    return Effect.succeed({ uri: c.uri, mimeType: c.mimeType, text: "text" in c ? String(c.text) : "" })
  })
  const files = contents.filter((c): c is FileContent & { uri: string } => "type" in c && c.type === "file")
  return { server, uri, contents, files } satisfies ReadResult
})

// ---------------------------------------------------------------------------------------------
// Prompts with checked arguments
// ---------------------------------------------------------------------------------------------

const describeArgs = (prompt: Prompt): string => {
  const args = prompt.arguments ?? []
  if (args.length === 0) return `${prompt.name} takes no arguments`
  return `${prompt.name} takes: ${args.map((a) => `${a.name}${a.required ? " (required)" : ""}`).join(", ")}`
}

/**
 * Checks `args` against the prompt's declared arguments before asking the server, because servers
 * answer a missing or misspelled argument with an opaque validation error (or silently ignore it).
 * Pure; the error names the offending key and lists the declared ones.
 */
export const checkPromptArguments = (
  prompt: Prompt,
  args: Record<string, string>
): Either.Either<Record<string, string>, UsageError> => {
  const declared = prompt.arguments ?? []
  const known = new Set(declared.map((a) => a.name))
  const unknown = Object.keys(args).filter((k) => !known.has(k))
  if (unknown.length > 0) {
    return Either.left(
      new UsageError({
        message: `Prompt ${prompt.name} has no argument${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")}; ${describeArgs(prompt)}.`
      })
    )
  }
  const missing = declared.filter((a) => a.required && args[a.name] === undefined).map((a) => a.name)
  if (missing.length > 0) {
    return Either.left(
      new UsageError({
        message: `Prompt ${prompt.name} needs ${missing.map((m) => `${m}=…`).join(" ")} (missing required argument${
          missing.length > 1 ? "s" : ""
        } ${missing.join(", ")}); ${describeArgs(prompt)}.`
      })
    )
  }
  return Either.right(args)
}

/**
 * Parses `key=value` pairs as prompt arguments (prompt arguments are always strings).
 */
export const parsePromptPairs = (pairs: ReadonlyArray<string>): Either.Either<Record<string, string>, UsageError> => {
  const out: Record<string, string> = {}
  for (const pair of pairs) {
    const eq = pair.indexOf("=")
    if (eq <= 0) return Either.left(new UsageError({ message: `"${pair}" is not key=value. Example: city=Paris` }))
    out[pair.slice(0, eq)] = pair.slice(eq + 1)
  }
  return Either.right(out)
}

/**
 * Finds a prompt by name on a server; an unknown name lists the server's prompts.
 */
export const findPrompt = (server: string, name: string) =>
  Effect.flatMap(listPrompts(server), (prompts) => {
    const prompt = prompts.find((p) => p.name === name)
    return prompt
      ? Effect.succeed(prompt)
      : Effect.fail(
        new UsageError({
          message: `Server "${server}" has no prompt ${name}.${didYouMean(name, prompts.map((p) => p.name))} Its prompts: ${
            prompts.map((p) => p.name).join(", ") || "none"
          }. Run \`mcpctl prompts ${server}\`.`
        })
      )
  })

/**
 * Gets a prompt after checking the arguments against its declaration (see {@link checkPromptArguments}).
 */
export const getPromptChecked = Effect.fn("Resources.getPromptChecked")(function*(
  server: string,
  name: string,
  args: Record<string, string>
) {
  const prompt = yield* findPrompt(server, name)
  const checked = yield* checkPromptArguments(prompt, args)
  const result: GetPromptResult = yield* getPrompt(server, name, checked)
  return { prompt, result }
})

/**
 * One prompt message with binaries as files.
 */
export interface PromptMessage {
  readonly role: "user" | "assistant"
  readonly content: ContentItem
}

/**
 * Writes images, audio and blob resources of prompt messages under `dir`, as `call` does for tool
 * results, so a prompt can be printed or handed on without base64.
 */
export const persistPromptMessages = Effect.fn("Resources.persistPromptMessages")(function*(
  result: GetPromptResult,
  dir: string
) {
  const messages: Array<PromptMessage> = []
  const files: Array<FileContent> = []
  for (const message of result.messages) {
    const persisted = yield* persistCallContent({ content: [message.content as ContentItem] }, dir)
    messages.push({ role: message.role, content: persisted.content[0]! })
    files.push(...persisted.files)
  }
  return { messages, files }
})

// ---------------------------------------------------------------------------------------------
// Completion and logging
// ---------------------------------------------------------------------------------------------

/**
 * What to complete: a prompt's argument, or a resource template's variable.
 */
export type CompletionRef =
  | { readonly type: "ref/prompt"; readonly name: string }
  | { readonly type: "ref/resource"; readonly uri: string }

/**
 * Asks a server for completions of one argument (`completion/complete`), so a host can offer
 * values while a user fills in a prompt or a template. `context` carries the arguments already
 * chosen, which servers use to narrow later ones. A server without the `completions` capability
 * answers with no values instead of an error.
 */
export const complete = (
  server: string,
  ref: CompletionRef,
  argument: { readonly name: string; readonly value: string },
  context?: Record<string, string>
): Effect.Effect<CompleteResult["completion"], ServerUnavailable | RequestError, ConnectionPool> =>
  Effect.flatMap(ConnectionPool, (pool) =>
    pool.run(server, "completion/complete", (c) =>
      !c.capabilities?.completions ? Effect.succeed({ values: [] }) : request(c, "completion/complete", async (client, signal) => {
        const r = await client.complete(
          { ref: { ...ref }, argument: { ...argument }, ...(context ? { context: { arguments: context } } : {}) },
          { signal }
        )
        return r.completion
      })))

/**
 * The MCP log levels, least severe first (syslog order, as the spec defines them).
 */
export const logLevels: ReadonlyArray<LoggingLevel> = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency"
]

/**
 * True when a message at `level` should be shown at the chosen `threshold`. Filtering on the client
 * too, because servers without `logging/setLevel` send whatever they like.
 */
export const levelAtLeast = (level: string, threshold: LoggingLevel): boolean => {
  const i = logLevels.indexOf(level as LoggingLevel)
  return (i < 0 ? logLevels.indexOf("info") : i) >= logLevels.indexOf(threshold)
}

/**
 * Tells a server which log level to send (`logging/setLevel`), once per connection; a server
 * without the `logging` capability is left alone (the request would be an error there). A
 * 2026-07-28 connection has no `logging/setLevel`: its requests name the level from now on.
 */
export const setLogLevel = (server: string, level: LoggingLevel) =>
  Effect.flatMap(ConnectionPool, (pool) =>
    pool.run(server, "logging/setLevel", (c): Effect.Effect<boolean, RequestError> => {
      if (!c.capabilities?.logging) return Effect.succeed(false)
      if (c.era === "modern") {
        if (!(c.client instanceof HostClient)) return Effect.succeed(false)
        c.client.requestLogLevel = level
        return Effect.succeed(true)
      }
      return Effect.as(
        c.lists.get(logLevelSet[level], request(c, "logging/setLevel", (client, signal) => client.setLoggingLevel(level, { signal }))),
        true
      )
    }))

/** "`logging/setLevel` was sent with this level" on a connection, per level. */
const logLevelSet = Object.fromEntries(
  logLevels.map((level) => [level, new ListKey<unknown>(`logLevel:${level}`, undefined)])
) as Record<LoggingLevel, ListKey<unknown>>

/**
 * The MCP log level names.
 */
export type LogLevel = LoggingLevel

/**
 * One server log message (`notifications/message`) with the server that sent it.
 */
export interface ServerLog {
  readonly server: string
  readonly level: LoggingLevel
  readonly logger: string | undefined
  readonly data: unknown
}

/**
 * A `configureClient` hook for `ConnectionPool.layerWith` that hands every server log message at
 * or above `threshold` to `write`. Without a handler the SDK drops them; a host decides where they
 * go (the CLI: stderr, so `--json` stdout stays clean).
 */
export const forwardServerLogs =
  (threshold: LoggingLevel, write: (log: ServerLog) => void) => (client: Client, server: ResolvedServer): void => {
    // The pool's client takes server logs off the SDK's schema dispatch: a flood below the
    // threshold costs a level comparison per message (hostClient.ts).
    if (client instanceof HostClient) {
      return client.setServerLogHandler(threshold, (p) => write({ server: server.name, level: p.level, logger: p.logger, data: p.data }))
    }
    client.setNotificationHandler("notifications/message", (n) => {
      if (levelAtLeast(n.params.level, threshold)) {
        write({ server: server.name, level: n.params.level, logger: n.params.logger, data: n.params.data })
      }
    })
  }
