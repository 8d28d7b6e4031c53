/**
 * Output schemas with server-chosen patterns run in linear time: the SDK's default engine spent
 * minutes on `^(a+)+$` against 40 "a" and a "!", with the event loop pinned (no timeout, no
 * signal). Through the SDK client against the hostile fixture, and directly.
 */
// @ts-nocheck

import { describe, expect, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/client"
import * as fixtures from "@mcpctl/testing/Fixtures"
import * as Effect from "effect/Effect"
import { makeStatic } from "../src/internal/config/SettingsLoad.js"
import { linearRegExp, makeSchemaValidator } from "../src/internal/pool/SchemaValidator.js"
import { Host } from "@mcpctl/testing"
import { McpConfig } from "@mcpctl/core/McpConfig"
import { ToolRegistry } from "@mcpctl/core/ToolRegistry"
import { Transport } from "@mcpctl/core/Transport"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { openStdio } from "../src/internal/transport/Stdio.js"

const catastrophic = "a".repeat(40) + "!"

describe("linearRegExp", () => {
  it("answers a catastrophic pattern at once, with RegExp's search semantics", () => {
    const started = Date.now()
    expect(linearRegExp("^(a+)+$").test(catastrophic)).toBe(false)
    expect(linearRegExp("^(a+)+$").test("aaaa")).toBe(true)
    expect(linearRegExp("b+").test("abbbc")).toBe(true)
    expect(Date.now() - started).toBeLessThan(1_000)
  })

  it("matches everything when the pattern needs what a linear engine cannot do", () => {
    expect(linearRegExp("(?=x)y").test("anything")).toBe(true)
    expect(linearRegExp("(a)\\1").test("ab")).toBe(true)
  })
})

describe("makeSchemaValidator", () => {
  it("validates like the SDK's default, patterns included", () => {
    const check = makeSchemaValidator().getValidator({
      type: "object",
      properties: { s: { type: "string", pattern: "^(a+)+$" }, n: { type: "number" } },
      required: ["s"]
    })
    expect(check({ s: "aaa", n: 1 }).valid).toBe(true)
    const started = Date.now()
    const bad = check({ s: catastrophic })
    expect(Date.now() - started).toBeLessThan(1_000)
    expect(bad).toMatchObject({ valid: false })
    expect(bad.errorMessage).toMatch(/must match pattern/)
    expect(check({ n: "x" }).valid).toBe(false)
  })

  it("accepts everything for a schema it cannot compile, instead of failing the tool list", () => {
    expect(makeSchemaValidator().getValidator({ type: "object", properties: { a: { $ref: "#/nowhere" } } })({ a: 1 }).valid).toBe(true)
  })

  it.scoped("the hostile server's ReDoS schema: the SDK client answers in well under a second", () =>
    Effect.gen(function*() {
      const server = Effect.runSync(makeStatic({ servers: { h: { command: process.execPath, args: [fixtures.hostileServer] } } })).servers[0]!
      const opened = yield* openStdio(server, server.config as { command: string })
      const client = new Client({ name: "t", version: "0" }, { capabilities: {}, jsonSchemaValidator: makeSchemaValidator() })
      yield* Effect.promise(() => client.connect(opened.transport))
      yield* Effect.promise(() => client.listTools())
      const started = Date.now()
      const error = yield* Effect.promise(() => client.callTool({ name: "redos", arguments: {} }).then(() => undefined, (e: Error) => e))
      expect(Date.now() - started).toBeLessThan(2_000)
      expect(error?.message).toMatch(/Structured content does not match the tool's output schema: data\/s must match pattern/)
    }))

  it.live("through the catalogue's call path too: the SDK checks the result against the listed outputSchema", () =>
    Effect.gen(function*() {
      const registry = yield* ToolRegistry
      yield* registry.list()
      const started = Date.now()
      const error = yield* Effect.flip(registry.call("mcp__h__redos", {}))
      expect(Date.now() - started).toBeLessThan(2_000)
      expect(error.message).toMatch(/Structured content does not match the tool's output schema: data\/s must match pattern/)
    }).pipe(Effect.provide(Host.layer({
      config: McpConfig.layerStatic({
        servers: { h: { command: process.execPath, args: [fixtures.hostileServer] } },
        permissions: { allow: ["mcp__h__*"] },
        home: mkdtempSync(join(tmpdir(), "mcpctl-schema-"))
      }),
      transport: Transport.layer
    }))))
})
