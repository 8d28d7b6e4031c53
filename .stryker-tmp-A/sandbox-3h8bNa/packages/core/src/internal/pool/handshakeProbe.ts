/**
 * mcpctl's own clock on SDK v2's era probe (`server/discover`), so that no slow start can outrun
 * it and an unanswered probe decides nothing by itself:
 *
 * - The wait starts when the server is ready to read: for stdio, its first output (stderr) or the
 *   spawn plus a grace (`MCPCTL_STARTUP_GRACE`), whichever comes first; for remote servers at once.
 *   `npx some-server` can take 5 s before it reads its stdin; a wait timed from the spawn called
 *   such servers legacy.
 * - When the wait is over with no answer, mcpctl answers the probe itself with a JSON-RPC error
 *   (which SDK v2 takes as "not modern") so the SDK goes on with `initialize` on the same
 *   connection. The SDK's own probe timer is only a backstop.
 * - The server's real answer, when it comes late, is kept from the SDK (it would be an answer to
 *   an unknown request) and recorded: a late answer offering 2026-07-28 means the server is modern
 *   after all, and the handshake starts again in that era.
 *
 * A watch is installed on an opened, not yet connected transport and removed once the connect is
 * over (`stop`), before the pool wraps the transport's handlers itself.
 */
// @ts-nocheck

import type { JSONRPCMessage, Transport as SdkTransport } from "@modelcontextprotocol/client"
import type { Readable } from "node:stream"

/** What the watch saw of the probe. */
export interface ProbeWatch {
  /** The wait ran out before the server answered: the SDK was told "no" by mcpctl. */
  readonly timedOut: () => boolean
  /** A late answer's modern protocol version (2026-07-28 or later), if one came. */
  readonly lateModern: () => string | undefined
  /** Removes the watch: the transport's own `send` and `onmessage` again. */
  readonly stop: () => void
}

const PROBE_ID = /^server-discover-probe-/

/** The versions a `server/discover` result offers (pure). */
export const offeredModern = (result: unknown, modern: string): string | undefined => {
  const versions = (result as { supportedVersions?: unknown } | null)?.supportedVersions
  if (!Array.isArray(versions)) return undefined
  const found = versions.filter((v): v is string => typeof v === "string" && v >= modern).sort()
  return found.includes(modern) ? modern : found[0]
}

/**
 * When a stdio server is ready to read: its first output on stderr, its stderr closing (it
 * exited), or `graceMs` after now (the spawn), whichever comes first.
 */
export const readyToRead = (stderr: Readable | null | undefined, graceMs: number): { readonly ready: Promise<void>; readonly cancel: () => void } => {
  let cancel = () => {}
  const ready = new Promise<void>((resolve) => {
    const done = () => {
      cancel()
      resolve()
    }
    const timer = setTimeout(done, graceMs)
    stderr?.once("data", done)
    stderr?.once("close", done)
    cancel = () => {
      clearTimeout(timer)
      stderr?.off("data", done)
      stderr?.off("close", done)
    }
  })
  return { ready, cancel }
}

/** Watches the probes sent over `transport`; each waits `waitMs` from `ready`. */
export const watchProbe = (
  transport: SdkTransport,
  options: { readonly waitMs: number; readonly ready: Promise<void>; readonly modern: string }
): ProbeWatch => {
  const target = transport as { send: SdkTransport["send"]; onmessage?: SdkTransport["onmessage"] }
  const ownSend = Object.prototype.hasOwnProperty.call(target, "send")
  const send = target.send
  let handler = target.onmessage
  const hadOwnHandler = Object.prototype.hasOwnProperty.call(target, "onmessage")
  let pending: string | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  let timedOut = false
  let lateModern: string | undefined
  let stopped = false

  const giveUp = (id: string) => {
    if (pending !== id || stopped) return
    pending = undefined
    timedOut = true
    const refusal = {
      jsonrpc: "2.0" as const,
      id,
      error: { code: -32601, message: `no answer to server/discover within ${options.waitMs} ms of the server being ready (mcpctl)` }
    }
    handler?.(refusal as JSONRPCMessage)
  }

  target.send = function(message: JSONRPCMessage, ...rest: Array<unknown>) {
    const m = message as { id?: unknown; method?: unknown }
    if (m.method === "server/discover" && typeof m.id === "string" && PROBE_ID.test(m.id)) {
      const id = m.id
      pending = id
      void options.ready.then(() => {
        if (pending !== id || stopped) return
        timer = setTimeout(() => giveUp(id), options.waitMs)
      })
    }
    return (send as (...args: Array<unknown>) => Promise<void>).call(transport, message, ...rest)
  } as SdkTransport["send"]

  const tapped = (message: JSONRPCMessage, extra?: unknown) => {
    const m = message as { id?: unknown; result?: unknown; error?: unknown }
    if (typeof m.id === "string" && PROBE_ID.test(m.id) && ("result" in m || "error" in m)) {
      if (m.id === pending) {
        pending = undefined
        if (timer !== undefined) clearTimeout(timer)
      } else {
        // The answer to a probe mcpctl already answered itself: the SDK must not see it.
        if ("result" in m) lateModern ??= offeredModern(m.result, options.modern)
        return
      }
    }
    ;(handler as ((message: JSONRPCMessage, extra?: unknown) => void) | undefined)?.(message, extra)
  }
  Object.defineProperty(target, "onmessage", {
    configurable: true,
    enumerable: true,
    get: () => (handler === undefined ? undefined : tapped),
    set: (h) => void (handler = h)
  })

  return {
    timedOut: () => timedOut,
    lateModern: () => lateModern,
    stop: () => {
      if (stopped) return
      stopped = true
      if (timer !== undefined) clearTimeout(timer)
      if (ownSend) target.send = send
      else delete (target as { send?: unknown }).send
      const current = handler
      delete (target as { onmessage?: unknown }).onmessage
      if (hadOwnHandler || current !== undefined) target.onmessage = current
    }
  }
}
