/**
 * Relaying a server's questions to the client of a gateway (`serve`), for a request the gateway
 * forwards (leaf module: types and pure functions). In the 2026-07-28 era a server asks by
 * answering `tools/call`, `prompts/get` or `resources/read` with an `input_required` result; a
 * relayed request hands that result back to the caller instead of answering it here, and the
 * caller's retry carries the answers (`inputResponses`) and the server's `requestState`, which is
 * sent on byte for byte. The server learns what the gateway's client can answer from the
 * capabilities sent with the request.
 */
import type { ClientCapabilities } from "@modelcontextprotocol/client"
import type { Era } from "./EraCache.js"

/** The `_meta` key of the per-request client capabilities (2026-07-28 envelope). */
export const CLIENT_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"

/** What a relayed request carries from the gateway's client. */
export interface InputRelay {
  /** The answers of the previous round, as the client sent them. */
  readonly inputResponses?: Readonly<Record<string, unknown>> | undefined
  /** The server's state of the previous round, exactly as it sent it. */
  readonly requestState?: string | undefined
  /** What the client can answer (elicitation, sampling, roots), sent to the server as ours. */
  readonly capabilities: ClientCapabilities
}

/** The ways of answering a server's question: what a relay is about. */
const ANSWERING = ["elicitation", "sampling", "roots"] as const

/**
 * The relay for a request of a client with these capabilities, or `undefined` when the client
 * declared no way of answering: then the host answers itself (its Elicitation policy), as for any
 * request of its own (pure).
 */
export const relayFor = (
  capabilities: ClientCapabilities | undefined,
  round: { readonly inputResponses?: Readonly<Record<string, unknown>> | undefined; readonly requestState?: string | undefined } = {}
): InputRelay | undefined => {
  const answering = Object.fromEntries(ANSWERING.filter((k) => capabilities?.[k] !== undefined).map((k) => [k, capabilities![k]]))
  if (Object.keys(answering).length === 0) return undefined
  return {
    capabilities: answering as ClientCapabilities,
    ...(round.inputResponses !== undefined ? { inputResponses: round.inputResponses } : {}),
    ...(round.requestState !== undefined ? { requestState: round.requestState } : {})
  }
}

/**
 * The params a relayed request adds to its own: the previous round's answers and state, and (in
 * the modern era, where every request carries them) the client's capabilities (pure).
 */
export const relayParams = (era: Era, relay: InputRelay | undefined, extensions?: object | undefined): Record<string, unknown> => {
  if (relay === undefined) return {}
  // The envelope replaces the connection's own capabilities: its extensions (tasks) are kept.
  const capabilities = extensions === undefined ? relay.capabilities : { ...relay.capabilities, extensions }
  return {
    ...(relay.inputResponses !== undefined ? { inputResponses: relay.inputResponses } : {}),
    ...(relay.requestState !== undefined ? { requestState: relay.requestState } : {}),
    ...(era === "modern" ? { _meta: { [CLIENT_CAPABILITIES_KEY]: capabilities } } : {})
  }
}

/** Whether a result is a server's `input_required` answer (pure). */
export const isInputRequired = (result: unknown): boolean =>
  result !== null && typeof result === "object" && (result as { readonly resultType?: unknown }).resultType === "input_required"
