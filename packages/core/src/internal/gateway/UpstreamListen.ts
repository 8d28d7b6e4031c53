/**
 * A 2026-07-28 server has no `resources/subscribe`: its `notifications/resources/updated` come on
 * a `subscriptions/listen` stream that names the URI. `serve` holds one such stream per URI and
 * connection while any of its clients is subscribed (GatewayNotices.ts counts them); the stream's
 * notifications reach the connection's `resources/updated` handler (catalog/ServerNotices.ts),
 * as a 2025-era server's do.
 */
import type { Client } from "@modelcontextprotocol/client"

type Subscription = Awaited<ReturnType<Client["listen"]>>

/** The streams held, per connection's client and URI (a new connection holds none). */
const held = new WeakMap<Client, Map<string, Promise<Subscription>>>()

/**
 * Opens (`on`) or closes the `subscriptions/listen` stream for `uri` on `client`. Opening resolves
 * once the server acknowledged it; a second open of the same URI shares the first. A stream the
 * server ends is forgotten, so the next subscribe opens a new one.
 */
export const listenUpstream = async (client: Client, uri: string, on: boolean): Promise<Record<string, never>> => {
  let byUri = held.get(client)
  if (byUri === undefined) held.set(client, byUri = new Map())
  const open = byUri.get(uri)
  if (!on) {
    byUri.delete(uri)
    if (open !== undefined) await open.then((s) => s.close(), () => undefined)
    return {}
  }
  if (open !== undefined) return open.then(() => ({}))
  // No request signal: the stream outlives the subscribe request that opened it.
  const opening = client.listen({ resourceSubscriptions: [uri] })
  byUri.set(uri, opening)
  const forget = () => {
    if (byUri.get(uri) === opening) byUri.delete(uri)
  }
  try {
    const subscription = await opening
    void subscription.closed.then(forget)
    return {}
  } catch (error) {
    forget()
    throw error
  }
}
