/**
 * The SDK `Client` the pool connects with: SDK v2's `Client`, plus a record of the notification
 * methods it has a handler for (set through the public `setNotificationHandler` /
 * `removeNotificationHandler`, including the ones the SDK's own constructor registers), so the
 * pool can drop, before the SDK parses them, notifications nobody listens to
 * (`Resilience.answerInvalidResponses`); and every request carries the trace context the pool
 * set for it (`traceContext.ts`), whichever SDK method built it.
 */
import { Client } from "@modelcontextprotocol/client"
import { currentTraceMeta, withMetaKeys } from "../traceContext.js"

// Kept outside the instance: the SDK's constructor registers its own handlers (progress,
// cancelled) before a subclass's fields exist.
const listened = new WeakMap<Client, Set<string>>()

const methodsOf = (client: Client): Set<string> => {
  let methods = listened.get(client)
  if (methods === undefined) listened.set(client, methods = new Set())
  return methods
}

type AnyRequest = { method: string; params?: Record<string, unknown> }

export class HostClient extends Client {
  // Every SDK method (callTool, listTools, complete, …) sends through `request`; `server/discover`
  // through `_requestWithSchema`.
  override request(...args: Array<any>): Promise<any> {
    const meta = currentTraceMeta()
    if (meta !== undefined) args[0] = { ...args[0], params: withMetaKeys((args[0] as AnyRequest).params, meta) }
    return (super.request as (...args: Array<any>) => Promise<any>)(...args)
  }

  protected override _requestWithSchema(...args: Array<any>): Promise<any> {
    const meta = currentTraceMeta()
    if (meta !== undefined) args[0] = { ...args[0], params: withMetaKeys((args[0] as AnyRequest).params, meta) }
    return (super._requestWithSchema as (...args: Array<any>) => Promise<any>)(...args)
  }

  override setNotificationHandler(method: string, ...rest: Array<unknown>): void {
    methodsOf(this).add(method)
    return (super.setNotificationHandler as (method: string, ...rest: Array<unknown>) => void)(method, ...rest)
  }

  override removeNotificationHandler(method: string): void {
    methodsOf(this).delete(method)
    super.removeNotificationHandler(method)
  }
}

/**
 * Notifications the SDK consumes itself, before any registered handler: the acknowledgement that
 * opens a `subscriptions/listen` stream and a server's cancel of one (2026-07-28).
 */
const consumedBySdk = new Set(["notifications/subscriptions/acknowledged", "notifications/cancelled"])

/**
 * Whether `client` would hand a notification of `method` to anyone: a handler for the method, a
 * fallback handler, or the SDK's own subscription bookkeeping. A client that is not a
 * `HostClient` listens to everything (no shortcut).
 */
export const listensTo = (client: Client) => (method: string): boolean =>
  client.fallbackNotificationHandler !== undefined || !(client instanceof HostClient) ||
  listened.get(client)?.has(method) === true || consumedBySdk.has(method)
