/**
 * What opening a transport yields, shared by the real transports, the pool and the test harness.
 * A leaf: types only.
 */
// @ts-nocheck

import type { Transport as SdkTransport } from "@modelcontextprotocol/client"

/** A concrete way to reach a server; `auto` in the config is resolved to `http` then `sse`. */
export type ConcreteKind = "stdio" | "http" | "sse" | "ws"

/** An opened, not yet started transport (the SDK `Client.connect` starts it). */
export interface OpenedTransport {
  readonly kind: ConcreteKind
  readonly transport: SdkTransport
  /**
   * What the server said before it failed (the tail of a stdio server's stderr), to put into the
   * error when connecting fails. Undefined when there is nothing to add.
   */
  readonly diagnostics: () => string | undefined
}
