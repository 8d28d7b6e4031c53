/**
 * `x-mcp-header` (SEP-2243, MCP 2026-07-28): a tool's input schema may mark a parameter to travel
 * as an `Mcp-Param-<Name>` HTTP header too. A tool whose marks break the spec's rules is invalid
 * and MUST NOT be offered: SDK v2 drops such tools inside `listTools()`, but the catalogue lists
 * page by page with `request()` (its own bounds), so the rule is applied here. Pure.
 *
 * The rules: the mark is a non-empty RFC 9110 token, on a property reached from the root only
 * through `properties` (not under `items`, `additionalProperties`, `oneOf`/`anyOf`/`allOf`/`not`,
 * `if`/`then`/`else`, `$defs`, ...), whose `type` is `string`, `integer` or `boolean`, and no two
 * marks are equal ignoring case.
 */
// @ts-nocheck


const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
const PERMITTED_TYPES = new Set(["string", "integer", "boolean"])
const KEY = "x-mcp-header"

/** Keywords whose subschemas are outside the `properties` chain. */
const UNREACHABLE = [
  "items",
  "prefixItems",
  "contains",
  "additionalProperties",
  "unevaluatedProperties",
  "unevaluatedItems",
  "propertyNames",
  "patternProperties",
  "dependentSchemas",
  "oneOf",
  "anyOf",
  "allOf",
  "not",
  "if",
  "then",
  "else",
  "$defs",
  "definitions"
] as const
/** Of those, the ones whose value is an object of subschemas by name. */
const BY_NAME = new Set(["patternProperties", "dependentSchemas", "$defs", "definitions"])

const where = (path: ReadonlyArray<string>) => (path.length === 0 ? "the schema root" : `property ${path.join(".")}`)

/** Why a tool's input schema breaks the `x-mcp-header` rules, or undefined when it does not. */
export const xMcpHeaderFault = (inputSchema: unknown): string | undefined => {
  const seen = new Map<string, string>()
  const visit = (node: unknown, path: ReadonlyArray<string>, reachable: boolean): string | undefined => {
    if (node === null || typeof node !== "object") return undefined
    const schema = node as Record<string, unknown>
    if (KEY in schema) {
      if (!reachable || path.length === 0) {
        return `${where(path)}: x-mcp-header is only allowed on properties reached through "properties" alone`
      }
      const name = schema[KEY]
      if (typeof name !== "string" || name.length === 0) return `${where(path)}: x-mcp-header must be a non-empty string`
      if (!TOKEN.test(name)) return `${where(path)}: x-mcp-header ${JSON.stringify(name)} is not an HTTP header token`
      const type = typeof schema.type === "string" ? schema.type : undefined
      if (type === undefined || !PERMITTED_TYPES.has(type)) {
        return `${where(path)}: x-mcp-header is only allowed on string, integer or boolean properties (not ${type ?? "untyped"})`
      }
      const prior = seen.get(name.toLowerCase())
      if (prior !== undefined) return `x-mcp-header ${JSON.stringify(name)} is declared twice (also as ${JSON.stringify(prior)})`
      seen.set(name.toLowerCase(), name)
    }
    const properties = schema.properties
    if (properties !== null && typeof properties === "object" && !Array.isArray(properties)) {
      for (const [key, child] of Object.entries(properties)) {
        const fault = visit(child, [...path, key], reachable)
        if (fault !== undefined) return fault
      }
    }
    for (const keyword of UNREACHABLE) {
      const sub = schema[keyword]
      if (sub === undefined) continue
      const branches = Array.isArray(sub)
        ? sub
        : BY_NAME.has(keyword) && sub !== null && typeof sub === "object"
        ? Object.values(sub)
        : [sub]
      for (const branch of branches) {
        const fault = visit(branch, [...path, `<${keyword}>`], false)
        if (fault !== undefined) return fault
      }
    }
    return undefined
  }
  return visit(inputSchema, [], true)
}
