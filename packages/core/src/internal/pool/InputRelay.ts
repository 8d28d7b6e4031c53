/**
 * Relaying a server's questions to the client of a gateway (`serve`), for a request the gateway
 * forwards (leaf module: types and pure functions). In the 2026-07-28 era a server asks by
 * answering `tools/call`, `prompts/get` or `resources/read` with an `input_required` result; a
 * relayed request hands that result back to the caller instead of answering it here, and the
 * caller's retry carries the answers (`inputResponses`) and the server's `requestState`, which is
 * sent on byte for byte. The server learns what the gateway's client can answer, and whether it
 * can take a task, from the capabilities sent with the request.
 */
import type { ClientCapabilities } from "@modelcontextprotocol/client"
import type { Era } from "./EraCache.js"
import { TASKS_EXTENSION } from "./hostClient.js"

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
 * The client capabilities one forwarded request declares in its 2026-07-28 envelope (pure): the
 * connection's own (`declared`, what the pool told the server), with the gateway client's ways of
 * answering in place of the host's when it relays, and the tasks extension as that client
 * negotiated it (`tasks`) rather than as the pool did: a server must see that the client cannot
 * take a task (it answers -32021 for a tool that needs one). `undefined`: nothing of the request's
 * own, the SDK sends the connection's.
 */
export const requestCapabilities = (
  declared: ClientCapabilities,
  relay: InputRelay | undefined,
  tasks: boolean | undefined
): ClientCapabilities | undefined => {
  if (relay === undefined && tasks === undefined) return undefined
  const { [TASKS_EXTENSION]: _pool, ...others } = declared.extensions ?? {}
  const extensions: ClientCapabilities["extensions"] = tasks === undefined ? declared.extensions : tasks ? { ...others, [TASKS_EXTENSION]: {} } : others
  const base: ClientCapabilities = relay === undefined ? declared : { ...withoutAnswering(declared), ...relay.capabilities }
  const { extensions: _declared, ...rest } = base
  return extensions === undefined || Object.keys(extensions).length === 0 ? rest : { ...rest, extensions }
}

/** Capabilities without the ways of answering: a relayed request declares its client's instead. */
const withoutAnswering = (capabilities: ClientCapabilities): ClientCapabilities =>
  Object.fromEntries(Object.entries(capabilities).filter(([k]) => !(ANSWERING as ReadonlyArray<string>).includes(k))) as ClientCapabilities

/**
 * The params a forwarded request adds to its own: the previous round's answers and state (a
 * relay), and in the modern era, where every request carries them, the request's capabilities
 * ({@link requestCapabilities}) (pure).
 */
export const relayParams = (era: Era, relay: InputRelay | undefined, capabilities: ClientCapabilities | undefined): Record<string, unknown> => ({
  ...(relay?.inputResponses !== undefined ? { inputResponses: relay.inputResponses } : {}),
  ...(relay?.requestState !== undefined ? { requestState: relay.requestState } : {}),
  ...(era === "modern" && capabilities !== undefined ? { _meta: { [CLIENT_CAPABILITIES_KEY]: capabilities } } : {})
})

/** Whether a result is a server's `input_required` answer (pure). */
export const isInputRequired = (result: unknown): boolean =>
  result !== null && typeof result === "object" && (result as { readonly resultType?: unknown }).resultType === "input_required"
