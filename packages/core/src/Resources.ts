/**
 * Resources and prompts, beside the tools: listed per server (cached on the connection like tools
 * lists, so a closed connection drops them), read and fetched through the pool's one request path.
 */
import type { Prompt, Resource, ResourceTemplate } from "@modelcontextprotocol/sdk/types.js"
import * as Effect from "effect/Effect"
import { type Connection, ConnectionPool } from "./ConnectionPool.js"
import { cachedOnConnection } from "./ToolRegistry.js"

/** A resource with the server that offers it. */
export interface ServerResource extends Resource {
  readonly server: string
}

/** A resource template with the server that offers it. */
export interface ServerResourceTemplate extends ResourceTemplate {
  readonly server: string
}

/** A prompt with the server that offers it. */
export interface ServerPrompt extends Prompt {
  readonly server: string
}

/** Follows `nextCursor` until the server has no more pages. */
const paginate = async <T>(
  page: (cursor: string | undefined) => Promise<{ readonly items: ReadonlyArray<T>; readonly nextCursor?: string | undefined }>
): Promise<Array<T>> => {
  const all: Array<T> = []
  let cursor: string | undefined
  do {
    const result = await page(cursor)
    all.push(...result.items)
    cursor = result.nextCursor
  } while (cursor)
  return all
}

const params = (cursor: string | undefined) => (cursor ? { cursor } : undefined)

const fetchResources = (c: Connection, signal: AbortSignal) =>
  paginate(async (cursor) => {
    const r = await c.client.listResources(params(cursor), { signal })
    return { items: r.resources.map((x) => ({ ...x, server: c.server.name })), nextCursor: r.nextCursor }
  })

const fetchTemplates = (c: Connection, signal: AbortSignal) =>
  paginate(async (cursor) => {
    const r = await c.client.listResourceTemplates(params(cursor), { signal })
    return { items: r.resourceTemplates.map((x) => ({ ...x, server: c.server.name })), nextCursor: r.nextCursor }
  })

const fetchPrompts = (c: Connection, signal: AbortSignal) =>
  paginate(async (cursor) => {
    const r = await c.client.listPrompts(params(cursor), { signal })
    return { items: r.prompts.map((x) => ({ ...x, server: c.server.name })), nextCursor: r.nextCursor }
  })

/** A server's resources; empty when it does not offer resources. */
export const listResources = (server: string) =>
  Effect.flatMap(ConnectionPool, (pool) =>
    pool.run(server, "resources/list", (c, signal): Promise<ReadonlyArray<ServerResource>> =>
      c.capabilities?.resources ? cachedOnConnection(c, "resources", signal, fetchResources) : Promise.resolve([])))

/** A server's resource templates; empty when it does not offer resources. */
export const listResourceTemplates = (server: string) =>
  Effect.flatMap(ConnectionPool, (pool) =>
    pool.run(server, "resources/templates/list", (c, signal): Promise<ReadonlyArray<ServerResourceTemplate>> =>
      c.capabilities?.resources ? cachedOnConnection(c, "templates", signal, fetchTemplates) : Promise.resolve([])))

/** A server's prompts; empty when it does not offer prompts. */
export const listPrompts = (server: string) =>
  Effect.flatMap(ConnectionPool, (pool) =>
    pool.run(server, "prompts/list", (c, signal): Promise<ReadonlyArray<ServerPrompt>> =>
      c.capabilities?.prompts ? cachedOnConnection(c, "prompts", signal, fetchPrompts) : Promise.resolve([])))

/** Reads one resource. */
export const readResource = (server: string, uri: string) =>
  Effect.flatMap(ConnectionPool, (pool) =>
    pool.run(server, "resources/read", (c, signal) => c.client.readResource({ uri }, { signal })))

/** Gets one prompt with its arguments filled in. */
export const getPrompt = (server: string, name: string, args: Record<string, string>) =>
  Effect.flatMap(ConnectionPool, (pool) =>
    pool.run(server, "prompts/get", (c, signal) => c.client.getPrompt({ name, arguments: args }, { signal })))
