/**
 * Lists that never end: bounded in pages, items and time, with a message naming the server and
 * the list; a cursor seen twice stops at once. Directly, and against the hostile fixture's
 * infinite cursor through the registry.
 */
// @ts-nocheck

import { describe, expect, it } from "@effect/vitest"
import { Host } from "@mcpctl/testing"
import { hostileServer } from "@mcpctl/testing/Fixtures"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as TestClock from "effect/TestClock"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { McpConfig } from "../src/config/McpConfig.js"
import { collectPages, DEFAULT_PAGE_LIMITS } from "../src/internal/catalog/Pagination.js"
import { McpRequestError } from "../src/Errors.js"
import { ToolRegistry } from "../src/catalog/ToolRegistry.js"
import { listResources } from "../src/catalog/Resources.js"
import { Transport } from "../src/transport/Transport.js"
import { slow } from "./support/slow.js"

const endless = (perPage: number) => (cursor: string | undefined) =>
  Effect.succeed({ items: Array.from({ length: perPage }, (_, i) => i), nextCursor: `c${Number(cursor?.slice(1) ?? 0) + 1}` })

describe("collectPages", () => {
  it.effect("returns every page of a list that ends", () =>
    Effect.gen(function*() {
      const pages: Record<string, { items: Array<number>; nextCursor?: string }> = {
        start: { items: [1, 2], nextCursor: "a" },
        a: { items: [3], nextCursor: "b" },
        b: { items: [4] }
      }
      expect(yield* collectPages("s", "tools/list", (c) => Effect.succeed(pages[c ?? "start"]!))).toEqual([1, 2, 3, 4])
    }))

  it.effect("stops after maxPages pages, with an McpRequestError naming the server and the list", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(collectPages("s", "tools/list", endless(1), { ...DEFAULT_PAGE_LIMITS, maxPages: 50 }))
      expect(error).toBeInstanceOf(McpRequestError)
      expect(error).toMatchObject({ _tag: "McpRequestError", server: "s", method: "tools/list", code: -1 })
      expect(error.message).toMatch(/^s: server "s" sent more than 50 pages in tools\/list \(after 50 page\(s\), 50 item\(s\)\)/)
    }))

  it.effect("stops before holding more than maxItems items", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(collectPages("s", "resources/list", endless(1_000), { ...DEFAULT_PAGE_LIMITS, maxItems: 2_500 }))
      expect(error.message).toMatch(/returned more than 2,500 items in resources\/list \(after 3 page\(s\), 2,000 item\(s\)\)/)
    }))

  it.effect("stops after timeoutMs in all, also while a page is in flight, and interrupts that page", () =>
    Effect.gen(function*() {
      let interrupted = 0
      // Each page takes 300 ms of the test's clock; the fourth is still in flight at 1,000 ms.
      const slow = (cursor: string | undefined) =>
        Effect.zipRight(Effect.sleep("300 millis"), endless(1)(cursor)).pipe(Effect.onInterrupt(() => Effect.sync(() => interrupted++)))
      const fiber = yield* Effect.fork(Effect.flip(collectPages("s", "prompts/list", slow, { ...DEFAULT_PAGE_LIMITS, timeoutMs: 1_000 })))
      yield* TestClock.adjust("999 millis")
      expect(fiber.unsafePoll()).toBeNull()
      yield* TestClock.adjust("1 millis")
      const error = yield* Fiber.join(fiber)
      expect(error.message).toMatch(/took more than 1,000 ms in prompts\/list \(after 3 page\(s\), 3 item\(s\)\)/)
      expect(interrupted).toBe(1)
    }))

  it.effect("stops when a cursor comes back", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(collectPages("s", "tools/list", () => Effect.succeed({ items: [1], nextCursor: "same" })))
      expect(error.message).toMatch(/sent the cursor "same" twice in tools\/list/)
    }))

  it.effect("passes a page's own failure through unchanged", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(collectPages("s", "tools/list", () => Effect.fail("boom" as const)))
      expect(error).toBe("boom")
    }))
})

describe("an infinite cursor through the registry", () => {
  it.effect("tools and resources of the server fail with the bound, other servers are listed", () =>
    Effect.gen(function*() {
      const registry = yield* ToolRegistry
      const started = Date.now()
      const { errors, tools } = yield* registry.list()
      expect(tools.map((t) => t.server)).toEqual(Array(8).fill("fine"))
      expect(errors).toEqual([
        { server: "endless", status: "failed", message: expect.stringMatching(/server "endless" sent more than 1,000 pages in tools\/list/) }
      ])
      const resources = yield* Effect.flip(listResources("endless"))
      expect(resources.message).toMatch(/sent more than 1,000 pages in resources\/list/)
      expect(Date.now() - started).toBeLessThan(slow(20_000))
    }).pipe(Effect.provide(Host.layer({
      config: McpConfig.layerStatic({
        servers: {
          endless: { command: process.execPath, args: [hostileServer, "--infinite-cursor"] },
          fine: { command: process.execPath, args: [hostileServer] }
        },
        home: mkdtempSync(join(tmpdir(), "mcpctl-pages-"))
      }),
      transport: Transport.layer
    }))), 60_000)
})
