/**
 * How the gateway (`serve`) answers the requests it forwards to the configured servers: which
 * server owns a resource URI (listed, from a template, or the one server that reads it), completion and
 * `logging/setLevel` routed to the servers that offer them, and failures as JSON-RPC errors with
 * one clean message. Gateway.ts wires these into its MCP server.
 */
import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError, UriTemplate } from "@modelcontextprotocol/server"
import type { CompleteRequest, LoggingLevel, ReadResourceResult } from "@modelcontextprotocol/server"
import * as Effect from "effect/Effect"
import { ConnectionPool, request } from "../../pool/ConnectionPool.js"
import { type InputRelay } from "../pool/InputRelay.js"
import { type RequestError } from "../pool/RequestErrors.js"
import {
  complete,
  listAllPrompts,
  listAllResources,
  readResource,
  type ServerResourceTemplate,
  setLogLevel
} from "../../catalog/Resources.js"
import { type McpctlError } from "../../Errors.js"
import { listenUpstream } from "./UpstreamListen.js"
import { indexPrompts, indexResources, promptName, type PromptNaming, unreadableMessage } from "./GatewayCatalog.js"

// ---------------------------------------------------------------------------------------------
// Errors as JSON-RPC errors
// ---------------------------------------------------------------------------------------------

/**
 * JSON-RPC codes the gateway answers with. No -32002: a resource no server has is a
 * `ResourceNotFoundError` (-32602 with `data.uri`, as the 2026-07-28 spec requires; SDK v2's
 * server sends any -32002, an older upstream's too, as -32602).
 */
export const JsonRpc = {
  MethodNotFound: ProtocolErrorCode.MethodNotFound,
  InvalidParams: ProtocolErrorCode.InvalidParams,
  InternalError: ProtocolErrorCode.InternalError
} as const

/**
 * An error the SDK's server sends as `{code, message}` (a `ProtocolError`). SDK 1.x clients (the
 * Inspector, most editors today) prefix "MCP error N: " to every error they receive, and an
 * upstream server's message may already carry that prefix (a server behind an SDK 1.x proxy, or
 * one that writes it itself), so it is taken out here: sent on as is, such a client would show
 * "MCP error -32602: MCP error -32602: …". SDK v2's `ProtocolError` adds no prefix (pure).
 */
export const protocolError = (code: number, message: string, data?: unknown): ProtocolError =>
  new ProtocolError(code, message.replace(/MCP error -?\d+: /g, ""), data)

/**
 * A failure of a forwarded request as the error our client gets: the upstream server's own
 * JSON-RPC code when it answered with one, invalid params for our usage errors, internal error
 * for the rest (server unavailable, transport failures), always with the message that says why.
 */
export const toProtocolError = (error: unknown): Error => {
  const e = error as Partial<McpctlError> & { readonly code?: unknown; readonly message?: unknown }
  const message = typeof e?.message === "string" ? e.message : String(error)
  switch (e?._tag) {
    case "McpRequestError": {
      // The server's own error: its code, its message (after the server's name), its data.
      const { data } = error as { readonly data?: unknown }
      return protocolError(typeof e.code === "number" && e.code !== -1 ? e.code : JsonRpc.InternalError, message, data)
    }
    case "UsageError":
    case "ConfigError":
      return protocolError(JsonRpc.InvalidParams, message)
    case undefined:
      // Ours (ResourceNotFoundError): its data (the URI) goes along.
      if (ProtocolError.isInstance(error)) return protocolError(error.code, message, error.data)
      return protocolError(typeof e?.code === "number" ? e.code : JsonRpc.InternalError, message)
    default:
      return protocolError(JsonRpc.InternalError, message)
  }
}

// ---------------------------------------------------------------------------------------------
// Which server owns a resource
// ---------------------------------------------------------------------------------------------

/** The server whose template matches `uri`, when exactly one does (pure). */
export const templateOwner = (templates: ReadonlyArray<ServerResourceTemplate>, uri: string): string | undefined => {
  const owners = new Set<string>()
  for (const t of templates) {
    try {
      if (new UriTemplate(t.uriTemplate).match(uri) !== null) owners.add(t.server)
    } catch {
      // a template the SDK cannot parse matches nothing
    }
  }
  return owners.size === 1 ? [...owners][0] : undefined
}

/**
 * Reads `uri` from the server that owns it, however the client learned the URI, never from a
 * server under a server-level deny (`denied`), nor a URI such a server lists or templates: the one server that lists it (a URI two servers
 * list is served by neither: GatewayCatalog), else the one whose template matches, else the one
 * server that offers resources and can read it (a server may read URIs it does not list, like
 * server-postgres's table schemas). That last step asks each such server and serves the answer
 * only when exactly one answers: an answer two servers give could come from either.
 */
export const readRouted = (
  uri: string,
  denied: (server: string) => boolean,
  relay?: InputRelay
): Effect.Effect<ReadResourceResult, RequestError | McpctlError | Error, ConnectionPool> =>
  Effect.gen(function*() {
    const all = yield* listAllResources()
    const index = indexResources(all.resources, denied)
    if (index.ambiguous.has(uri)) return yield* Effect.fail(protocolError(JsonRpc.InvalidParams, unreadableMessage(uri, index)))
    const listedBy = index.owner.get(uri)
    if (listedBy !== undefined) return yield* readResource(listedBy, uri, relay)
    // A URI only a denied server lists, or its template matches, is that server's: no other
    // server answers for it.
    const deniedOwns = all.resources.some((r) => r.uri === uri && denied(r.server)) ||
      all.templates.some((t) => denied(t.server) && templateOwner([t], uri) !== undefined)
    if (deniedOwns) return yield* Effect.fail(protocolError(JsonRpc.InvalidParams, unreadableMessage(uri, index)))
    const owner = templateOwner(all.templates.filter((t) => !denied(t.server)), uri)
    if (owner !== undefined) return yield* readResource(owner, uri, relay)
    const pool = yield* ConnectionPool
    const offering = pool.servers.filter((s) =>
      !s.config.disabled && !denied(s.name) && pool.peek(s.name)?.capabilities?.resources
    )
    const reads = yield* Effect.forEach(offering, (s) => Effect.either(readResource(s.name, uri)), { concurrency: "unbounded" })
    const answered = offering.filter((_, i) => reads[i]!._tag === "Right")
    if (answered.length === 1) {
      const read = reads[offering.indexOf(answered[0]!)]!
      if (read._tag === "Right") return read.right
    }
    if (answered.length > 1) {
      return yield* Effect.fail(protocolError(
        JsonRpc.InvalidParams,
        `servers ${answered.map((s) => s.name).join(" and ")} all read the resource ${uri}, and none lists it; ` +
          "it is not served, since the answer could come from either"
      ))
    }
    const last = reads.at(-1)
    if (offering.length === 1 && last?._tag === "Left") return yield* Effect.fail(last.left as RequestError)
    return yield* Effect.fail(new ResourceNotFoundError(
      uri,
      `Resource not found: ${uri}. No configured server lists it, has a template for it or reads it` +
        (offering.length > 0 ? ` (asked: ${offering.map((s) => s.name).join(", ")})` : "") + "."
    ))
  })

/**
 * `resources/subscribe` (or `unsubscribe`) passed on to the server that owns `uri`: the one that
 * lists it, else the one whose template matches. A URI no allowed server owns is not found.
 */
export const subscribeRouted = (uri: string, denied: (server: string) => boolean, subscribe: boolean) =>
  Effect.gen(function*() {
    const all = yield* listAllResources()
    const index = indexResources(all.resources, denied)
    const owner = index.owner.get(uri) ?? (index.ambiguous.has(uri) ? undefined : templateOwner(all.templates.filter((t) => !denied(t.server)), uri))
    if (owner === undefined) {
      return yield* Effect.fail(new ResourceNotFoundError(uri, `Resource not found: ${uri}. No configured server lists it or has a template for it.`))
    }
    const pool = yield* ConnectionPool
    const method = subscribe ? "resources/subscribe" : "resources/unsubscribe"
    yield* pool.run(owner, method, (c) =>
      request(c, method, async (client, signal) => {
        // A 2026-07-28 server has no resources/subscribe: its updates come on a
        // subscriptions/listen stream naming the URI, held while anyone is subscribed.
        if (c.era === "modern") {
          if (c.capabilities?.resources?.subscribe) return listenUpstream(client, uri, subscribe)
          throw protocolError(JsonRpc.MethodNotFound, `Server ${owner} offers no resource subscriptions`)
        }
        return subscribe ? client.subscribeResource({ uri }, { signal }) : client.unsubscribeResource({ uri }, { signal })
      }))
    return {}
  })

// ---------------------------------------------------------------------------------------------
// Completion and log level
// ---------------------------------------------------------------------------------------------

/**
 * `completion/complete` for a prompt (`<server>__<prompt>`) or a resource template, asked of the
 * server that offers it. A template no server lists completes to nothing.
 */
export const completeRouted = (
  params: CompleteRequest["params"],
  denied: (server: string) => boolean,
  naming: PromptNaming = promptName
) =>
  Effect.gen(function*() {
    const argument = { name: params.argument.name, value: params.argument.value }
    const context = params.context?.arguments
    if (params.ref.type === "ref/prompt") {
      // Found by its gateway name in the listing, never by splitting the name.
      const target = indexPrompts((yield* listAllPrompts()).prompts, denied, naming).get(params.ref.name)
      if (!target) return yield* Effect.fail(protocolError(JsonRpc.InvalidParams, `Unknown prompt ${params.ref.name}`))
      return { completion: yield* complete(target.server, { type: "ref/prompt", name: target.name }, argument, context) }
    }
    const uri = params.ref.uri
    const { templates } = yield* listAllResources()
    // Only one server's template completes: none when two list the same template.
    const owners = new Set(templates.filter((t) => t.uriTemplate === uri && !denied(t.server)).map((t) => t.server))
    const owner = owners.size === 1 ? [...owners][0] : undefined
    if (owner === undefined) return { completion: { values: [] } }
    return { completion: yield* complete(owner, { type: "ref/resource", uri }, argument, context) }
  })

/**
 * `logging/setLevel` from our client, passed on to every enabled, not denied server that logs; a server that
 * cannot be reached is skipped (its logs cannot come anyway).
 */
export const setLevelEverywhere = (level: LoggingLevel, denied: (server: string) => boolean) =>
  Effect.gen(function*() {
    const pool = yield* ConnectionPool
    const names = pool.servers.filter((s) => !s.config.disabled && !denied(s.name)).map((s) => s.name)
    yield* Effect.forEach(names, (name) => Effect.ignore(setLogLevel(name, level)), { concurrency: "unbounded", discard: true })
    return {}
  })
