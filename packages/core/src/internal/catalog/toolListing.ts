/**
 * The listing half of `ToolRegistry`: every server's tools fetched once per connection (pins and
 * filters applied before anyone sees them), found by name, searched and trusted.
 */
import type { Tool } from "@modelcontextprotocol/client"
import * as Effect from "effect/Effect"
import type { McpConfig } from "../../config/McpConfig.js"
import { type ResolvedServer, unknownServerMessage } from "../../config/ServerConfig.js"
import { type ServerUnavailable, UsageError } from "../../Errors.js"
import { xMcpHeaderFault } from "./ToolHeaderMarks.js"
import { buildToolName, cutServerName, parseToolName, PREFIX, SEPARATOR } from "../Naming.js"
import { collectPages } from "./Pagination.js"
import type { Pins } from "../../catalog/Pins.js"
import { rank } from "./Search.js"
import { hiddenBy, hiddenMessage } from "./ToolFilter.js"
import * as CacheHints from "../pool/CacheHints.js"
import { type Connection, type ConnectionPool, request } from "../../pool/ConnectionPool.js"
import type { RequestError } from "../pool/RequestErrors.js"
import { didYouMean } from "../Suggest.js"
import {
  collisionMessage,
  indexTools,
  type ListError,
  type McpTool,
  noTools,
  toMcpTool,
  type ToolList,
  toolsList,
  unmatchedDenies
} from "./tools.js"

/**
 * Every tool a server lists, page by page, as it sent them. Each page is its own `tools/list`
 * request: SDK v2's `listTools()` without a cursor walks all pages itself (capped at its own
 * `listMaxPages`) and keeps the result in its response cache, which would bypass the bounds here
 * and the connection's own list cache.
 */
const listAll = (
  connection: Connection,
  onFirstPage?: (page: unknown) => void
): Effect.Effect<ReadonlyArray<Tool>, RequestError> =>
  // Bounded in pages, items and time (Pagination.ts): an endless cursor grew 50 MB/s.
  collectPages(connection.server.name, "tools/list", (cursor) =>
    Effect.map(
      request(connection, "tools/list", (client, signal) =>
        client.request({ method: "tools/list", params: cursor ? { cursor } : undefined }, { signal })),
      (page) => {
        // The first page's `ttlMs` / `cacheScope` speak for the whole list (as SDK v2 keeps them).
        if (cursor === undefined) onFirstPage?.(page)
        return { items: page.tools, nextCursor: page.nextCursor }
      }
    ))

/** What the listing half needs. */
export interface ListingDeps {
  readonly pool: ConnectionPool["Type"]
  readonly config: McpConfig["Type"]
  readonly pins: Pins["Type"] | undefined
}

/** Builds the listing half over the pool. */
export const makeListing = ({ config, pins, pool }: ListingDeps) => {
  const serverOf = new Map(pool.servers.map((s) => [s.name, s] as const))
  // The definition each catalogue entry was made from, for pin diffs and `trust`.
  const definitions = new WeakMap<McpTool, Tool>()

  // Every listed name → its server: a call is routed by this, never by re-reading the server out
  // of the name (a cut or odd server name would point elsewhere). The tool itself is then taken
  // from that server's current list, so a dropped list is never used.
  const routes = new Map<string, string>()
  // A deny rule for a tool a server does not list is said once per run, not once per listing.
  const warned = new Set<string>()

  // Every listing (the first, and each after a list_changed) goes through the pins and the
  // server's filters before anyone sees it, so no host switches silently to a changed definition.
  const fetchTools = (connection: Connection): Effect.Effect<ToolList, RequestError> =>
    Effect.gen(function*() {
      const server = connection.server
      let hint: CacheHints.CacheHint | undefined
      const listed = yield* listAll(connection, (page) => void (hint = CacheHints.hintOf(page)))
      if (pins) yield* pins.observe(server, listed)
      const tools: Array<McpTool> = []
      for (const t of listed) {
        if (hiddenBy(server.config, t.name)) continue
        // A modern server's tool with broken `x-mcp-header` marks is not offered (SEP-2243).
        const headerFault = connection.era === "modern" ? xMcpHeaderFault(t.inputSchema) : undefined
        if (headerFault !== undefined) {
          const key = `${server.name}\u0000${t.name}`
          if (!warned.has(key)) {
            warned.add(key)
            yield* Effect.logWarning(
              `Server "${server.name}": tool ${JSON.stringify(t.name)} is left out of the catalogue: its input schema ` +
                `has an invalid x-mcp-header (${headerFault}).`
            )
          }
          continue
        }
        const tool = toMcpTool(server.name, t)
        definitions.set(tool, t)
        tools.push(tool)
      }
      // Two tools with one qualified name are both refused; every other name is routed by this list.
      const indexed = indexTools(tools)
      for (const t of indexed.tools) routes.set(t.name, t.server)
      for (const [name, clash] of indexed.collisions) routes.set(name, clash[0]!.server)
      return { ...indexed, byName: new Map(indexed.tools.map((t) => [t.name, t])), hint }
    })

  /** The tool with pinning's current verdict (the store may have changed since it was listed). */
  const withPin = (tool: McpTool): McpTool => {
    const server = pins && serverOf.get(tool.server)
    return server ? { ...tool, pin: pins!.state(server, tool.tool, tool.hash) } : tool
  }

  const listIndexed = (server: string) =>
    pool.run(server, "tools/list", (connection) =>
      connection.capabilities?.tools ? connection.lists.get(toolsList, fetchTools(connection)) : Effect.succeed(noTools))

  const listCached = (server: string) => Effect.map(listIndexed(server), (list) => list.tools)

  /**
   * The tool from the fetched list of a live connection, or undefined (synchronous), so `call`
   * finds its tool without a round through the pool.
   */
  const lookup = (name: string): McpTool | undefined => {
    const server = routes.get(name)
    return server === undefined ? undefined : pool.peek(server)?.lists.peek(toolsList)?.byName.get(name)
  }

  const listServer = (server: string) =>
    pins ? Effect.map(listCached(server), (tools) => tools.map(withPin)) : listCached(server)

  const list = (servers?: ReadonlyArray<string>) =>
    Effect.gen(function*() {
      const names = servers ?? pool.servers.filter((s) => !s.config.disabled).map((s) => s.name)
      const results = yield* Effect.forEach(names, (name) => Effect.either(listIndexed(name)), {
        concurrency: "unbounded"
      })
      const tools: Array<McpTool> = []
      const errors: Array<ListError> = []
      const pending: Array<string> = []
      results.forEach((r, i) => {
        if (r._tag === "Right") {
          tools.push(...(pins ? r.right.tools.map(withPin) : r.right.tools))
          for (const warning of unmatchedDenies(config.permissions.deny, names[i]!, r.right.tools)) pending.push(warning)
          for (const [name, clash] of r.right.collisions) {
            errors.push({ server: names[i]!, status: "collision", message: collisionMessage(names[i]!, name, clash) })
          }
        } else {
          errors.push({
            server: names[i]!,
            status: r.left._tag === "ServerUnavailable" ? r.left.status : "failed",
            message: r.left.message
          })
        }
      })
      for (const warning of pending) {
        if (warned.has(warning)) continue
        warned.add(warning)
        yield* Effect.logWarning(warning)
      }
      return { tools, errors }
    })

  const resolve = (name: string): Effect.Effect<McpTool, UsageError | ServerUnavailable | RequestError> => {
    const known = lookup(name)
    return known ? Effect.succeed(known) : resolveSlow(name)
  }

  // The servers a name can belong to: those whose `mcp__<server>__` (or cut form) starts it.
  // Only their lists are fetched; the tool itself is then found in a list, by its whole name.
  const candidatesOf = (name: string) =>
    pool.servers.filter((s) =>
      name.startsWith(`${PREFIX}${s.name}${SEPARATOR}`) || name.startsWith(`${PREFIX}${cutServerName(s.name)}${SEPARATOR}`)
    )

  const resolveSlow = (name: string) =>
    Effect.gen(function*() {
      const parsed = parseToolName(name)
      if (!parsed) {
        return yield* Effect.fail(
          new UsageError({
            message: `"${name}" is not a tool name. Tool names look like mcp__<server>__<tool>; ` +
              `run \`mcpctl tools\` to list them.`
          })
        )
      }
      const candidates = candidatesOf(name)
      if (candidates.length === 0) {
        return yield* Effect.fail(
          new UsageError({
            message: `${name}: ${unknownServerMessage([parsed.server], pool.servers)}`
          })
        )
      }
      const listed: Array<McpTool> = []
      for (const server of candidates) {
        const indexed = yield* listIndexed(server.name)
        const clash = indexed.collisions.get(name)
        if (clash) return yield* Effect.fail(new UsageError({ message: collisionMessage(server.name, name, clash) }))
        const tool = indexed.tools.find((t) => t.name === name)
        if (tool) return tool
        listed.push(...indexed.tools)
      }
      yield* failIfHidden(candidates[0]!, name)
      return yield* Effect.fail(
        new UsageError({
          message: `Server "${candidates[0]!.name}" has no tool ${name}.${didYouMean(name, listed.map((t) => t.name))} Its tools: ${
            listed.map((t) => t.name).join(", ") || "none"
          }.`
        })
      )
    })

  // Only on the error path: the server's own list, unfiltered, tells a hidden tool from a typo.
  const failIfHidden = (server: ResolvedServer, name: string) =>
    Effect.gen(function*() {
      if (server.config.includeTools === undefined && server.config.excludeTools === undefined) return
      const all = yield* pool.run(server.name, "tools/list", listAll)
      const match = all.find((t) => buildToolName(server.name, t.name) === name)
      const hidden = match && hiddenBy(server.config, match.name)
      if (match && hidden) return yield* Effect.fail(new UsageError({ message: hiddenMessage(server, name, match.name, hidden) }))
    })

  const search = (query: string, options?: { readonly limit?: number | undefined; readonly servers?: ReadonlyArray<string> | undefined }) =>
    Effect.map(list(options?.servers), ({ errors, tools }) => ({
      results: rank(tools, (t) => ({
        name: t.tool,
        title: t.title,
        description: t.description,
        parameters: Object.keys(t.inputSchema.properties ?? {})
      }), query, options?.limit).map(({ item, score }) => ({ tool: item, score })),
      errors
    }))

  const trust = (name: string, only?: string) =>
    Effect.gen(function*() {
      const server = serverOf.get(name) ?? pool.servers.find((s) => s.originalName === name)
      if (!server) return yield* Effect.fail(new UsageError({ message: unknownServerMessage([name], pool.servers) }))
      if (!pins || server.config.pin === false) {
        return yield* Effect.fail(new UsageError({
          message: `Tool pinning is off for "${server.name}"${server.config.pin === false ? ` ("pin": false in ${server.source})` : ""}: there is nothing to trust.`
        }))
      }
      const tools = yield* listCached(server.name)
      const chosen = only === undefined ? tools : tools.filter((t) => t.tool === only || t.name === only)
      if (only !== undefined && chosen.length === 0) {
        return yield* Effect.fail(new UsageError({
          message: `Server "${server.name}" has no tool "${only}". Its tools: ${tools.map((t) => t.tool).join(", ") || "none"}.`
        }))
      }
      return yield* pins.trust(server, chosen.map((t) => definitions.get(t)!))
    })

  return {
    list,
    listServer,
    resolve,
    lookup,
    search,
    trust,
    /** The definition each catalogue entry was made from (pin diffs). */
    definitions,
    /** Every listed name → its server. */
    routes,
    serverOf
  }
}
