/**
 * A 2026-07-28 result without `resultType` is a complete one (the revision tells clients to assume
 * "complete"); the SDK's modern decoder alone would refuse it. A real SDK v2 server whose answer
 * line is rewritten without the field, in both eras.
 */
// @ts-nocheck

import { slow } from "./support/slow.js"
import { describe, expect, it } from "@effect/vitest"
import { config, nodeServer, server, v2ErasServer } from "@mcpctl/testing/Fixtures"
import { ConnectionPool } from "@mcpctl/core/ConnectionPool"
import * as CoreHost from "@mcpctl/core/Host"
import { completeByDefault } from "@mcpctl/core/internal/pool/Resilience"
import { ToolRegistry } from "@mcpctl/core/ToolRegistry"
import { Transport } from "@mcpctl/core/Transport"
import * as Effect from "effect/Effect"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"

describe("a result without resultType", () => {
  it("is given resultType complete, and one that has a resultType is left alone", () => {
    expect(completeByDefault({ jsonrpc: "2.0", id: 1, result: { content: [] } })).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: { content: [], resultType: "complete" }
    })
    const input = { jsonrpc: "2.0", id: 2, result: { resultType: "input_required", inputRequests: {} } }
    expect(completeByDefault(input)).toBe(input)
  })

  it.live("is read as complete by a tool call, in the modern era and the legacy one", () =>
    Effect.gen(function*() {
      const servers = [
        nodeServer("modern", v2ErasServer),
        server("old", { command: process.execPath, args: [v2ErasServer], protocol: "legacy" })
      ]
      yield* Effect.gen(function*() {
        const pool = yield* ConnectionPool
        expect((yield* pool.get("modern")).era).toBe("modern")
        for (const name of ["modern", "old"]) {
          const { result } = yield* (yield* ToolRegistry).call(`mcp__${name}__no_result_type`, {})
          expect(result.content).toEqual([{ type: "text", text: "complete without resultType" }])
          expect(result.isError).not.toBe(true)
        }
      }).pipe(Effect.provide(CoreHost.layer({
        config: config({ servers, home: mkdtempSync(path.join(tmpdir(), "mcpctl-rt-")), permissions: { allow: ["mcp__*"] } }),
        transport: Transport.layer,
        pins: false
      })))
    }), slow(60_000))
})
