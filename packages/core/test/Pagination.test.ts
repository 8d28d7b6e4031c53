/**
 * Lists that never end: bounded in pages, items and time, with a message naming the server and
 * the list; a cursor seen twice stops at once. Directly, and against the hostile fixture's
 * infinite cursor through the registry.
 */
import { describe, expect, it } from "@effect/vitest"
import { Host } from "@mcpctl/testing"
import { hostileServer } from "@mcpctl/testing/Fixtures"
import * as Effect from "effect/Effect"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { McpConfig } from "../src/config/McpConfig.js"
import { collectPages, DEFAULT_PAGE_LIMITS, ListTooLongError } from "../src/catalog/Pagination.js"
import { ToolRegistry } from "../src/catalog/ToolRegistry.js"
import { listResources } from "../src/catalog/Resources.js"
import { Transport } from "../src/transport/Transport.js"
import { slow } from "./support/slow.js"

const endless = (perPage: number) => (cursor: string | undefined) =>
  Promise.resolve({ items: Array.from({ length: perPage }, (_, i) => i), nextCursor: `c${Number(cursor?.slice(1) ?? 0) + 1}` })

const failure = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e as Error)

describe("collectPages", () => {
  it("returns every page of a list that ends", async () => {
    const pages: Record<string, { items: Array<number>; nextCursor?: string }> = {
      start: { items: [1, 2], nextCursor: "a" },
      a: { items: [3], nextCursor: "b" },
      b: { items: [4] }
    }
    expect(await collectPages("s", "tools/list", (c) => Promise.resolve(pages[c ?? "start"]!))).toEqual([1, 2, 3, 4])
  })

  it("stops after maxPages pages", async () => {
    const error = await failure(collectPages("s", "tools/list", endless(1), { ...DEFAULT_PAGE_LIMITS, maxPages: 50 }))
    expect(error).toBeInstanceOf(ListTooLongError)
    expect(error!.message).toMatch(/^server "s" sent more than 50 pages in tools\/list \(after 50 page\(s\), 50 item\(s\)\)/)
  })

  it("stops before holding more than maxItems items", async () => {
    const error = await failure(collectPages("s", "resources/list", endless(1_000), { ...DEFAULT_PAGE_LIMITS, maxItems: 2_500 }))
    expect(error!.message).toMatch(/returned more than 2,500 items in resources\/list \(after 3 page\(s\), 2,000 item\(s\)\)/)
  })

  it("stops after timeoutMs in all", async () => {
    let t = 0
    const error = await failure(collectPages("s", "prompts/list", endless(1), { ...DEFAULT_PAGE_LIMITS, timeoutMs: 1_000 }, () => (t += 300)))
    expect(error!.message).toMatch(/took more than 1,000 ms in prompts\/list/)
  })

  it("stops when a cursor comes back", async () => {
    const error = await failure(collectPages("s", "tools/list", () => Promise.resolve({ items: [1], nextCursor: "same" })))
    expect(error!.message).toMatch(/sent the cursor "same" twice in tools\/list/)
  })
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
