/**
 * The SDK `Client` the pool connects with: SDK v2's `Client`, plus a record of the notification
 * methods it has a handler for (set through the public `setNotificationHandler` /
 * `removeNotificationHandler`, including the ones the SDK's own constructor registers), so the
 * pool can drop, before the SDK parses them, notifications nobody listens to
 * (`Resilience.answerInvalidResponses`), and the host's server-log handler with its threshold,
 * so a `notifications/message` costs a level comparison, not the SDK's schema dispatch; and every
 * request carries the trace context the pool set for it (`traceContext.ts`), whichever SDK method
 * built it. A `tools/call` a server answers with a task (`resultType: "task"`, the tasks extension)
 * reaches the caller as a result with no content and the task under {@link TASK_RESULT_KEY}: the
 * SDK's decoder knows no `task` result type and would refuse it.
 */
import { Client, type JSONRPCNotification, type JSONRPCResponse, type LoggingLevel } from "@modelcontextprotocol/client"
import { currentTraceMeta, withMetaKeys } from "../traceContext.js"
import { logLevelIndexOfBytes } from "./logLine.js"

// Kept outside the instance: the SDK's constructor registers its own handlers (progress,
// cancelled) before a subclass's fields exist.
const listened = new WeakMap<Client, Set<string>>()

const methodsOf = (client: Client): Set<string> => {
  let methods = listened.get(client)
  if (methods === undefined) listened.set(client, methods = new Set())
  return methods
}

/** The MCP log levels by severity (syslog order, least severe first). */
const severity = new Map<string, number>(
  ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"].map((level, i) => [level, i])
)
/** A level's rank; an unknown one counts as info, as `Resources.levelAtLeast` has it. */
const rankOf = (level: string): number => severity.get(level) ?? 1

/** What a server log message hands the host: its params, as the wire has them. */
export interface LogParams {
  readonly level: LoggingLevel
  readonly logger?: string | undefined
  readonly data?: unknown
}

/** A host's server-log handler: messages at `threshold` or above go to `write`. */
interface LogRoute {
  readonly threshold: number
  readonly write: (params: LogParams) => void
}

const logRoutes = new WeakMap<Client, LogRoute>()

type AnyRequest = { method: string; params?: Record<string, unknown> }

/** The SDK Protocol's private map of the progress callbacks of requests not yet answered, by id. */
interface ProgressHandlers {
  readonly _progressHandlers: Map<number, unknown>
}

/** The tasks extension's identifier, under `capabilities.extensions`. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks"

/** Client options with the tasks extension declared (pure). */
export const withTasksExtension = <C extends { readonly capabilities?: object | undefined }>(options: C | undefined): C => {
  const capabilities = (options?.capabilities ?? {}) as { readonly extensions?: Record<string, object> }
  return { ...options, capabilities: { ...capabilities, extensions: { ...capabilities.extensions, [TASKS_EXTENSION]: {} } } } as C
}

/** Where a result carries the task a server created instead of answering (see the module's comment). */
export const TASK_RESULT_KEY = "io.modelcontextprotocol/task"

/** A `resultType: "task"` answer as a `complete` one carrying the task (pure). */
export const liftTaskResult = (response: JSONRPCResponse): JSONRPCResponse => {
  const result = (response as { result?: Record<string, unknown> }).result
  if (result === undefined || result.resultType !== "task") return response
  const { _meta, resultType: _, ...task } = result
  return { ...response, result: { resultType: "complete", content: [], [TASK_RESULT_KEY]: task, ...(_meta !== undefined ? { _meta } : {}) } } as JSONRPCResponse
}

/** The 2026-07-28 envelope key of the log level a request asks for (no `logging/setLevel` there). */
const LOG_LEVEL_KEY = "io.modelcontextprotocol/logLevel"

/** What the SDK's era codec offers for results (internal to the SDK: `wire/codec.ts`). */
interface ResultCodec {
  readonly validateResult: (method: string, value: unknown) => { readonly ok: boolean; readonly value?: unknown; readonly reason?: string; readonly message?: string }
}

const isStandardSchema = (value: unknown): boolean =>
  typeof value === "object" && value !== null && "~standard" in value

/**
 * The SDK's `request(request, options)` without a schema builds its result validator on every
 * request, probing the era's registry by validating `undefined` (a zod error built and formatted
 * per call: the largest cost of `tools/call` inside the SDK, bench/). The same validator (the
 * SDK's `codecResultValidator`, same messages), made once per era codec and method. Methods the
 * era has no result for, and the Tasks extension's names (which skip the era gate when sent with
 * a schema), go the SDK's own way; so does everything if the SDK's internals moved.
 */
const validators = new WeakMap<ResultCodec, Map<string, object | null>>()

export const resultValidatorOf = (client: Client, method: string): object | undefined => {
  if (method === "tasks/get" || method === "tasks/cancel") return undefined
  const resolve = (client as unknown as { _resolveOutboundCodec?: (method: string) => ResultCodec })._resolveOutboundCodec
  if (typeof resolve !== "function") return undefined
  const codec = resolve.call(client, method)
  if (typeof codec?.validateResult !== "function") return undefined
  let byMethod = validators.get(codec)
  if (byMethod === undefined) validators.set(codec, byMethod = new Map())
  let validator = byMethod.get(method)
  if (validator === undefined) {
    const probe = codec.validateResult(method, undefined)
    validator = !probe.ok && probe.reason === "not-in-era" ? null : {
      "~standard": {
        version: 1,
        vendor: "mcp-wire-codec",
        validate: (value: unknown) => {
          const outcome = codec.validateResult(method, value)
          if (outcome.ok) return { value: outcome.value }
          return { issues: [{ message: outcome.reason === "invalid" ? outcome.message : `not-in-era: ${method}` }] }
        }
      }
    }
    byMethod.set(method, validator)
  }
  return validator ?? undefined
}

export class HostClient extends Client {
  /**
   * The log level every request asks for on a 2026-07-28 connection (`Resources.setLogLevel`):
   * that era has no `logging/setLevel`, a server logs during a request only at the level its
   * envelope names. Unset: no level asked, no logs sent.
   */
  requestLogLevel: LoggingLevel | undefined

  // Every SDK method (callTool, listTools, complete, …) sends through `request`; `server/discover`
  // through `_requestWithSchema`.
  override request(...args: Array<any>): Promise<any> {
    const meta = currentTraceMeta()
    if (meta !== undefined) args[0] = { ...args[0], params: withMetaKeys((args[0] as AnyRequest).params, meta) }
    if (this.requestLogLevel !== undefined) {
      const params = (args[0] as AnyRequest).params
      args[0] = { ...args[0], params: { ...params, _meta: { ...(params?._meta as object | undefined), [LOG_LEVEL_KEY]: this.requestLogLevel } } }
    }
    // A spec method without a schema: the era's result validator, made once per era and method.
    if (!isStandardSchema(args[1])) {
      const validator = resultValidatorOf(this, (args[0] as AnyRequest).method)
      if (validator !== undefined) return (super.request as (...args: Array<any>) => Promise<any>)(args[0], validator, args[1])
    }
    return (super.request as (...args: Array<any>) => Promise<any>)(...args)
  }

  protected override _requestWithSchema(...args: Array<any>): Promise<any> {
    const meta = currentTraceMeta()
    if (meta !== undefined) args[0] = { ...args[0], params: withMetaKeys((args[0] as AnyRequest).params, meta) }
    return (super._requestWithSchema as (...args: Array<any>) => Promise<any>)(...args)
  }

  /**
   * Answers held back one microtask (see `_onresponse`), by request id: delivered at once if the
   * connection closes first, so an answer is never lost to the wait.
   */
  private heldAnswers: Map<number, JSONRPCResponse> | undefined

  protected override _onresponse(response: JSONRPCResponse): void {
    const lifted = liftTaskResult(response)
    const id = Number(response.id)
    // The SDK forgets a call's progress handler when it reads the answer, but hands progress to
    // that handler a microtask after reading it: progress read in the same chunk as the answer was
    // dropped. Such an answer waits one microtask, so the progress queued before it runs first
    // (microtasks run in order). Calls without progress keep the direct path.
    if (!(this as unknown as ProgressHandlers)._progressHandlers.has(id)) return super._onresponse(lifted)
    const held = this.heldAnswers ??= new Map()
    held.set(id, lifted)
    queueMicrotask(() => {
      if (held.get(id) !== lifted) return
      held.delete(id)
      super._onresponse(lifted)
    })
  }

  protected override _onclose(): void {
    const held = this.heldAnswers
    if (held !== undefined && held.size > 0) {
      const answers = [...held.values()]
      held.clear()
      for (const answer of answers) super._onresponse(answer)
    }
    super._onclose()
  }

  override setNotificationHandler(method: string, ...rest: Array<unknown>): void {
    methodsOf(this).add(method)
    if (method === "notifications/message") logRoutes.delete(this)
    return (super.setNotificationHandler as (method: string, ...rest: Array<unknown>) => void)(method, ...rest)
  }

  override removeNotificationHandler(method: string): void {
    methodsOf(this).delete(method)
    if (method === "notifications/message") logRoutes.delete(this)
    super.removeNotificationHandler(method)
  }

  /**
   * The server-log handler, delivered by the pool's transport wrapper (`directDelivery`): a
   * message below `threshold` is dropped after a level comparison, one at or above it goes to
   * `write` with its params as received (the same fields the SDK's parse would hand over).
   */
  setServerLogHandler(threshold: LoggingLevel, write: (params: LogParams) => void): void {
    // Also through the SDK, for a message the direct path leaves to it (an unknown level).
    this.setNotificationHandler("notifications/message", (n: { readonly params: LogParams }) => {
      if (rankOf(n.params.level) >= rankOf(threshold)) write(n.params)
    })
    logRoutes.set(this, { threshold: rankOf(threshold), write })
  }
}

/**
 * Notifications the SDK consumes itself, before any registered handler: the acknowledgement that
 * opens a `subscriptions/listen` stream and a server's cancel of one (2026-07-28).
 */
const consumedBySdk = new Set(["notifications/subscriptions/acknowledged", "notifications/cancelled"])

/**
 * Whether `client` would hand a notification of `method` to anyone: a handler for the method, a
 * fallback handler, or the SDK's own subscription bookkeeping. A client that is not a
 * `HostClient` listens to everything (no shortcut).
 */
export const listensTo = (client: Client) => (method: string): boolean =>
  client.fallbackNotificationHandler !== undefined || !(client instanceof HostClient) ||
  listened.get(client)?.has(method) === true || consumedBySdk.has(method)

/** How the pool's transport wrapper takes notifications off the SDK's path (`Resilience.answerInvalidResponses`). */
export interface NotificationShortcut {
  /**
   * A parsed notification: true when it was dropped (a server log below the host's threshold) or
   * handed to the host's handler; false leaves it to the SDK (no handler set through
   * `setServerLogHandler`, another method, or params the SDK's schema would have to judge).
   */
  readonly takes: (message: JSONRPCNotification) => boolean
  /**
   * A raw line's bytes `bytes[start..end)`, before they are decoded or parsed (stdio): true when
   * it is a server log below the threshold.
   */
  readonly skipsLine: (bytes: Uint8Array, start: number, end: number) => boolean
}

/** The level names in severity order, as bytes (`logLevelIndexOfBytes` answers an index here). */
const levelBytes = [...severity.keys()].map((level) => Buffer.from(level, "latin1"))

export const notificationShortcut = (client: Client): NotificationShortcut => ({
  takes: (message) => {
    if (message.method !== "notifications/message") return false
    const route = logRoutes.get(client)
    if (route === undefined) return false
    const params = message.params as { level?: unknown; logger?: unknown } | undefined
    const level = params?.level
    const rank = typeof level === "string" ? severity.get(level) : undefined
    if (rank === undefined || (params!.logger !== undefined && typeof params!.logger !== "string")) return false
    if (rank >= route.threshold) route.write(params as unknown as LogParams)
    return true
  },
  skipsLine: (bytes, start, end) => {
    const route = logRoutes.get(client)
    if (route === undefined || route.threshold === 0) return false
    // The scan stops at a top-level "id", "result" or "error": an answer's line is left at once.
    const rank = logLevelIndexOfBytes(bytes, start, end, levelBytes)
    return rank !== undefined && rank >= 0 && rank < route.threshold
  }
})
