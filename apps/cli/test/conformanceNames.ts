/**
 * The server suite calls the tools and prompts it expects by the reference server's own names;
 * serve lists them as its own (`mcp__<server>__<tool>`, `<server>__<prompt>`). So that the suite
 * can judge serve's own names too, the harness's proxy (conformanceServe.ts) maps between the two
 * (plain functions here): on the way in, a request's name gets the prefix (and so does the
 * `Mcp-Name` header that repeats it); on the way out, the listings lose it. Nothing else is
 * touched, so what the suite judges is what serve answered.
 */
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from "node:http"

/** The prefixes of one server's names as serve lists them. */
export interface Prefixes {
  readonly tool: string
  readonly prompt: string
}

/** `mcp__<server>__` for tools, `<server>__` for prompts (as serve names them). */
export const prefixesOf = (server: string): Prefixes => ({ tool: `mcp__${server}__`, prompt: `${server}__` })

type Message = Record<string, unknown>
type Id = string | number

const isObject = (v: unknown): v is Message => v !== null && typeof v === "object" && !Array.isArray(v)

/** A request's name as serve knows it, when the method names a tool or a prompt (pure). */
const renamed = (message: Message, p: Prefixes): { readonly from: string; readonly to: string; readonly message: Message } | undefined => {
  const params = message.params
  if (!isObject(params)) return undefined
  if ((message.method === "tools/call" || message.method === "prompts/get") && typeof params.name === "string") {
    const to = (message.method === "tools/call" ? p.tool : p.prompt) + params.name
    return { from: params.name, to, message: { ...message, params: { ...params, name: to } } }
  }
  const ref = params.ref
  if (message.method === "completion/complete" && isObject(ref) && ref.type === "ref/prompt" && typeof ref.name === "string") {
    const to = p.prompt + ref.name
    return { from: ref.name, to, message: { ...message, params: { ...params, ref: { ...ref, name: to } } } }
  }
  return undefined
}

/** What mapping a request body gives: the body for serve, the listings to map back by id, the header's rename. */
export interface MappedRequest {
  readonly body: unknown
  /** Ids of the body's `tools/list` and `prompts/list` requests, with their method. */
  readonly listings: ReadonlyMap<Id, "tools/list" | "prompts/list">
  /** The name the one request of the body carries, and serve's (for `Mcp-Name`). */
  readonly rename: { readonly from: string; readonly to: string } | undefined
}

/** A JSON-RPC body (one message or a batch) as serve should get it (pure). */
export const requestToServe = (body: unknown, p: Prefixes): MappedRequest => {
  const listings = new Map<Id, "tools/list" | "prompts/list">()
  let rename: MappedRequest["rename"]
  const one = (m: unknown): unknown => {
    if (!isObject(m)) return m
    if ((m.method === "tools/list" || m.method === "prompts/list") && (typeof m.id === "string" || typeof m.id === "number")) {
      listings.set(m.id, m.method)
    }
    const r = renamed(m, p)
    if (r === undefined) return m
    rename = { from: r.from, to: r.to }
    return r.message
  }
  const mapped = Array.isArray(body) ? body.map(one) : one(body)
  return { body: mapped, listings, rename: Array.isArray(body) ? undefined : rename }
}

/**
 * The `Mcp-Name` header for serve (pure): renamed when it repeats the body's name (around its
 * whitespace, which the suite sends on purpose), else as sent, so a mismatch stays a mismatch.
 */
export const nameHeaderToServe = (header: string | undefined, rename: MappedRequest["rename"]): string | undefined =>
  header !== undefined && rename !== undefined && header.trim() === rename.from ? header.replace(rename.from, rename.to) : header

const strip = (name: unknown, prefix: string): unknown =>
  typeof name === "string" && name.startsWith(prefix) ? name.slice(prefix.length) : name

/** One message of serve's answer as the suite should see it: a listing's names without the prefix (pure). */
export const answerFromServe = (message: unknown, listings: MappedRequest["listings"], p: Prefixes): unknown => {
  if (Array.isArray(message)) {
    const mapped = message.map((m) => answerFromServe(m, listings, p))
    return mapped.every((m, i) => m === message[i]) ? message : mapped
  }
  if (!isObject(message) || !isObject(message.result) || (typeof message.id !== "string" && typeof message.id !== "number")) return message
  const method = listings.get(message.id)
  const key = method === "tools/list" ? "tools" : method === "prompts/list" ? "prompts" : undefined
  const list = key === undefined ? undefined : message.result[key]
  if (key === undefined || !Array.isArray(list)) return message
  const prefix = key === "tools" ? p.tool : p.prompt
  return { ...message, result: { ...message.result, [key]: list.map((e) => (isObject(e) ? { ...e, name: strip(e.name, prefix) } : e)) } }
}

/**
 * The headers of a request or an answer whose body the proxy mapped (pure): its framing is the
 * proxy's, since the body changed length. `length` for a whole body, none for a stream (Node
 * frames it); serve's own `transfer-encoding: chunked` beside a `content-length` would make fetch
 * (undici) refuse an answer.
 */
export const mappedBodyHeaders = (headers: IncomingHttpHeaders, length?: number): OutgoingHttpHeaders => {
  const { "content-length": _length, "transfer-encoding": _encoding, ...rest } = headers
  return length === undefined ? rest : { ...rest, "content-length": String(length) }
}

/** A JSON text mapped by `f`; byte for byte the same when `f` changed nothing or it is not JSON (pure). */
export const mapJsonText = (text: string, f: (message: unknown) => unknown): string => {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return text
  }
  const mapped = f(parsed)
  return mapped === parsed ? text : JSON.stringify(mapped)
}

/**
 * An event stream's lines mapped as they come: `data:` lines are JSON-RPC messages (the SDK
 * writes each on one line). `push` takes a chunk and gives what can be sent on; `end`, the rest.
 */
export const sseMapper = (f: (message: unknown) => unknown) => {
  let pending = ""
  const line = (l: string) => {
    if (!l.startsWith("data:")) return l
    const text = l.slice(5)
    const mapped = mapJsonText(text, f)
    return mapped === text ? l : `data: ${mapped}`
  }
  return {
    push: (chunk: string): string => {
      const lines = (pending + chunk).split("\n")
      pending = lines.pop()!
      return lines.map((l) => line(l) + "\n").join("")
    },
    end: (): string => {
      const rest = pending
      pending = ""
      return rest === "" ? "" : line(rest)
    }
  }
}
