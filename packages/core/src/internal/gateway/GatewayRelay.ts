/**
 * What `serve` passes between its client and the servers behind it, besides the request itself:
 * the client's ways of answering a server's questions (pool/InputRelay.ts), and results cleaned of
 * what belongs to the server's own connection (its serverInfo, its resultType) so that the
 * gateway speaks for itself in either era.
 */
import type { ClientCapabilities, ElicitResult } from "@modelcontextprotocol/server"
import type { Asker } from "../../elicitation/Elicitation.js"
import { CLIENT_CAPABILITIES_KEY, type InputRelay, relayFor } from "../pool/InputRelay.js"

/** The `_meta` key under which a 2026-07-28 result names the server that sent it. */
const SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo"

/** What a request handler's context tells about the round and the client (the SDK's `ctx.mcpReq`). */
export interface RoundContext {
  readonly envelope?: object | undefined
  readonly inputResponses?: Record<string, unknown> | undefined
  readonly requestState: () => unknown
  /** Sends our client an `elicitation/create` related to this request (2025 era only). */
  readonly elicitInput: (params: never) => Promise<ElicitResult>
}

/**
 * How a 2025-era server's `elicitation/create` during this request reaches our client: only a
 * 2025-era client (a 2026-07-28 one takes no requests) that declared elicitation, and in the mode
 * it declared (an empty `elicitation` means form).
 */
export const askerOf = (req: RoundContext, declared: ClientCapabilities | undefined): Asker | undefined => {
  const modern = (req.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_KEY] !== undefined
  const elicitation = declared?.elicitation as { form?: object; url?: object } | undefined
  if (modern || elicitation === undefined) return undefined
  const modes = elicitation.form === undefined && elicitation.url === undefined ? ["form"] : Object.keys(elicitation)
  return (params) =>
    modes.includes(params.mode ?? "form")
      ? req.elicitInput(params as never)
      : Promise.resolve({ action: "decline" })
}

/**
 * The relay for one request of our client: its capabilities from the request's envelope (2026-07-28)
 * or from its `initialize` (`declared`, 2025 era), and this round's answers and state. `undefined`
 * when the client can answer nothing: the host answers itself.
 */
export const relayOf = (req: RoundContext, declared: ClientCapabilities | undefined): InputRelay | undefined => {
  const fromEnvelope = (req.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_KEY] as ClientCapabilities | undefined
  const state = req.requestState()
  return relayFor(fromEnvelope ?? declared, {
    inputResponses: req.inputResponses,
    requestState: typeof state === "string" ? state : undefined
  })
}

/**
 * A server's result as the gateway sends it on: without the server's serverInfo in `_meta` (the
 * SDK adds the gateway's own in the modern era) and without `resultType: "complete"` (the
 * default, which a 2025-era client does not know); everything else — `_meta`, content, icons —
 * untouched (pure).
 */
export const asOurs = <A extends object>(result: A): A => {
  const { _meta, resultType, ...rest } = result as A & { _meta?: Record<string, unknown>; resultType?: unknown }
  const out: Record<string, unknown> = { ...rest }
  if (resultType !== undefined && resultType !== "complete") out.resultType = resultType
  if (_meta !== undefined && _meta !== null && typeof _meta === "object") {
    const { [SERVER_INFO_KEY]: _theirs, ...meta } = _meta
    if (Object.keys(meta).length > 0) out._meta = meta
  }
  return out as A
}

/** What serve's client is told of a refused call of `name`: advice that fits serve (pure). */
export const refusalMessage = (
  name: string,
  error: {
    readonly _tag: string
    readonly message: string
    readonly behavior?: string
    readonly rule?: string
    readonly askRule?: string | undefined
  },
  localSettings: string
): string => {
  // Resolving failed: unknown, or hidden by includeTools/excludeTools. Only that it is not
  // offered: which pattern hid it, in which file, is not the client's business.
  if (error._tag === "UsageError") return `${name} is not offered by this server.`
  if (error._tag === "PermissionDenied" && error.behavior === "ask") {
    // Nobody can be asked: serve has no terminal, its stdin may be the MCP stream. Under an ask
    // rule an allow rule would not help (ask beats allow).
    return error.askRule === undefined
      ? `${name} needs approval, and mcpctl serve cannot ask anyone: start serve with --yes, ` +
        `or add "${error.rule ?? name}" to permissions.allow in ${localSettings}`
      : `${name} needs approval (an ask rule "${error.askRule}" asks for it), and mcpctl serve cannot ask anyone: ` +
        "start serve with --yes, or remove that ask rule"
  }
  return error.message
}
