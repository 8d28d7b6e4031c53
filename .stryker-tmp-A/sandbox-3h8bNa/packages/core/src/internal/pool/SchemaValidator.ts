/**
 * Checking tools' `structuredContent` against their `outputSchema`: work whose cost the server
 * chooses (the schema and the data), so it is bounded or kept off the event loop.
 *
 * - The engine (`internal/schemaEngine/engine.mjs`) is Ajv with the expensive parts replaced: `pattern`
 *   and `patternProperties` on re2js (linear time), `uniqueItems` through canonical forms
 *   (linear, where Ajv compares every pair: 20,000 items took ~30 s), `enum`/`required` as loops.
 * - Small work runs inline, as before: a schema of at most 2,000 nodes (unfolded through `$ref`,
 *   none recursive) against data small enough that nodes × units stay under 200,000
 *   (`internal/validation/cost.ts`). The estimate stops at that bound, so it costs less than the check.
 * - Anything else (large results, huge or recursive schemas, `$dynamicRef`) is checked in a
 *   worker thread (`internal/validation/workers.ts`) while the event loop goes on; the call's signal
 *   (its timeout, a cancel) terminates the worker, and without a timeout the check has a budget
 *   of its own ({@link CHECK_BUDGET_MS}). A check that does not finish fails the call, naming the
 *   server and the tool.
 *
 * Dialects: a schema that names JSON Schema 2020-12 or 2019-09 in `$schema` is checked by Ajv's
 * engine for that draft, others by draft-07's. No `$ref` is ever fetched. A schema Ajv cannot
 * compile is not checked: checking a server's answer against its own schema is a courtesy.
 */
// @ts-nocheck

import type { CallToolResult, Client, JsonSchemaType, jsonSchemaValidator, JsonSchemaValidator } from "@modelcontextprotocol/client"
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/client"
import { linearRegExp as engineRegExp, makeEngine, type RegExpLike, type Verdict } from "../schemaEngine/engine.mjs"
import { runsInline } from "../validation/cost.js"
import { checkInWorker } from "../validation/workers.js"

/**
 * A pattern as a linear-time matcher (JSON Schema patterns are unanchored searches, like
 * `RegExp.test`); unsupported syntax matches everything rather than failing the schema.
 */
export const linearRegExp: (pattern: string) => RegExpLike = engineRegExp

/** How long a check in the worker may take when the call has no timeout of its own. */
export const CHECK_BUDGET_MS = 60_000

/** One engine and its compiled schemas (by schema object: the catalogue hands the same one every call). */
const makeChecks = () => {
  const engine = makeEngine()
  const compiled = new WeakMap<object, (data: unknown) => Verdict>()
  return (schema: unknown): ((data: unknown) => Verdict) => {
    if (typeof schema !== "object" || schema === null) return engine.compile(schema)
    let check = compiled.get(schema)
    if (check === undefined) compiled.set(schema, check = engine.compile(schema))
    return check
  }
}

/**
 * The validator for the SDK `Client` (`jsonSchemaValidator`): the same engine, synchronous, for
 * what the SDK checks itself. A fresh one per client (Ajv caches schemas by `$id`, and two
 * servers may use the same one). Tool results do not go through it: the catalogue's call path
 * uses {@link checkStructuredContent}.
 */
export const makeSchemaValidator = (): jsonSchemaValidator => {
  const checks = makeChecks()
  return {
    getValidator: <T>(schema: JsonSchemaType): JsonSchemaValidator<T> => {
      const check = checks(schema)
      return ((input: unknown) => {
        const verdict = check(input)
        return verdict.valid
          ? { valid: true, data: input as T, errorMessage: undefined }
          : { valid: false, data: undefined, errorMessage: verdict.errorMessage }
      }) as JsonSchemaValidator<T>
    }
  }
}

/** Per connection (client): its engine for the inline checks. */
const inline = new WeakMap<Client, ReturnType<typeof makeChecks>>()

/** Where a check runs: `inline` or `worker` (for tests and logs). */
export const placeOf = (schema: unknown, data: unknown): "inline" | "worker" =>
  typeof schema === "object" && schema !== null && !runsInline(schema, data) ? "worker" : "inline"

/**
 * Checks a tool's result as the SDK would (a result with `isError` is not checked; a tool with an
 * `outputSchema` must send `structuredContent`), inline or in the worker (see the module's
 * notes). Fails with the SDK's own errors (`ProtocolError`, so the call fails as it did when
 * the SDK checked), or with the signal's reason when it aborts first.
 */
export const checkStructuredContent = async (
  client: Client,
  tool: string,
  server: string,
  schema: unknown,
  result: CallToolResult,
  signal: AbortSignal | undefined
): Promise<CallToolResult> => {
  if (schema === undefined || result.isError) return result
  const data = result.structuredContent
  if (data === undefined) {
    throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `Tool ${tool} has an output schema but did not return structured content`)
  }
  let verdict: Verdict
  if (placeOf(schema, data) === "inline") {
    let checks = inline.get(client)
    if (checks === undefined) inline.set(client, checks = makeChecks())
    try {
      verdict = checks(schema)(data)
    } catch (error) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Failed to validate structured content: ${error instanceof Error ? error.message : String(error)}`)
    }
  } else {
    const budget = AbortSignal.timeout(CHECK_BUDGET_MS)
    try {
      verdict = await checkInWorker(schema as object, data, signal ? AbortSignal.any([signal, budget]) : budget)
    } catch (error) {
      if (signal?.aborted) throw signal.reason
      if (budget.aborted) {
        throw new ProtocolError(
          ProtocolErrorCode.InternalError,
          `Checking the structured content of ${server}'s tool ${tool} against its output schema did not finish within ` +
            `${CHECK_BUDGET_MS} ms; it was stopped. Give the call a timeout (--timeout MS, MCP_TOOL_TIMEOUT) to bound it sooner.`
        )
      }
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Failed to validate structured content: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
  if (!verdict.valid) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Structured content does not match the tool's output schema: ${verdict.errorMessage}`)
  }
  return result
}
