/**
 * The `Mcp-Param-*` headers of a 2026-07-28 `tools/call` (pure). A tool's `inputSchema` may mark
 * a primitive argument with `"x-mcp-header": "Name"`; a modern client then repeats that
 * argument's value in the header `Mcp-Param-Name` (as text, or `=?base64?…?=` for values a header
 * cannot carry), so that proxies can route on it without reading the body. A server must refuse a
 * call whose header and body disagree (`-32020`, HTTP 400): otherwise what was routed on and what
 * runs could differ. The SDK checks this only for tools registered on its `McpServer`; `serve`
 * forwards other servers' tools, so it checks here, against the tool's listed schema.
 */
// @ts-nocheck


/** One argument a tool wants repeated in a header. */
export interface HeaderParam {
  /** The argument's path in `arguments` (a chain of `properties`). */
  readonly path: ReadonlyArray<string>
  /** The header is `Mcp-Param-<name>`. */
  readonly name: string
  readonly type: string | undefined
}

/**
 * The header-bound arguments of a tool's input schema, found along `properties` chains only (the
 * one place the spec allows the annotation; tools with it elsewhere are dropped by the clients).
 */
export const headerParams = (schema: unknown): ReadonlyArray<HeaderParam> => {
  const found: Array<HeaderParam> = []
  const visit = (node: unknown, path: ReadonlyArray<string>) => {
    if (node === null || typeof node !== "object" || Array.isArray(node)) return
    const s = node as { readonly "x-mcp-header"?: unknown; readonly type?: unknown; readonly properties?: unknown }
    if (path.length > 0 && typeof s["x-mcp-header"] === "string" && s["x-mcp-header"] !== "") {
      found.push({ path, name: s["x-mcp-header"], type: typeof s.type === "string" ? s.type : undefined })
    }
    if (s.properties !== null && typeof s.properties === "object") {
      for (const [key, child] of Object.entries(s.properties)) visit(child, [...path, key])
    }
  }
  visit(schema, [])
  return found
}

const SENTINEL_START = "=?base64?"
const SENTINEL_END = "?="

/** A header's value as text: the `=?base64?…?=` form decoded (strict base64, UTF-8), else as sent. */
export const decodeHeaderValue = (value: string): string | undefined => {
  if (!value.startsWith(SENTINEL_START) || !value.endsWith(SENTINEL_END) || value.length < SENTINEL_START.length + SENTINEL_END.length) {
    return value
  }
  const payload = value.slice(SENTINEL_START.length, value.length - SENTINEL_END.length)
  const bytes = Buffer.from(payload, "base64")
  // Only canonical base64 (what encoding the bytes again gives back).
  if (bytes.toString("base64") !== payload) return undefined
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes)
  } catch {
    return undefined
  }
}

/** An argument as a header carries it: strings as they are, numbers in decimal, `true`/`false`. */
const asText = (value: unknown): string | undefined =>
  typeof value === "string"
    ? value
    : typeof value === "boolean"
    ? String(value)
    : typeof value === "number" && Number.isFinite(value)
    ? String(value)
    : undefined

const at = (root: unknown, path: ReadonlyArray<string>): unknown =>
  path.reduce<unknown>((node, key) => (node !== null && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined), root)

/**
 * Why a call's `Mcp-Param-*` headers disagree with its arguments, or `undefined` when they agree.
 * An argument that is absent or `null` needs no header; one that is present needs its header,
 * equal to it (numbers compared as numbers: `42.0` is `42`).
 */
export const paramHeaderMismatch = (
  params: ReadonlyArray<HeaderParam>,
  args: unknown,
  header: (name: string) => string | undefined
): string | undefined => {
  for (const param of params) {
    const value = at(args, param.path)
    const text = value === undefined || value === null ? undefined : asText(value)
    if (text === undefined) continue
    const name = `Mcp-Param-${param.name}`
    const sent = header(name)
    if (sent === undefined) return `${param.path.join(".")} is ${JSON.stringify(value)} but the ${name} header is missing`
    const decoded = decodeHeaderValue(sent)
    if (decoded === undefined) return `the ${name} header is not valid base64 UTF-8`
    const equal = typeof value === "number" && /^-?\d+(\.\d+)?$/.test(decoded) ? Number(decoded) === value : decoded === text
    if (!equal) return `the ${name} header says ${JSON.stringify(decoded)} but ${param.path.join(".")} is ${JSON.stringify(value)}`
  }
  return undefined
}
