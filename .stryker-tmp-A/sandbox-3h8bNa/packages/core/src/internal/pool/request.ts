/**
 * The pool's one Promise boundary: an SDK request as `Effect<A, RequestError>`. This is the only
 * `Effect.async` on the request path. Interruption aborts the request's signal here and nowhere
 * else (the SDK then sends `notifications/cancelled`), as `@effect/platform`'s HTTP client does;
 * a failure is classified here once (RequestErrors.ts). What happens next (counting the failure
 * against its connection, sending once more) is the pool's: `ConnectionPool.run`.
 */
// @ts-nocheck
function stryNS_9fa48() {
  var g = typeof globalThis === 'object' && globalThis && globalThis.Math === Math && globalThis || new Function("return this")();
  var ns = g.__stryker__ || (g.__stryker__ = {});
  if (ns.activeMutant === undefined && g.process && g.process.env && g.process.env.__STRYKER_ACTIVE_MUTANT__) {
    ns.activeMutant = g.process.env.__STRYKER_ACTIVE_MUTANT__;
  }
  function retrieveNS() {
    return ns;
  }
  stryNS_9fa48 = retrieveNS;
  return retrieveNS();
}
stryNS_9fa48();
function stryCov_9fa48() {
  var ns = stryNS_9fa48();
  var cov = ns.mutantCoverage || (ns.mutantCoverage = {
    static: {},
    perTest: {}
  });
  function cover() {
    var c = cov.static;
    if (ns.currentTestId) {
      c = cov.perTest[ns.currentTestId] = cov.perTest[ns.currentTestId] || {};
    }
    var a = arguments;
    for (var i = 0; i < a.length; i++) {
      c[a[i]] = (c[a[i]] || 0) + 1;
    }
  }
  stryCov_9fa48 = cover;
  cover.apply(null, arguments);
}
function stryMutAct_9fa48(id) {
  var ns = stryNS_9fa48();
  function isActive(id) {
    if (ns.activeMutant === id) {
      if (ns.hitCount !== void 0 && ++ns.hitCount > ns.hitLimit) {
        throw new Error('Stryker: Hit count limit reached (' + ns.hitCount + ')');
      }
      return true;
    }
    return false;
  }
  stryMutAct_9fa48 = isActive;
  return isActive(id);
}
import type { Client } from "@modelcontextprotocol/client";
import * as Effect from "effect/Effect";
import { classifyRequestFailure, type RequestError } from "./RequestErrors.js";
import { defaultTracer, traceMetaOf, withTraceMeta } from "../traceContext.js";

/** What the driver needs of a connection. */
export interface RequestTarget {
  readonly server: {
    readonly name: string;
  };
  readonly client: Client;
}

/** Options of one SDK request. */
export interface RequestOptions {
  /**
   * Sending it twice is harmless: only the message of a lost `tools/call` depends on it (the
   * pool decides the resend with the same flag). Default: true for all but `tools/call`.
   */
  readonly idempotent?: boolean | undefined;
  /** The tool a `tools/call` is for, named in the message of a round-limit failure. */
  readonly tool?: string | undefined;
  /**
   * Aborting it cancels the request on the server too, as interruption does; the request then
   * fails with an `McpRequestError`. Derived per request, so a long-lived signal collects no
   * listener of the SDK's.
   */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Sends one SDK request over `target`'s client. `send` gets the signal the SDK must watch:
 * aborted when the effect is interrupted (or `options.signal` aborts). With a tracer other than
 * Effect's default installed, the request carries the current span as its trace context.
 */
export const request = stryMutAct_9fa48("462") ? () => undefined : (stryCov_9fa48("462"), (() => {
  const request = <A,>(target: RequestTarget, method: string, send: (client: Client, signal: AbortSignal) => Promise<A>, options?: RequestOptions): Effect.Effect<A, RequestError> => Effect.withFiberRuntime(fiber => {
    if (stryMutAct_9fa48("463")) {
      {}
    } else {
      stryCov_9fa48("463");
      const span = (stryMutAct_9fa48("466") ? fiber.currentTracer !== defaultTracer : stryMutAct_9fa48("465") ? false : stryMutAct_9fa48("464") ? true : (stryCov_9fa48("464", "465", "466"), fiber.currentTracer === defaultTracer)) ? undefined : fiber.currentSpan;
      return Effect.async<A, RequestError>((resume, interrupted) => {
        if (stryMutAct_9fa48("467")) {
          {}
        } else {
          stryCov_9fa48("467");
          const signal = (stryMutAct_9fa48("468") ? options.signal : (stryCov_9fa48("468"), options?.signal)) ? AbortSignal.any(stryMutAct_9fa48("469") ? [] : (stryCov_9fa48("469"), [interrupted, options.signal])) : interrupted;
          const failed = (cause: unknown) => {
            if (stryMutAct_9fa48("470")) {
              {}
            } else {
              stryCov_9fa48("470");
              const idempotent = stryMutAct_9fa48("471") ? options?.idempotent && method !== "tools/call" : (stryCov_9fa48("471"), (stryMutAct_9fa48("472") ? options.idempotent : (stryCov_9fa48("472"), options?.idempotent)) ?? (stryMutAct_9fa48("475") ? method === "tools/call" : stryMutAct_9fa48("474") ? false : stryMutAct_9fa48("473") ? true : (stryCov_9fa48("473", "474", "475"), method !== (stryMutAct_9fa48("476") ? "" : (stryCov_9fa48("476"), "tools/call")))));
              resume(Effect.fail(classifyRequestFailure(target.server.name, method, cause, stryMutAct_9fa48("477") ? {} : (stryCov_9fa48("477"), {
                idempotent,
                tool: stryMutAct_9fa48("478") ? options.tool : (stryCov_9fa48("478"), options?.tool)
              })).error));
            }
          };
          try {
            if (stryMutAct_9fa48("479")) {
              {}
            } else {
              stryCov_9fa48("479");
              const sent = (stryMutAct_9fa48("482") ? span !== undefined : stryMutAct_9fa48("481") ? false : stryMutAct_9fa48("480") ? true : (stryCov_9fa48("480", "481", "482"), span === undefined)) ? send(target.client, signal) : withTraceMeta(traceMetaOf(span), stryMutAct_9fa48("483") ? () => undefined : (stryCov_9fa48("483"), () => send(target.client, signal)));
              sent.then(stryMutAct_9fa48("484") ? () => undefined : (stryCov_9fa48("484"), value => resume(Effect.succeed(value))), failed);
            }
          } catch (cause) {
            if (stryMutAct_9fa48("485")) {
              {}
            } else {
              stryCov_9fa48("485");
              failed(cause);
            }
          }
        }
      });
    }
  });
  return request;
})());