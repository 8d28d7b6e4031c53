/**
 * How the gateway (`serve`) answers the requests it forwards to the configured servers: which
 * server owns a resource URI (listed, from a template, or whoever can read it), completion and
 * `logging/setLevel` routed to the servers that offer them, and failures as JSON-RPC errors with
 * one clean message. Gateway.ts wires these into its MCP server.
 */
import { UriTemplate } from "@modelcontextprotocol/sdk/shared/uriTemplate.js"
import type { CompleteRequest, LoggingLevel, ReadResourceResult } from "@modelcontextprotocol/sdk/types.js"
import * as Effect from "effect/Effect"
import { ConnectionPool } from "../pool/ConnectionPool.js"
import { type RequestError } from "../pool/RequestErrors.js"
import { parseToolName } from "../catalog/Naming.js"
import {
  complete,
  listAllResources,
  readResource,
  type ServerResourceTemplate,
  setLogLevel
} from "../catalog/Resources.js"
import { type McpctlError } from "../Errors.js"

// ---------------------------------------------------------------------------------------------
// Errors as JSON-RPC errors
// ---------------------------------------------------------------------------------------------

/** JSON-RPC codes the gateway answers with. */
export const JsonRpc = {
  InvalidParams: -32602,
  InternalError: -32603,
  ResourceNotFound: -32002
} as const

/**
 * An error the SDK's server sends as `{code, message}`. The SDK client prefixes "MCP error N: " to
 * every error it receives, and our upstream errors already carry that prefix, so it is taken out
 * here: sent on as is, a client would show "MCP error -32602: MCP error -32602: …" (pure).
 */
export const protocolError = (code: number, message: string): Error & { readonly code: number } =>
  Object.assign(new Error(message.replace(/MCP error -?\d+: /g, "")), { code })

/**
 * A failure of a forwarded request as the error our client gets: the upstream server's own
 * JSON-RPC code when it answered with one, invalid params for our usage errors, internal error
 * for the rest (server unavailable, transport failures), always with the message that says why.
 */
export const toProtocolError = (error: unknown): Error => {
  const e = error as Partial<McpctlError> & { readonly code?: unknown; readonly message?: unknown }
  const message = typeof e?.message === "string" ? e.message : String(error)
  switch (e?._tag) {
    case "McpRequestError":
      return protocolError(typeof e.code === "number" && e.code !== -1 ? e.code : JsonRpc.InternalError, message)
    case "UsageError":
    case "ConfigError":
      return protocolError(JsonRpc.InvalidParams, message)
    case undefined:
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
 * Reads `uri` from the server that owns it, however the client learned the URI: `known` (URIs
 * listed before, in this session or not) first, then a fresh listing, then the servers'
 * templates, and last every server that offers resources (a server may read URIs it does not
 * list, like server-postgres's table schemas), first answer wins. `known` learns each owner.
 */
export const readRouted = (
  uri: string,
  known: Map<string, string>
): Effect.Effect<ReadResourceResult, RequestError | McpctlError | Error, ConnectionPool> =>
  Effect.gen(function*() {
    const listed = known.get(uri)
    if (listed !== undefined) return yield* readResource(listed, uri)
    const all = yield* listAllResources()
    for (const r of all.resources) known.set(r.uri, r.server)
    const owner = known.get(uri) ?? templateOwner(all.templates, uri)
    if (owner !== undefined) return yield* readResource(owner, uri)
    const pool = yield* ConnectionPool
    const offering = pool.servers.filter((s) => !s.config.disabled && pool.peek(s.name)?.capabilities?.resources)
    let last: unknown
    for (const server of offering) {
      const read = yield* Effect.either(readResource(server.name, uri))
      if (read._tag === "Right") {
        known.set(uri, server.name)
        return read.right
      }
      last = read.left
    }
    if (offering.length === 1 && last !== undefined) return yield* Effect.fail(last as RequestError)
    return yield* Effect.fail(protocolError(
      JsonRpc.ResourceNotFound,
      `Resource not found: ${uri}. No configured server lists it, has a template for it or reads it` +
        (offering.length > 0 ? ` (asked: ${offering.map((s) => s.name).join(", ")})` : "") + "."
    ))
  })

// ---------------------------------------------------------------------------------------------
// Completion and log level
// ---------------------------------------------------------------------------------------------

/** `<server>__<prompt>`: prompt names of different servers cannot collide (pure). */
export const promptName = (server: string, prompt: string): string => `${server}__${prompt}`

/** Splits a gateway prompt name at its first `__` (server names never contain `__`). */
export const parsePromptName = (name: string): { readonly server: string; readonly prompt: string } | undefined => {
  const parsed = parseToolName(`mcp__${name}`)
  return parsed ? { server: parsed.server, prompt: parsed.tool } : undefined
}

/**
 * `completion/complete` for a prompt (`<server>__<prompt>`) or a resource template, asked of the
 * server that offers it. A template no server lists completes to nothing.
 */
export const completeRouted = (params: CompleteRequest["params"]) =>
  Effect.gen(function*() {
    const argument = { name: params.argument.name, value: params.argument.value }
    const context = params.context?.arguments
    if (params.ref.type === "ref/prompt") {
      const target = parsePromptName(params.ref.name)
      if (!target) return yield* Effect.fail(protocolError(JsonRpc.InvalidParams, `Unknown prompt ${params.ref.name}`))
      return { completion: yield* complete(target.server, { type: "ref/prompt", name: target.prompt }, argument, context) }
    }
    const uri = params.ref.uri
    const { templates } = yield* listAllResources()
    const owner = templates.find((t) => t.uriTemplate === uri)?.server
    if (owner === undefined) return { completion: { values: [] } }
    return { completion: yield* complete(owner, { type: "ref/resource", uri }, argument, context) }
  })

/**
 * `logging/setLevel` from our client, passed on to every enabled server that logs; a server that
 * cannot be reached is skipped (its logs cannot come anyway).
 */
export const setLevelEverywhere = (level: LoggingLevel) =>
  Effect.gen(function*() {
    const pool = yield* ConnectionPool
    const names = pool.servers.filter((s) => !s.config.disabled).map((s) => s.name)
    yield* Effect.forEach(names, (name) => Effect.ignore(setLogLevel(name, level)), { concurrency: "unbounded", discard: true })
    return {}
  })
