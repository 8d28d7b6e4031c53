/**
 * The handshake takes a missing `resultType` as `complete` too: a 2026-07-28 server whose
 * `server/discover` answer lacks the field is still modern, whether the era is probed or pinned.
 * SDK v2 decodes the discover answer before any era codec applies (only later results go through
 * the modern decoder that requires the field, which Resilience.completeByDefault covers), so
 * nothing of mcpctl's is needed here: this guards that it stays so across SDK upgrades.
 */
// @ts-nocheck

import { slow } from "./support/slow.js"
import { describe, expect, it } from "@effect/vitest"
import { config, server, v2ErasServer } from "@mcpctl/testing/Fixtures"
import { ConnectionPool } from "@mcpctl/core/ConnectionPool"
import * as CoreHost from "@mcpctl/core/Host"
import { ToolRegistry } from "@mcpctl/core/ToolRegistry"
import { Transport } from "@mcpctl/core/Transport"
import * as Effect from "effect/Effect"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"

describe("a server/discover answer without resultType", () => {
  it.live("connects in the modern era, probed and pinned", () =>
    Effect.gen(function*() {
      const args = [v2ErasServer, "--discover-without-result-type"]
      const servers = [
        server("probed", { command: process.execPath, args }),
        server("pinned", { command: process.execPath, args, protocol: "modern" })
      ]
      yield* Effect.gen(function*() {
        const pool = yield* ConnectionPool
        for (const name of ["probed", "pinned"]) {
          const connection = yield* pool.get(name)
          expect(connection.era, name).toBe("modern")
          const { result } = yield* (yield* ToolRegistry).call(`mcp__${name}__no_result_type`, {})
          expect(result.isError).not.toBe(true)
        }
      }).pipe(Effect.provide(CoreHost.layer({
        config: config({ servers, home: mkdtempSync(path.join(tmpdir(), "mcpctl-rt-")), permissions: { allow: ["mcp__*"] } }),
        transport: Transport.layer,
        pins: false
      })))
    }), slow(60_000))
})
