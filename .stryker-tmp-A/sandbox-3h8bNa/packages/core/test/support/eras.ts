/**
 * The set-up the era tests share (Eras.test.ts, EraProbe.test.ts): a fresh home (so no era
 * verdict is cached), a host over real transports with pins off and the defaults elicitation
 * layer, and the era cache's verdicts as stored.
 */
// @ts-nocheck

import type { PoolOptions } from "@mcpctl/core/ConnectionPool"
import { Elicitation } from "@mcpctl/core/Elicitation"
import { eraCacheFile } from "@mcpctl/core/internal/pool/EraCache"
import * as CoreHost from "@mcpctl/core/Host"
import type { Limits, ResolvedServer } from "@mcpctl/core/ServerConfig"
import { Transport } from "@mcpctl/core/Transport"
import { config } from "@mcpctl/testing/Fixtures"
import type * as Layer from "effect/Layer"
import { existsSync, mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"

/** A home of its own: no era verdict, no pins. */
export const freshHome = (): string => mkdtempSync(path.join(tmpdir(), "mcpctl-eras-"))

/** A host of `servers` (every tool allowed) over the real transports. */
export const eraHost = (
  servers: ReadonlyArray<ResolvedServer>,
  home: string,
  options: {
    readonly pool?: PoolOptions | undefined
    readonly limits?: Partial<Limits> | undefined
    readonly elicitation?: Layer.Layer<Elicitation> | undefined
  } = {}
) =>
  CoreHost.layer({
    config: config({ servers, home, ...(options.limits ? { limits: options.limits } : {}), permissions: { allow: ["mcp__*"] } }),
    transport: Transport.layer,
    pins: false,
    pool: options.pool,
    elicitation: options.elicitation ?? Elicitation.layerDefaults
  })

/** The era cache's verdicts by server identity (none when nothing was remembered). */
export const readVerdicts = (home: string): Record<string, { era: string }> =>
  existsSync(eraCacheFile(home)) ? JSON.parse(readFileSync(eraCacheFile(home), "utf8")) : {}
