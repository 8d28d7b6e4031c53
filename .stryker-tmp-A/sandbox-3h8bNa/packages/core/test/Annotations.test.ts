// @ts-nocheck
import { describe, expect, it } from "@effect/vitest"
import { HINT_DEFAULTS, toAnnotations, toolHints } from "@mcpctl/core/internal/catalog/Annotations"
import { toListedTool } from "@mcpctl/core/Gateway"
import { toMcpTool } from "@mcpctl/core/ToolRegistry"

describe("toolHints: the spec's defaults for hints a server leaves out", () => {
  it("treats a tool without annotations as destructive and open-world, not read-only or idempotent", () => {
    expect(HINT_DEFAULTS).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true })
    expect(toolHints(undefined)).toEqual({ readOnly: false, destructive: true, idempotent: false, openWorld: true })
    expect(toolHints({})).toEqual({ readOnly: false, destructive: true, idempotent: false, openWorld: true })
  })

  it("keeps what the server says; a read-only tool destroys nothing whatever destructiveHint says", () => {
    expect(toolHints({ destructiveHint: false, openWorldHint: false, idempotentHint: true })).toEqual({
      readOnly: false,
      destructive: false,
      idempotent: true,
      openWorld: false
    })
    expect(toolHints({ readOnlyHint: true })).toEqual({ readOnly: true, destructive: false, idempotent: false, openWorld: true })
    expect(toolHints({ readOnlyHint: true, destructiveHint: true }).destructive).toBe(false)
  })

  it("ignores hints that are not booleans (a server's \"yes\" is no answer)", () => {
    expect(toolHints({ destructiveHint: "no" as never, readOnlyHint: 1 as never })).toEqual(toolHints(undefined))
  })

  it("writes every hint explicitly for clients", () => {
    expect(toAnnotations(toolHints(undefined), "T")).toEqual({
      title: "T",
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true
    })
  })
})

describe("the catalogue and the gateway read the same defaults", () => {
  // redis `delete`, puppeteer_evaluate, postgres `query`: no annotations at all.
  const bare = toMcpTool("redis", { name: "delete", inputSchema: { type: "object" } })

  it("shows an unannotated tool as destructive and open-world in the catalogue", () => {
    expect(bare).toMatchObject({ readOnly: false, destructive: true, openWorld: true, idempotent: false, concurrencySafe: false })
  })

  it("re-advertises it through serve as destructive and open-world, never as safe", () => {
    expect(toListedTool(bare).annotations).toEqual({
      title: "delete",
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true
    })
    const reader = toMcpTool("fs", { name: "read", inputSchema: { type: "object" }, annotations: { readOnlyHint: true, openWorldHint: false } })
    expect(toListedTool(reader).annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, openWorldHint: false })
  })
})
