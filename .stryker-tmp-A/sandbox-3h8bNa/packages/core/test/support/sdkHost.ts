/**
 * The set-up the SDK v2 fixture tests share (ModernEra.test.ts, Elicitation.defaults.test.ts): a
 * host of real servers in a fresh home, every tool allowed, pins off, with the elicitation layer
 * a test chooses; a call by name and the text of its first content item.
 */
// @ts-nocheck

import { Elicitation } from "@mcpctl/core/Elicitation"
import * as CoreHost from "@mcpctl/core/Host"
import type { ResolvedServer } from "@mcpctl/core/ServerConfig"
import { ToolRegistry } from "@mcpctl/core/ToolRegistry"
import { Transport } from "@mcpctl/core/Transport"
import { config } from "@mcpctl/testing/Fixtures"
import * as Effect from "effect/Effect"
import type * as Layer from "effect/Layer"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"

/** A host of `servers` answering elicitations with `elicitation` (default: the forms' defaults, as `--yes`). */
export const hostWith = (servers: ReadonlyArray<ResolvedServer>, elicitation: Layer.Layer<Elicitation> = Elicitation.layerDefaults) =>
  CoreHost.layer({
    config: config({ servers, home: mkdtempSync(path.join(tmpdir(), "mcpctl-sdk-host-")), permissions: { allow: ["mcp__*"] } }),
    transport: Transport.layer,
    pins: false,
    elicitation
  })

/** The text of a result's first content item. */
export const textOf = (result: { content: ReadonlyArray<unknown> }) => (result.content[0] as { text: string }).text

/** Calls the tool `name` through the registry. */
export const call = (name: string, args: Record<string, unknown> = {}) =>
  Effect.flatMap(ToolRegistry, (registry) => registry.call(name, args))
