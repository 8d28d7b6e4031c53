/**
 * Which 2025-era POSTs `serve --http` answers as plain JSON from a server of that one request,
 * instead of on the session's event stream. An event stream sends its `200` headers at once and
 * the answer later: a replica that dies in between leaves a truncated stream the balancer cannot
 * retry and the client cannot tell from a slow answer. A plain JSON answer is sent whole or not
 * at all (the balancer sees a connection error and answers 502, which the client may retry).
 *
 * Plain JSON is used where nothing but the answer is sent back: one request (no batch) of a
 * method that needs nothing of the session, without a progress token, from a client that cannot
 * be asked anything mid-call and has not asked for log lines.
 */

/** Methods whose answer needs nothing a session holds (its level, its subscriptions). */
const ONE_REQUEST_METHODS = new Set([
  "ping",
  "tools/list",
  "tools/call",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "prompts/list",
  "prompts/get",
  "completion/complete"
])

interface Message {
  readonly id?: unknown
  readonly method?: unknown
  readonly params?: { readonly _meta?: { readonly progressToken?: unknown } | undefined } | undefined
}

/**
 * Whether `body` is one request that a server of its own can answer as plain JSON (pure): a
 * single request of a method in `ONE_REQUEST_METHODS`, with no progress token (progress needs
 * the stream).
 */
export const answersPlainly = (body: unknown): boolean => {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return false
  const m = body as Message
  if (typeof m.method !== "string" || !ONE_REQUEST_METHODS.has(m.method)) return false
  if (typeof m.id !== "string" && typeof m.id !== "number") return false
  return m.params?._meta?.progressToken === undefined
}

/**
 * Whether a session's client must be answered on the session's own stream (pure): from its
 * `initialize`, a client that can be asked mid-call (elicitation, sampling, roots) — a server's
 * question relayed to it travels on the stream of the call.
 */
export const asksMidCall = (initialize: unknown): boolean => {
  const caps = (initialize as { params?: { capabilities?: Record<string, unknown> } } | null)?.params?.capabilities
  if (caps === undefined || caps === null || typeof caps !== "object") return false
  return ["elicitation", "sampling", "roots"].some((c) => caps[c] !== undefined && caps[c] !== null)
}

/** Whether a message makes the session's answers stream from now on: a log level asked for (pure). */
export const asksForLogs = (body: unknown): boolean =>
  (Array.isArray(body) ? body : [body]).some((m) => (m as Message | null)?.method === "logging/setLevel")

/** The request a `notifications/cancelled` names, if `body` is one (pure). */
export const cancelledRequest = (body: unknown): string | number | undefined => {
  const m = body as { method?: unknown; params?: { requestId?: unknown } } | null
  if (m === null || typeof m !== "object" || Array.isArray(m) || m.method !== "notifications/cancelled") return undefined
  const id = m.params?.requestId
  return typeof id === "string" || typeof id === "number" ? id : undefined
}
