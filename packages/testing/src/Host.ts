/**
 * The core services composed the way a host composes them (settings → pool → permission →
 * registry), for tests and examples: only the settings and the Transport layer vary. Asks fail
 * (no prompter) and "always" is not persisted, so a test decides permissions by its rules alone.
 */
import type { McpConfig } from "@mcpctl/core/McpConfig"
import { ConnectionPool, type PoolOptions } from "@mcpctl/core/ConnectionPool"
import { Permission, Prompter, RuleWriter } from "@mcpctl/core/Permission"
import { ToolRegistry } from "@mcpctl/core/ToolRegistry"
import type { Transport } from "@mcpctl/core/Transport"
import * as Layer from "effect/Layer"

/** ToolRegistry, ConnectionPool, Permission and McpConfig over the given settings and transport. */
export const layer = <E>(options: {
  readonly config: Layer.Layer<McpConfig, E>
  readonly transport: Layer.Layer<Transport>
  readonly pool?: PoolOptions
}) => {
  const pool = ConnectionPool.layerWith(options.pool ?? {}).pipe(Layer.provide(options.transport))
  const permission = Permission.layer.pipe(Layer.provide(Layer.merge(Prompter.layerNone, RuleWriter.layerNoop)))
  return ToolRegistry.layer.pipe(
    Layer.provideMerge(Layer.merge(pool, permission)),
    Layer.provideMerge(options.config)
  )
}
