/**
 * A fault-injecting Transport layer: wraps another one (usually `InMemory.layer`) and lets a test
 * script, per message the client sends, what goes wrong: fail the send (ECONNRESET, 401, an
 * expired session), drop the connection before or after delivering, hold or delay the message,
 * swallow it (the server never answers) or answer it with garbage. The pool and everything above
 * it run unchanged, so each resilience rule is tested through the real code path.
 */
// @ts-nocheck

import { SdkErrorCode, SdkHttpError } from "@modelcontextprotocol/client"
import type { JSONRPCMessage, Transport as SdkTransport, TransportSendOptions } from "@modelcontextprotocol/client"
import type { ResolvedServer } from "@mcpctl/core/ServerConfig"
import { Transport } from "@mcpctl/core/Transport"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

/** What happens to one message the client sends. */
export type Fault =
  /** Delivered unchanged. */
  | { readonly _tag: "Pass" }
  /** `send` rejects with this error (nothing reaches the server). */
  | { readonly _tag: "Fail"; readonly error: unknown }
  /** The connection closes before the message is delivered (a crash between two requests). */
  | { readonly _tag: "Drop" }
  /** The message is delivered, then the connection closes (a crash in the middle of a call). */
  | { readonly _tag: "DeliverThenDrop" }
  /** The message is lost: the server never sees it, so it never answers. */
  | { readonly _tag: "Swallow" }
  /** Delivered once `until` resolves (a slow link the test controls). */
  | { readonly _tag: "Hold"; readonly until: Promise<unknown> }
  /** Not delivered; the client receives `reply(message)` instead (garbage, a forged error, …). */
  | { readonly _tag: "Reply"; readonly reply: (message: JSONRPCMessage) => unknown }

/** Where a message is in the life of a server's connections, for the script to decide on. */
export interface SendContext {
  readonly server: string
  /** 1 for the first connection to this server, 2 after the first reconnect, … */
  readonly connection: number
  /** 1-based index of the message on this connection (initialize is 1). */
  readonly index: number
  /** The JSON-RPC method, or undefined for responses/notifications without one. */
  readonly method: string | undefined
  readonly message: JSONRPCMessage
}

/** Decides the fault of each message; return undefined (or `pass`) for none. */
export type Script = (context: SendContext) => Fault | undefined

/** Counters a test can read: connections opened and messages seen per server. */
export interface Stats {
  readonly connections: Map<string, number>
  readonly sent: Array<SendContext>
}

/** No fault: what a script answers for the messages it does not care about. */
export const pass: Fault = { _tag: "Pass" }
/** The server is gone before this message: tests reconnect-on-next-use. */
export const drop: Fault = { _tag: "Drop" }
/** The server dies holding the request: tests replay vs. "may have run". */
export const deliverThenDrop: Fault = { _tag: "DeliverThenDrop" }
/** The server never answers: tests that timeouts, not hangs, end the call. */
export const swallow: Fault = { _tag: "Swallow" }
/** `send` rejects with `error` (see `econnreset`, `sessionExpired`, `unauthorized`). */
export const fail = (error: unknown): Fault => ({ _tag: "Fail", error })
/** Delivery waits for `until`, so a test decides when a slow message arrives (no sleeps). */
export const hold = (until: Promise<unknown>): Fault => ({ _tag: "Hold", until })
/** The client gets `f(message)` instead of the server's answer (see `garbageFor`). */
export const reply = (f: (message: JSONRPCMessage) => unknown): Fault => ({ _tag: "Reply", reply: f })
/** Delivered after `ms` of real time. */
export const delay = (ms: number): Fault => hold(new Promise((resolve) => setTimeout(resolve, ms)))

/** A socket reset, as Node reports it. */
export const econnreset = (): Error =>
  Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET", errno: -104, syscall: "read" })

/** What the SDK's Streamable HTTP client throws when the server no longer knows the session. */
export const sessionExpired = (): Error =>
  new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, `Error POSTing to endpoint: {"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}`, { status: 404 })

/** What the SDK's Streamable HTTP client throws on a 401 without an OAuth provider. */
export const unauthorized = (): Error => new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, "Error POSTing to endpoint: Unauthorized", { status: 401 })

/** A result that is not JSON-RPC at all, for the request it answers. */
export const garbageFor = (message: JSONRPCMessage): unknown => ({
  jsonrpc: "2.0",
  id: (message as { id?: unknown }).id,
  result: "this is not a result object"
})

const methodOf = (message: JSONRPCMessage): string | undefined =>
  "method" in message && typeof message.method === "string" ? message.method : undefined

/** Wraps one SDK transport; every `send` consults the script first. */
export class FaultyTransport implements SdkTransport {
  onclose?: (() => void) | undefined
  onerror?: ((error: Error) => void) | undefined
  onmessage?: ((message: JSONRPCMessage, extra?: unknown) => void) | undefined
  private index = 0
  private closed = false

  constructor(
    private readonly inner: SdkTransport,
    private readonly server: string,
    private readonly connection: number,
    private readonly script: Script,
    private readonly stats: Stats
  ) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId
  }

  start(): Promise<void> {
    this.inner.onmessage = (message, extra) => this.onmessage?.(message, extra)
    this.inner.onerror = (error) => this.onerror?.(error)
    this.inner.onclose = () => this.notifyClose()
    return this.inner.start()
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const context: SendContext = {
      server: this.server,
      connection: this.connection,
      index: ++this.index,
      method: methodOf(message),
      message
    }
    this.stats.sent.push(context)
    const fault = this.script(context) ?? pass
    switch (fault._tag) {
      case "Pass":
        return this.inner.send(message, options)
      case "Fail":
        throw fault.error
      case "Drop":
        await this.close()
        throw Object.assign(new Error("Not connected"), { code: "EPIPE" })
      case "DeliverThenDrop": {
        // The server has the request, but the line goes dead before it can answer.
        const sent = this.inner.send(message, options)
        void this.close()
        return sent.catch(() => undefined)
      }
      case "Swallow":
        return
      case "Hold":
        void fault.until.then(() => (this.closed ? undefined : this.inner.send(message, options))).catch(() => undefined)
        return
      case "Reply":
        queueMicrotask(() => this.onmessage?.(fault.reply(message) as JSONRPCMessage))
        return
    }
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    await this.inner.close().catch(() => undefined)
    this.notifyClose()
  }

  private notified = false
  private notifyClose(): void {
    this.closed = true
    if (this.notified) return
    this.notified = true
    this.onclose?.()
  }
}

/**
 * The wrapped layer with faults injected by `script`. `stats` (optional, pass your own to read
 * it) counts connections and records every message sent.
 */
export const layer = (
  inner: Layer.Layer<Transport>,
  script: Script,
  stats: Stats = makeStats()
): Layer.Layer<Transport> =>
  Layer.effect(
    Transport,
    Effect.map(Transport, (base) =>
      Transport.of({
        open: (server: ResolvedServer, kind) =>
          Effect.map(base.open(server, kind), (opened) => {
            const n = (stats.connections.get(server.name) ?? 0) + 1
            stats.connections.set(server.name, n)
            return { ...opened, transport: new FaultyTransport(opened.transport, server.name, n, script, stats) }
          })
      }))
  ).pipe(Layer.provide(inner))

/** Fresh counters. */
export const makeStats = (): Stats => ({ connections: new Map(), sent: [] })
