/**
 * One size limit for every message a server sends, on every transport (default 32 MiB,
 * `MCPCTL_MAX_RESPONSE_BYTES`), enforced while reading: nothing past the limit is kept, and the
 * request the message answered fails at once with a message that names the size and the limit
 * (a JSON-RPC error for its id, so the SDK fails exactly that request). Stdio counts the bytes of
 * a line, Streamable HTTP and SSE the bytes of a JSON body or of one event (a stream may carry any
 * number of events), WebSocket the bytes of a message (`ws`'s `maxPayload`).
 *
 * The id of a message that was dropped is found by {@link IdScanner}, which reads the bytes once,
 * keeps none of them, and knows only enough JSON to find the top-level `"id"`. Beside the size,
 * the one other thing transports check of a message: its shape ({@link isMessageShape}).
 */
// @ts-nocheck

import type { JSONRPCMessage, FetchLike } from "@modelcontextprotocol/client"

/** The default limit: 32 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024

/** The JSON-RPC error code of an answer dropped for its size (a code of the implementation range). */
export const MESSAGE_TOO_LARGE = -32070

/** The variable that sets the limit (CLI.md, Environment). */
export const LIMIT_VARIABLE = "MCPCTL_MAX_RESPONSE_BYTES"

const fmt = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",")
const mib = (n: number): string => `${(n / 1024 / 1024).toFixed(n % (1024 * 1024) === 0 ? 0 : 1)} MiB`

/**
 * The one message for a dropped answer. `size` is the whole size when the message ended, else
 * what had arrived when it was dropped ("more than").
 */
export const tooLargeText = (server: string, size: number, limit: number, complete: boolean): string =>
  `server "${server}" sent a message of ${complete ? "" : "more than "}${fmt(size)} bytes (${mib(size)}), over the ` +
  `limit of ${fmt(limit)} bytes (${mib(limit)}); it was dropped. Raise ${LIMIT_VARIABLE} to accept larger answers.`

/** A JSON-RPC error answering `id` with the reason its real answer was dropped. */
export const tooLargeAnswer = (id: string | number, text: string): JSONRPCMessage => ({
  jsonrpc: "2.0",
  id,
  error: { code: MESSAGE_TOO_LARGE, message: text }
})

/** What a body read fails with once it passes the limit (`fetch` callers see it as the cause). */
export class MessageTooLargeError extends Error {
  override readonly name = "MessageTooLargeError"
  constructor(readonly server: string, readonly size: number, readonly limit: number, readonly complete: boolean) {
    super(tooLargeText(server, size, limit, complete))
  }
}

/**
 * A JSON-RPC message as far as a transport needs to know: an object of version 2.0 with a method
 * or an id. The SDK checks every message against its schemas once more; a full union parse here
 * too cost more than everything else per message in a notification flood.
 */
export const isMessageShape = (value: unknown): value is JSONRPCMessage => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false
  const m = value as { jsonrpc?: unknown; method?: unknown; id?: unknown }
  return m.jsonrpc === "2.0" && (typeof m.method === "string" || typeof m.id === "string" || typeof m.id === "number")
}

// ---------------------------------------------------------------------------------------------
// Finding the id of a message without keeping it
// ---------------------------------------------------------------------------------------------

const QUOTE = 0x22, BACKSLASH = 0x5c, OPEN_BRACE = 0x7b, CLOSE_BRACE = 0x7d, OPEN_BRACKET = 0x5b, CLOSE_BRACKET = 0x5d
const COMMA = 0x2c, COLON = 0x3a

/**
 * Reads a JSON object's bytes in pieces and finds its top-level `"id"` (a number or a string of
 * at most 256 characters), whatever comes before it; constant memory, linear time. Bytes before
 * the first `{` are skipped, so an SSE event's `data: ` prefix does no harm.
 */
export class IdScanner {
  /** The id once found; undefined while not (yet) found. */
  id: string | number | undefined
  /** A top-level "result" or "error" key was seen: the message is an answer, not a notification. */
  isAnswer = false
  private depth = 0
  private inString = false
  private escaped = false
  /** At depth 1: the next string is a key. */
  private expectKey = false
  private key: Array<number> | undefined
  private keyTooLong = false
  /** The last key at depth 1 was "id" and its value has not started. */
  private idNext = false
  private value: Array<number> | undefined
  private valueIsString = false
  private done = false

  /** Whether scanning can stop: the id was found, or the top-level object ended without one. */
  get finished(): boolean {
    return this.done
  }

  feed(bytes: Uint8Array, start = 0, end = bytes.length): void {
    for (let i = start; i < end && !this.done; i++) {
      const b = bytes[i]!
      if (this.value !== undefined) {
        this.valueByte(b)
        continue
      }
      if (this.inString) {
        if (this.escaped) this.escaped = false
        else if (b === BACKSLASH) this.escaped = true
        else if (b === QUOTE) {
          this.inString = false
          if (this.key !== undefined) {
            const key = this.keyTooLong ? "" : String.fromCharCode(...this.key)
            this.idNext = key === "id"
            if (key === "result" || key === "error") this.isAnswer = true
            this.key = undefined
          }
        } else if (this.key !== undefined) {
          if (this.key.length < 6) this.key.push(b)
          else this.keyTooLong = true
        }
        continue
      }
      if (b === QUOTE) {
        this.inString = true
        if (this.depth === 1 && this.idNext) {
          this.value = []
          this.valueIsString = true
          this.inString = false
        } else if (this.depth === 1 && this.expectKey) {
          this.key = []
          this.keyTooLong = false
          this.expectKey = false
        }
        continue
      }
      if (b === OPEN_BRACE || b === OPEN_BRACKET) {
        this.depth++
        if (this.depth === 1) this.expectKey = b === OPEN_BRACE
        this.idNext = false
      } else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
        this.depth--
        if (this.depth === 0) this.done = true
      } else if (this.depth === 1 && b === COMMA) {
        this.expectKey = true
        this.idNext = false
      } else if (this.depth === 1 && this.idNext && b !== COLON && b > 0x20) {
        this.value = [b]
        this.valueIsString = false
      }
    }
  }

  private valueByte(b: number): void {
    const value = this.value!
    if (this.valueIsString) {
      if (this.escaped) {
        this.escaped = false
        value.push(b)
      } else if (b === BACKSLASH) {
        this.escaped = true
        value.push(b)
      } else if (b === QUOTE) {
        this.finishValue(`"${Buffer.from(value).toString("utf8")}"`)
      } else if (value.length > 256) this.abandonValue()
      else value.push(b)
      return
    }
    if (b === COMMA || b === CLOSE_BRACE || b <= 0x20) {
      this.finishValue(Buffer.from(value).toString("utf8"))
      if (b === CLOSE_BRACE) this.done = true
    } else if (value.length > 32) this.abandonValue()
    else value.push(b)
  }

  private finishValue(text: string): void {
    this.value = undefined
    this.idNext = false
    try {
      const id: unknown = JSON.parse(text)
      if (typeof id === "string" || (typeof id === "number" && Number.isFinite(id))) {
        this.id = id
        this.done = true
      }
    } catch {
      // not an id a response could carry: keep looking (a later duplicate key would win anyway)
    }
  }

  private abandonValue(): void {
    // An id this long answers no request of ours; skip the rest of the string as an ordinary one.
    this.inString = this.valueIsString
    this.value = undefined
    this.idNext = false
  }
}

// ---------------------------------------------------------------------------------------------
// Requests in flight, to blame when a dropped message carried no id we could read
// ---------------------------------------------------------------------------------------------

/** The ids of the requests sent and not yet answered on one connection. */
export class InFlight {
  private readonly ids = new Set<string | number>()

  sent(message: JSONRPCMessage): void {
    const m = message as { id?: unknown; method?: unknown }
    if (typeof m.method === "string" && (typeof m.id === "string" || typeof m.id === "number")) this.ids.add(m.id)
  }

  received(message: unknown): void {
    const m = message as { id?: unknown; method?: unknown } | null
    if (m !== null && typeof m === "object" && m.method === undefined && (typeof m.id === "string" || typeof m.id === "number")) {
      this.ids.delete(m.id)
    }
  }

  /** The ids waiting for an answer. */
  pending(): ReadonlyArray<string | number> {
    return [...this.ids]
  }
}

/**
 * Who a dropped message answered: the id it carried if it was read, else, when it is an answer
 * (a "result" or "error" was seen), the only request in flight (the common case of one call);
 * otherwise nobody can be blamed yet (the caller keeps scanning).
 */
export const blame = (scanner: IdScanner, inFlight: ReadonlyArray<string | number>): ReadonlyArray<string | number> =>
  scanner.id !== undefined ? [scanner.id] : scanner.isAnswer && inFlight.length === 1 ? inFlight : []

// ---------------------------------------------------------------------------------------------
// HTTP bodies: JSON as a whole, event streams per event
// ---------------------------------------------------------------------------------------------

const mediaType = (response: Response): string =>
  (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase()

/** The request ids of a JSON-RPC POST body (parsed only when an answer to it was dropped). */
const requestIds = (body: unknown): ReadonlyArray<string | number> => {
  if (typeof body !== "string") return []
  try {
    const parsed: unknown = JSON.parse(body)
    return (Array.isArray(parsed) ? parsed : [parsed]).flatMap((m: { id?: unknown; method?: unknown }) =>
      typeof m?.method === "string" && (typeof m.id === "string" || typeof m.id === "number") ? [m.id] : []
    )
  } catch {
    return []
  }
}

const rebuilt = (response: Response, body: ReadableStream<Uint8Array>): Response =>
  new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers })

const isIdentity = (encoding: string | null): boolean => encoding === null || /^\s*(identity)?\s*$/i.test(encoding)

/** A JSON body that fails with {@link MessageTooLargeError} once it passes `limit` bytes. */
const limitJson = (response: Response, server: string, limit: number): Response => {
  const length = response.headers.get("content-length")
  const declared = length === null ? NaN : Number(length)
  if (Number.isFinite(declared) && declared > limit) {
    void response.body?.cancel().catch(() => undefined)
    throw new MessageTooLargeError(server, declared, limit, true)
  }
  // A declared length within the limit bounds the body already (fetch reads no more than the
  // length says), unless fetch decodes it: a gzip/br/deflate body can grow far past its length.
  // Then the body is passed on as it is, without a counting stream (per request, that stream and
  // the rebuilt Response were most of what this module cost a call, bench/).
  if (Number.isFinite(declared) && isIdentity(response.headers.get("content-encoding"))) return response
  let seen = 0
  return rebuilt(response, response.body!.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      seen += chunk.byteLength
      if (seen > limit) controller.error(new MessageTooLargeError(server, seen, limit, false))
      else controller.enqueue(chunk)
    }
  })))
}

const encoder = new TextEncoder()
const LF = 0x0a, CR = 0x0d

/**
 * An event stream whose events are forwarded whole and only while they fit: an event past
 * `limit` is dropped, and an error event answers its request instead (the id read from the
 * dropped bytes, else the POST's own request). A POST's stream ends once its requests are
 * answered that way; a long-lived GET stream goes on with the next event.
 */
const limitEvents = (
  response: Response,
  server: string,
  limit: number,
  postIds: () => ReadonlyArray<string | number>
): Response => {
  /** The current event's bytes while it fits (copies: a stream may reuse a chunk's memory). */
  let parts: Array<Uint8Array> = []
  let size = 0
  /** Set once the current event passed the limit: its bytes are only scanned for the id. */
  let dropping: IdScanner | undefined
  let blamed = false
  /** The previous byte ended a line (LF, or CR not followed by LF yet). */
  let lineEnded = true
  let lastCr = false
  type Controller = TransformStreamDefaultController<Uint8Array>

  /** Answers `ids` with the error; true when the stream is done (a POST's requests all answered). */
  const answer = (controller: Controller, ids: ReadonlyArray<string | number>, complete: boolean): boolean => {
    for (const id of ids) {
      const text = JSON.stringify(tooLargeAnswer(id, tooLargeText(server, size, limit, complete)))
      controller.enqueue(encoder.encode(`event: message\ndata: ${text}\n\n`))
    }
    blamed = ids.length > 0
    if (blamed && postIds().length > 0) {
      controller.terminate()
      return true
    }
    return false
  }

  /** Adds bytes to the current event; true when the stream is done. */
  const add = (controller: Controller, chunk: Uint8Array, from: number, to: number, ending: boolean): boolean => {
    size += to - from
    if (dropping !== undefined) {
      if (!dropping.finished) dropping.feed(chunk, from, to)
      return false
    }
    if (size <= limit) {
      parts.push(chunk.slice(from, to))
      return false
    }
    dropping = new IdScanner()
    for (const p of parts) dropping.feed(p)
    dropping.feed(chunk, from, to)
    parts = []
    // At once when we know whom to tell; an event that ends here is answered with its full size.
    return ending ? false : answer(controller, blame(dropping, postIds()), false)
  }

  /** The event ends at `to`; true when the stream is done. */
  const end = (controller: Controller, chunk: Uint8Array, from: number, to: number): boolean => {
    if (add(controller, chunk, from, to, true)) return true
    let done = false
    if (dropping === undefined) for (const p of parts) controller.enqueue(p)
    else if (!blamed) done = answer(controller, dropping.id !== undefined ? [dropping.id] : dropping.isAnswer ? postIds() : [], true)
    parts = []
    size = 0
    dropping = undefined
    blamed = false
    return done
  }

  return rebuilt(response, response.body!.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      let from = 0
      for (let i = 0; i < chunk.length; i++) {
        const b = chunk[i]!
        let boundary = false
        if (b === LF) {
          if (lastCr) lastCr = false
          else {
            boundary = lineEnded
            lineEnded = true
          }
        } else if (b === CR) {
          boundary = lineEnded
          lineEnded = true
          lastCr = true
        } else {
          lineEnded = false
          lastCr = false
        }
        if (!boundary) continue
        if (end(controller, chunk, from, i + 1)) return
        from = i + 1
      }
      if (from < chunk.length) add(controller, chunk, from, chunk.length, false)
    },
    flush(controller) {
      if (dropping !== undefined && !blamed) answer(controller, dropping.id !== undefined ? [dropping.id] : dropping.isAnswer ? postIds() : [], false)
      else for (const p of parts) controller.enqueue(p)
    }
  })))
}

/**
 * A `fetch` whose response bodies are held to `limit`: JSON bodies as a whole (a declared
 * `Content-Length` over it fails before reading), event streams per event.
 */
export const fetchWithLimit = (server: string, limit: number, baseFetch: FetchLike): FetchLike => async (input, init) => {
  const response = await baseFetch(input, init)
  if (response.body === null) return response
  const type = mediaType(response)
  if (type === "text/event-stream") {
    let ids: ReadonlyArray<string | number> | undefined
    return limitEvents(response, server, limit, () => (ids ??= requestIds(init?.body)))
  }
  return limitJson(response, server, limit)
}
