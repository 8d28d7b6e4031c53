/**
 * The SDK `Client` the pool connects with: SDK v2's `Client`, plus a record of the notification
 * methods it has a handler for (set through the public `setNotificationHandler` /
 * `removeNotificationHandler`, including the ones the SDK's own constructor registers), so the
 * pool can drop, before the SDK parses them, notifications nobody listens to
 * (`Resilience.answerInvalidResponses`).
 */
import { Client } from "@modelcontextprotocol/client"

// Kept outside the instance: the SDK's constructor registers its own handlers (progress,
// cancelled) before a subclass's fields exist.
const listened = new WeakMap<Client, Set<string>>()

const methodsOf = (client: Client): Set<string> => {
  let methods = listened.get(client)
  if (methods === undefined) listened.set(client, methods = new Set())
  return methods
}

export class HostClient extends Client {
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
