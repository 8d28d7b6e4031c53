/**
 * A 2026-07-28 result without `resultType` is a complete one (the revision tells clients to assume
 * "complete"); the SDK's modern decoder alone would refuse it. A real SDK v2 server whose answer
 * line is rewritten without the field, in both eras.
 *
 * The handshake takes a missing `resultType` as `complete` too: a 2026-07-28 server whose
 * `server/discover` answer lacks the field is still modern, whether the era is probed or pinned.
 * SDK v2 decodes the discover answer before any era codec applies (only later results go through
 * the modern decoder that requires the field, which Resilience.completeByDefault covers), so
 * nothing of mcpctl's is needed there: its test guards that it stays so across SDK upgrades.
 */
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

/** `body` on a host of these servers, every tool allowed, in a home of its own, without pins. */
const withHost = <A, E, R>(servers: NonNullable<Parameters<typeof config>[0]>["servers"], body: Effect.Effect<A, E, R>) =>
  body.pipe(Effect.provide(CoreHost.layer({
    config: config({ servers, home: mkdtempSync(path.join(tmpdir(), "mcpctl-rt-")), permissions: { allow: ["mcp__*"] } }),
    transport: Transport.layer,
    pins: false
  })))

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
    withHost(
      [nodeServer("modern", v2ErasServer), server("old", { command: process.execPath, args: [v2ErasServer], protocol: "legacy" })],
      Effect.gen(function*() {
        const pool = yield* ConnectionPool
        expect((yield* pool.get("modern")).era).toBe("modern")
        for (const name of ["modern", "old"]) {
          const { result } = yield* (yield* ToolRegistry).call(`mcp__${name}__no_result_type`, {})
          expect(result.content).toEqual([{ type: "text", text: "complete without resultType" }])
          expect(result.isError).not.toBe(true)
        }
      })
    ), slow(60_000))
})

describe("a server/discover answer without resultType", () => {
  it.live("connects in the modern era, probed and pinned", () => {
    const args = [v2ErasServer, "--discover-without-result-type"]
    return withHost(
      [server("probed", { command: process.execPath, args }), server("pinned", { command: process.execPath, args, protocol: "modern" })],
      Effect.gen(function*() {
        const pool = yield* ConnectionPool
        for (const name of ["probed", "pinned"]) {
          const connection = yield* pool.get(name)
          expect(connection.era, name).toBe("modern")
          const { result } = yield* (yield* ToolRegistry).call(`mcp__${name}__no_result_type`, {})
          expect(result.isError).not.toBe(true)
        }
      })
    )
  }, slow(60_000))
})
