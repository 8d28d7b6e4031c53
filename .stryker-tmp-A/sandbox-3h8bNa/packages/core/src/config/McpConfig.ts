/**
 * Settings: the `mcpServers` and `permissions` of every scope (user, project, local, --config)
 * as the `McpConfig` service the rest of the host reads. The shapes are in `ServerConfig.ts`;
 * reading, merging and `${VAR}` expansion in `SettingsLoad.ts`.
 */
// @ts-nocheck

import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { ConfigError } from "../Errors.js"
import type { LoadOptions, Settings, StaticOptions } from "./ServerConfig.js"
import { load, makeStatic } from "../internal/config/SettingsLoad.js"

/**
 * The merged settings the host runs on.
 * @since 0.1.0
 */
export class McpConfig extends Context.Tag("@mcpctl/core/McpConfig")<McpConfig, Settings>() {
  /** Settings of every scope, read once when the layer is built. */
  static layer(options: LoadOptions = {}): Layer.Layer<McpConfig, ConfigError> {
    return Layer.effect(McpConfig, load(options))
  }
  /** Servers written in code (tests, library users), expanded and normalized like settings files. */
  static layerStatic(options: StaticOptions = {}): Layer.Layer<McpConfig, ConfigError> {
    return Layer.effect(McpConfig, Effect.suspend(() => makeStatic(options)))
  }
}

/**
 * The service shape of `McpConfig`.
 * @since 0.1.0
 */
export type McpConfigService = Settings

/**
 * The output budget (tokens) of one call to a server: its own `maxOutputTokens`, else the global limit.
 * @since 0.1.0
 */
export const outputTokensFor = (config: Settings, server: string): number =>
  config.servers.find((s) => s.name === server)?.config.maxOutputTokens ?? config.limits.maxOutputTokens


