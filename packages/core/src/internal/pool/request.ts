/**
 * The pool's Promise boundary: one request to a server as one async step. A failure is
 * classified (RequestErrors), counted against the connection it ran on and, when the policy
 * allows (Resilience.mayResend), sent once more on the connection the pool hands out next.
 * There is no interrupt handler here on purpose: interruption stops the waiting only, and the
 * caller's `signal` is what cancels on the server (the contract is written on
 * `ConnectionPool.run`).
 */
import * as Effect from "effect/Effect"
import type { ServerUnavailable } from "../../Errors.js"
import { classifyRequestFailure, type RequestError } from "../../pool/RequestErrors.js"
import { mayResend, type Outcome } from "../../pool/Resilience.js"

/** What a request needs from the pool. */
export interface RequestPool<C> {
  /** The pool's one acquire path: runs `use` with a connection of `server`. */
  readonly withConnection: <A, E>(
    server: string,
    use: (connection: C) => Effect.Effect<A, E>
  ) => Effect.Effect<A, E | ServerUnavailable>
  /** Counts a failed request against its connection; succeeds with true when the connection is gone. */
  readonly settle: (connection: C, outcome: Outcome) => Effect.Effect<boolean>
  /** Told before a request is sent again (for the debug log). */
  readonly resending: (server: string, method: string, error: RequestError) => Effect.Effect<void>
}

/** Sends `request` on a connection of `server`, resending it once when the policy allows. */
export const sendRequest = <C, A>(
  pool: RequestPool<C>,
  server: string,
  method: string,
  request: (connection: C, signal: AbortSignal | undefined) => Promise<A>,
  options: { readonly idempotent: boolean; readonly signal: AbortSignal | undefined }
): Effect.Effect<A, ServerUnavailable | RequestError> => {
  const { idempotent, signal } = options
  // The success path is one async step: failures are classified, counted and maybe resent
  // inside it, because every extra combinator shows in the per-call cost (bench/).
  const attempt = (connection: C, resent: boolean): Effect.Effect<A, RequestError | ServerUnavailable> =>
    Effect.async((resume) => {
      const failed = (cause: unknown) => {
        const { error, terminal } = classifyRequestFailure(server, method, cause, { idempotent })
        // No settle on success: the answer may have come from a cached list; real answers
        // reset the count as they arrive (the pool watches every message).
        resume(Effect.flatMap(pool.settle(connection, { _tag: "Failed", error, terminal }), (dropped) =>
          !resent && mayResend(error, { idempotent, dropped })
            ? Effect.zipRight(pool.resending(server, method, error), once(true))
            : Effect.fail(error)))
      }
      try {
        request(connection, signal).then((value) => resume(Effect.succeed(value)), failed)
      } catch (cause) {
        failed(cause)
      }
    })
  const once = (resent: boolean) => pool.withConnection(server, (connection: C) => attempt(connection, resent))
  return once(false)
}
