// @ts-nocheck
import { describe, expect, it } from "@effect/vitest"
import { xMcpHeaderFault } from "@mcpctl/core/internal/catalog/ToolHeaderMarks"

const withProp = (prop: Record<string, unknown>) => ({ type: "object", properties: { p: prop } })

describe("xMcpHeaderFault (SEP-2243)", () => {
  it("accepts valid marks on string, integer and boolean properties, nested through properties", () => {
    expect(xMcpHeaderFault(withProp({ type: "string", "x-mcp-header": "Region" }))).toBeUndefined()
    expect(xMcpHeaderFault(withProp({ type: "integer", "x-mcp-header": "Count" }))).toBeUndefined()
    expect(xMcpHeaderFault({ type: "object", properties: { a: { type: "object", properties: { b: { type: "boolean", "x-mcp-header": "Flag" } } } } }))
      .toBeUndefined()
    expect(xMcpHeaderFault({ type: "object" })).toBeUndefined()
    expect(xMcpHeaderFault(undefined)).toBeUndefined()
  })

  it("refuses names that are not header tokens, empty or not strings", () => {
    expect(xMcpHeaderFault(withProp({ type: "string", "x-mcp-header": "Bad Header" }))).toContain("not an HTTP header token")
    expect(xMcpHeaderFault(withProp({ type: "string", "x-mcp-header": "A\r\nB" }))).toContain("not an HTTP header token")
    expect(xMcpHeaderFault(withProp({ type: "string", "x-mcp-header": "" }))).toContain("non-empty")
    expect(xMcpHeaderFault(withProp({ type: "string", "x-mcp-header": 3 }))).toContain("non-empty")
  })

  it("refuses other types, untyped properties, the root, and marks outside the properties chain", () => {
    expect(xMcpHeaderFault(withProp({ type: "number", "x-mcp-header": "N" }))).toContain("not number")
    expect(xMcpHeaderFault(withProp({ "x-mcp-header": "N" }))).toContain("untyped")
    expect(xMcpHeaderFault({ type: "object", "x-mcp-header": "Root" })).toContain("the schema root")
    expect(xMcpHeaderFault({ type: "object", properties: { a: { type: "array", items: { type: "string", "x-mcp-header": "I" } } } }))
      .toContain("reached through")
    expect(xMcpHeaderFault({ type: "object", anyOf: [{ properties: { a: { type: "string", "x-mcp-header": "A" } } }] }))
      .toContain("reached through")
    expect(xMcpHeaderFault({ type: "object", $defs: { d: { type: "string", "x-mcp-header": "D" } } })).toContain("reached through")
  })

  it("refuses two marks equal ignoring case", () => {
    expect(xMcpHeaderFault({
      type: "object",
      properties: { a: { type: "string", "x-mcp-header": "Region" }, b: { type: "string", "x-mcp-header": "region" } }
    })).toContain("declared twice")
  })
})
