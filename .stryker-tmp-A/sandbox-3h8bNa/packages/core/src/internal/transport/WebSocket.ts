/**
 * MCP over WebSocket with the `ws` package, as an SDK `Transport`. Its own module because it is a
 * whole transport implementation, while `Http.ts` only configures the SDK's HTTP and SSE ones.
 */
// @ts-nocheck

import type { Transport as SdkTransport, JSONRPCMessage } from "@modelcontextprotocol/client"
import type WebSocket from "ws"
import { DEFAULT_MAX_RESPONSE_BYTES, InFlight, isMessageShape, tooLargeAnswer, tooLargeText } from "./MessageSize.js"
import { CLOSE_GRACE_MS, DEFAULT_REQUEST_TIMEOUT_MS, WebSocketHandshakeError } from "./TransportErrors.js"

// `ws` (and the zlib its permessage-deflate loads) is read on the first WebSocket connect, not by
// every command's cold start. The ready states are the standard ones `ws` uses too.
let wsModule: Promise<typeof import("ws")> | undefined
const loadWs = () => (wsModule ??= import("ws"))
const CONNECTING = 0
const OPEN = 1
const CLOSED = 3

/** The WebSocket subprotocol MCP uses (the SDK's `WebSocketClientTransport` asks for it too). */
export const WEBSOCKET_SUBPROTOCOL = "mcp"

/** Options of `WebSocketTransport`. */
export interface WebSocketTransportOptions {
  readonly headers?: Readonly<Record<string, string>> | undefined
  /** Bound on the opening handshake, ms. */
  readonly handshakeTimeoutMs?: number | undefined
  /** How long `close()` waits for the closing handshake before dropping the socket, ms. */
  readonly closeGraceMs?: number | undefined
  /** The largest message accepted, bytes (default 32 MiB); a larger one fails the requests in flight. */
  readonly maxMessageBytes?: number | undefined
  /** The server's name, for the message of a dropped answer. */
  readonly server?: string | undefined
}

/**
 * An SDK `Transport` over the `ws` package. The SDK's `WebSocketClientTransport` uses the global
 * `WebSocket`, which cannot send headers, so servers that authenticate the upgrade (IDE bridges,
 * session tokens) are unreachable with it. This one sends configured headers, asks for the `mcp`
 * subprotocol, reports an upgrade refusal with its status, and closes within a bounded time.
 */
export class WebSocketTransport implements SdkTransport {
  onclose?: (() => void) | undefined
  onerror?: ((error: Error) => void) | undefined
  onmessage?: (<T extends JSONRPCMessage>(message: T) => void) | undefined

  private socket: WebSocket | undefined
  private started = false
  private closed: Promise<void> | undefined
  private closeNotified = false
  private readonly inFlight = new InFlight()

  constructor(readonly url: URL, private readonly options: WebSocketTransportOptions = {}) {}

  start(): Promise<void> {
    if (this.started) {
      return Promise.reject(
        new Error("WebSocketTransport already started (Client.connect starts it; do not call start twice)")
      )
    }
    this.started = true
    return loadWs().then(({ default: WebSocket }) => this.open(WebSocket))
  }

  private open(WebSocket: typeof import("ws").default): Promise<void> {
    // Closed while `ws` was loading: nothing opens after close().
    if (this.closed !== undefined) return Promise.reject(new Error(`WebSocket to ${this.url.href} closed before it opened`))
    return new Promise<void>((resolve, reject) => {
      let opened = false
      const socket = new WebSocket(this.url, WEBSOCKET_SUBPROTOCOL, {
        headers: { ...this.options.headers },
        handshakeTimeout: this.options.handshakeTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
        // Enforced while reading: a frame that declares more is refused before its payload.
        maxPayload: this.options.maxMessageBytes ?? DEFAULT_MAX_RESPONSE_BYTES
      })
      this.socket = socket
      socket.on("unexpected-response", (request, response) => {
        const status = response.statusCode ?? 0
        const error = new WebSocketHandshakeError(
          status,
          `WebSocket upgrade to ${this.url.href} refused: HTTP ${status} ${response.statusMessage ?? ""}`.trim()
        )
        response.resume()
        request.destroy()
        socket.terminate()
        reject(error)
        this.onerror?.(error)
      })
      socket.on("open", () => {
        opened = true
        resolve()
      })
      socket.on("error", (error) => {
        if (!opened) reject(error)
        // `ws` closes the socket (1009) after a message over `maxPayload`; which request it
        // answered is unknown, so every request in flight fails with the reason first.
        if ((error as { code?: unknown }).code === "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH") {
          const limit = this.options.maxMessageBytes ?? DEFAULT_MAX_RESPONSE_BYTES
          const text = tooLargeText(this.options.server ?? this.url.host, limit + 1, limit, false)
          for (const id of this.inFlight.pending()) this.onmessage?.(tooLargeAnswer(id, text))
        }
        this.onerror?.(error)
      })
      socket.on("message", (data) => {
        let message: JSONRPCMessage
        try {
          const text = Array.isArray(data)
            ? Buffer.concat(data).toString("utf8")
            : Buffer.isBuffer(data)
            ? data.toString("utf8")
            : Buffer.from(data).toString("utf8")
          const parsed: unknown = JSON.parse(text)
          if (!isMessageShape(parsed)) throw new Error(`not a JSON-RPC message: ${text.slice(0, 200)}`)
          message = parsed
          this.inFlight.received(message)
        } catch (error) {
          this.onerror?.(error instanceof Error ? error : new Error(String(error)))
          return
        }
        this.onmessage?.(message)
      })
      socket.on("close", () => {
        if (!opened) reject(new Error(`WebSocket to ${this.url.href} closed before it opened`))
        this.notifyClose()
      })
    })
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const socket = this.socket
      if (!socket || socket.readyState !== OPEN) {
        reject(new Error("Not connected"))
        return
      }
      this.inFlight.sent(message)
      socket.send(JSON.stringify(message), (error) => (error ? reject(error) : resolve()))
    })
  }

  close(): Promise<void> {
    this.closed ??= new Promise<void>((resolve) => {
      const socket = this.socket
      if (!socket || socket.readyState === CLOSED) {
        this.notifyClose()
        resolve()
        return
      }
      const timer = setTimeout(() => socket.terminate(), this.options.closeGraceMs ?? CLOSE_GRACE_MS)
      timer.unref?.()
      socket.once("close", () => {
        clearTimeout(timer)
        resolve()
      })
      if (socket.readyState === CONNECTING) socket.terminate()
      else socket.close(1000)
    })
    return this.closed
  }

  private notifyClose(): void {
    if (!this.closeNotified) {
      this.closeNotified = true
      this.onclose?.()
    }
  }
}
