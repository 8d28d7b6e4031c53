/**
 * The core services composed the way a host composes them (`@mcpctl/core/Host`), for tests and
 * examples: only the settings and the Transport layer vary. Asks fail (no prompter) and "always"
 * is not persisted, so a test decides permissions by its rules alone; nothing signs in inline
 * and no elicitation capability is declared. Tool definitions are not pinned unless a test passes
 * `pins` (`Pins.layerMemory`, or `Pins.layer` with a temporary home).
 */
// @ts-nocheck

import type { Pins } from "@mcpctl/core/Pins"
import type { McpConfig } from "@mcpctl/core/McpConfig"
import type { PoolOptions } from "@mcpctl/core/ConnectionPool"
import * as CoreHost from "@mcpctl/core/Host"
import type { Transport } from "@mcpctl/core/Transport"
import type * as Layer from "effect/Layer"

/** ToolRegistry, ConnectionPool, Permission and McpConfig (and RemoteAuth) over the given settings and transport. */
export const layer = <E>(options: {
  readonly config: Layer.Layer<McpConfig, E>
  readonly transport: Layer.Layer<Transport>
  readonly pool?: PoolOptions
  readonly pins?: Layer.Layer<Pins, never, McpConfig>
}) => CoreHost.layer({ config: options.config, transport: options.transport, pool: options.pool, pins: options.pins ?? false })
