// @ts-nocheck
import { describe, expect, it } from "@effect/vitest"
import { decodeHeaderValue, headerParams, paramHeaderMismatch } from "@mcpctl/core/internal/gateway/ParamHeaderCheck"

const schema = {
  type: "object",
  properties: {
    region: { type: "string", "x-mcp-header": "Region" },
    options: { type: "object", properties: { limit: { type: "integer", "x-mcp-header": "Limit" } } },
    items: { type: "array", items: { type: "string", "x-mcp-header": "Nope" } },
    plain: { type: "string" }
  }
}
const headersOf = (h: Record<string, string>) => (name: string) => h[name]

describe("ParamHeaderCheck", () => {
  it("finds header-bound arguments along properties chains only", () => {
    expect(headerParams(schema)).toEqual([
      { path: ["region"], name: "Region", type: "string" },
      { path: ["options", "limit"], name: "Limit", type: "integer" }
    ])
    expect(headerParams(undefined)).toEqual([])
    expect(headerParams({ "x-mcp-header": "Root", type: "string" })).toEqual([])
  })

  it("decodes the base64 form, strictly", () => {
    expect(decodeHeaderValue("eu")).toBe("eu")
    expect(decodeHeaderValue(`=?base64?${Buffer.from("süd").toString("base64")}?=`)).toBe("süd")
    expect(decodeHeaderValue("=?base64?not base64!?=")).toBeUndefined()
    expect(decodeHeaderValue(`=?base64?${Buffer.from([0xff, 0xfe]).toString("base64")}?=`)).toBeUndefined()
  })

  it("agrees when every present argument is repeated, numbers compared as numbers", () => {
    const params = headerParams(schema)
    expect(paramHeaderMismatch(params, { region: "eu", options: { limit: 42 } }, headersOf({ "Mcp-Param-Region": "eu", "Mcp-Param-Limit": "42.0" }))).toBeUndefined()
    // Absent or null arguments need no header.
    expect(paramHeaderMismatch(params, { region: null }, headersOf({}))).toBeUndefined()
    expect(paramHeaderMismatch(params, { flag: true }, headersOf({}))).toBeUndefined()
  })

  it("names the header that is missing, undecodable or different", () => {
    const params = headerParams(schema)
    expect(paramHeaderMismatch(params, { region: "eu" }, headersOf({}))).toContain("Mcp-Param-Region header is missing")
    expect(paramHeaderMismatch(params, { region: "eu" }, headersOf({ "Mcp-Param-Region": "=?base64?%%?=" }))).toContain("not valid base64")
    expect(paramHeaderMismatch(params, { options: { limit: 5 } }, headersOf({ "Mcp-Param-Limit": "6" }))).toContain(`says "6"`)
  })
})
