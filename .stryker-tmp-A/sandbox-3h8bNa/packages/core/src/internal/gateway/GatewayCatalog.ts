/**
 * What `serve` lists of its servers' resources and prompts, and where a read or a get goes (pure).
 * Resource URIs are the servers' own: two servers can list the same one, and routing a read to
 * "whichever was listed last" would hand one server's answer out as the other's. Such a URI is
 * served by neither (and said so on a read). A server under a server-level deny offers nothing:
 * its resources and prompts are hidden like its tools. Prompts are `<server>__<prompt>` and found
 * by that name in the listing, never by splitting it.
 */
// @ts-nocheck


/** Something a server offers, with the server. */
export interface Owned {
  readonly server: string
}

/** Resources by URI: the servable ones, and the URIs more than one server lists. */
export interface ResourceIndex<R extends Owned & { readonly uri: string }> {
  readonly listed: ReadonlyArray<R>
  readonly owner: ReadonlyMap<string, string>
  /** URI → the servers that all list it. */
  readonly ambiguous: ReadonlyMap<string, ReadonlyArray<string>>
}

/** Indexes resources of allowed servers; a URI listed by two servers is left out and remembered. */
export const indexResources = <R extends Owned & { readonly uri: string }>(
  resources: ReadonlyArray<R>,
  denied: (server: string) => boolean
): ResourceIndex<R> => {
  const servers = new Map<string, Array<string>>()
  const visible = resources.filter((r) => !denied(r.server))
  for (const r of visible) {
    const list = servers.get(r.uri) ?? []
    if (!list.includes(r.server)) list.push(r.server)
    servers.set(r.uri, list)
  }
  const ambiguous = new Map([...servers].filter(([, s]) => s.length > 1))
  const listed = visible.filter((r) => !ambiguous.has(r.uri))
  return { listed, owner: new Map(listed.map((r) => [r.uri, r.server])), ambiguous }
}

/** Why a URI cannot be read through the gateway (pure). */
export const unreadableMessage = (uri: string, index: ResourceIndex<Owned & { readonly uri: string }>): string => {
  const both = index.ambiguous.get(uri)
  return both
    ? `servers ${both.join(" and ")} all list the resource ${uri}; it is not served, since the answer could come from either`
    : `No configured server lists the resource ${uri}`
}

/** `<server>__<prompt>`: prompt names of different servers cannot collide (pure). */
export const promptName = (server: string, prompt: string): string => `${server}__${prompt}`

/** How a gateway names a server's prompt: `<server>__<prompt>`, or the server's own name (`--names upstream`). */
export type PromptNaming = (server: string, prompt: string) => string

/** The server's own prompt name: a gateway in front of one server only (pure). */
export const upstreamPromptName: PromptNaming = (_server, prompt) => prompt

/** Prompts of allowed servers by their gateway name. */
export const indexPrompts = <P extends Owned & { readonly name: string }>(
  prompts: ReadonlyArray<P>,
  denied: (server: string) => boolean,
  naming: PromptNaming = promptName
): ReadonlyMap<string, P> =>
  new Map(prompts.filter((p) => !denied(p.server)).map((p) => [naming(p.server, p.name), p]))
