/**
 * Elicitation: servers asking the user for input in the middle of a request. A port, like
 * `Prompter`: how to answer depends on where the host runs, so the host picks the layer.
 *
 * - `layerTerminal`: a form is asked field by field on the terminal (Enter keeps the default);
 *   a URL is shown and opened only after a yes.
 * - `layerDefaultsOnTerminal` (the CLI's `--yes` on a terminal): forms accepted with their
 *   defaults, URLs still shown and confirmed.
 * - `layerDefaults` (the CLI's `--yes` without a terminal): a form is accepted with every default
 *   applied — and still declined when a required field has no default, because inventing a
 *   value would be lying to the server; URLs are never opened (`--yes` alone is nobody's yes).
 * - `layerDecline`: everything is declined, nothing is opened.
 *
 * Only URLs that `Auth.checkUrlToOpen` accepts are ever opened (`https:`, `http:` on loopback,
 * nothing that starts with `-`). A tool call refused with -32042 (URL elicitation required) is
 * retried once by `ToolRegistry.call` after `urlRequired` has had each URL confirmed and opened
 * and the server reported the step complete, within the call's timeout. Notes for the user go to
 * Effect's `Console` error stream (stderr by default), sanitized; the terminal layer writes to
 * the stream it asks on.
 */
import type { Client, ElicitRequest, ElicitResult } from "@modelcontextprotocol/client"
import * as Console from "effect/Console"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Runtime from "effect/Runtime"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import * as readline from "node:readline/promises"
import { checkUrlToOpen, openInBrowser } from "../internal/auth/OAuthFlow.js"
import { sanitize } from "../internal/Sanitize.js"
import type { ResolvedServer } from "../config/ServerConfig.js"

// ---------------------------------------------------------------------------------------------
// Shapes and pure logic
// ---------------------------------------------------------------------------------------------

/**
 * The client capability a host with elicitation declares (SDK 1.32 shape: form and URL modes).
 * @since 0.1.0
 */
export const capabilities = { elicitation: { form: {}, url: {} } } as const

/**
 * One field of a form request (the spec's restricted JSON Schema: primitives and enums).
 * @since 0.1.0
 */
export interface FieldSchema {
  readonly type?: string
  readonly title?: string
  readonly description?: string
  readonly default?: unknown
  readonly enum?: ReadonlyArray<unknown>
  readonly oneOf?: ReadonlyArray<{ readonly const?: unknown; readonly title?: string }>
  readonly items?: { readonly enum?: ReadonlyArray<unknown>; readonly anyOf?: ReadonlyArray<{ readonly const?: unknown }> }
  readonly minimum?: number
  readonly maximum?: number
}

/**
 * The form's schema: flat properties and which of them are required.
 * @since 0.1.0
 */
export interface FormSchema {
  readonly properties?: Readonly<Record<string, FieldSchema>>
  readonly required?: ReadonlyArray<string>
}

/**
 * One `elicitation/create` of a server, in either mode.
 * @since 0.1.0
 */
export type ElicitationRequest =
  | {
    readonly mode: "form"
    readonly server: string
    readonly message: string
    readonly requestedSchema: FormSchema
  }
  | {
    readonly mode: "url"
    readonly server: string
    readonly message: string
    readonly url: string
    readonly elicitationId: string
  }

/**
 * The answer sent back: accept (with content for a form), decline or cancel.
 * @since 0.1.0
 */
export type ElicitationAnswer = ElicitResult

/**
 * Asks someone else (a gateway's client) a server's `elicitation/create`.
 * @since 0.1.0
 */
export type Asker = (params: ElicitRequest["params"]) => Promise<ElicitationAnswer>

/**
 * A step a refused tool call (-32042) asks the user to complete in the browser.
 * @since 0.1.0
 */
export interface UrlStep {
  readonly url: string
  readonly message: string
  readonly elicitationId: string
}

/**
 * `--yes` without a terminal: accept with every default; decline when a required field has no
 * default (pure, tested).
 */
/**
 * The required fields of a form that have no default: what `--yes` cannot answer (pure).
 * @since 0.1.0
 */
export const requiredWithoutDefault = (schema: FormSchema): ReadonlyArray<string> =>
  (schema.required ?? []).filter((k) => schema.properties?.[k]?.default === undefined)

/**
 * A form `--yes` cannot answer (a required field has no default), thrown from the
 * `elicitation/create` handler so the request ends at the first such round: in the 2026-07-28
 * era the tool call fails with this message instead of looping to the round limit; in the 2025
 * era the server gets it as the error answer to its `elicitation/create`.
 * @since 0.1.0
 */
export class UnanswerableForm extends Schema.TaggedError<UnanswerableForm>()("UnanswerableForm", {
  server: Schema.String,
  /** The required fields without a default. */
  fields: Schema.Array(Schema.String),
  /** The form as the server sent it (for the fields' titles). */
  schema: Schema.declare((u: unknown): u is FormSchema => typeof u === "object" && u !== null)
}) {
  override get message(): string {
    const named = this.fields.map((f) => {
      const title = this.schema.properties?.[f]?.title
      return title ? `"${f}" (${title})` : `"${f}"`
    }).join(", ")
    return `server "${this.server}" asked for ${named}, required and without a default: --yes answers forms only with ` +
      `their defaults. Run it on a terminal without --yes to answer, or give the value as a tool argument if the tool takes one.`
  }
}

/** @since 0.1.0 */
export const acceptWithDefaults = (schema: FormSchema): ElicitationAnswer => {
  const content: Record<string, string | number | boolean | Array<string>> = {}
  for (const [key, field] of Object.entries(schema.properties ?? {})) {
    if (field.default !== undefined) content[key] = field.default as never
  }
  const missing = (schema.required ?? []).filter((k) => !(k in content))
  return missing.length > 0 ? { action: "decline" } : { action: "accept", content }
}

const choicesOf = (field: FieldSchema): ReadonlyArray<unknown> | undefined =>
  field.enum ?? field.oneOf?.map((o) => o.const) ?? undefined

/**
 * One typed answer from text: numbers, booleans and enum members are checked so the server gets
 * what its schema asked for (pure, tested). `undefined` means "not a valid answer".
 * @since 0.1.0
 */
export const parseAnswer = (field: FieldSchema, text: string): unknown => {
  const t = text.trim()
  const choices = choicesOf(field)
  if (field.type === "array") {
    const allowed = field.items?.enum ?? field.items?.anyOf?.map((o) => o.const)
    const values = t === "" ? [] : t.split(",").map((s) => s.trim())
    return allowed && values.some((v) => !allowed.includes(v)) ? undefined : values
  }
  if (choices) {
    const byIndex = /^\d+$/.test(t) ? choices[Number(t) - 1] : undefined
    return byIndex ?? (choices.includes(t) ? t : undefined)
  }
  switch (field.type) {
    case "integer":
    case "number": {
      const n = Number(t)
      if (t === "" || Number.isNaN(n) || (field.type === "integer" && !Number.isInteger(n))) return undefined
      if ((field.minimum !== undefined && n < field.minimum) || (field.maximum !== undefined && n > field.maximum)) return undefined
      return n
    }
    case "boolean":
      return /^(y|yes|true)$/i.test(t) ? true : /^(n|no|false)$/i.test(t) ? false : undefined
    default:
      return t
  }
}

/**
 * The SDK's request as an `ElicitationRequest` of `server` (pure).
 * @since 0.1.0
 */
export const fromSdkRequest = (request: ElicitRequest, server: string): ElicitationRequest => {
  const params = request.params
  return params.mode === "url"
    ? { mode: "url", server, message: params.message, url: params.url, elicitationId: params.elicitationId }
    : { mode: "form", server, message: params.message, requestedSchema: params.requestedSchema as FormSchema }
}

// ---------------------------------------------------------------------------------------------
// Port
// ---------------------------------------------------------------------------------------------

/**
 * How a host answers: the policy a layer supplies.
 * @since 0.1.0
 */
export interface Answerer {
  /** Answers one `elicitation/create`. */
  readonly answer: (request: ElicitationRequest) => Effect.Effect<ElicitationAnswer>
  /**
   * Whether the URLs of a tool call refused with -32042 are opened (then the call is sent again
   * once the server reports the steps complete). False: the refusal stands.
   */
  readonly opensRequiredUrls: boolean
  /**
   * Asks a person whether to open a step's URL (already checked safe, shown sanitized). Absent:
   * opened without asking — for embedding applications that asked in their own way.
   */
  readonly confirmUrl?: ((server: string, message: string, url: string) => Effect.Effect<boolean>) | undefined
  /** Opens a URL of a refused call's step; default `openInBrowser` (`$BROWSER`, else the platform opener). */
  readonly openUrl?: ((url: string) => Effect.Effect<void>) | undefined
  /**
   * A declined form whose required fields have no default ends the request ({@link UnanswerableForm})
   * instead of going back to the server, which would only ask again (`--yes`: nobody will answer).
   */
  readonly endsUnanswerable?: boolean | undefined
}

/**
 * How long a URL step of a refused call may take before the call is sent again anyway (ms).
 * @since 0.1.0
 */
export const URL_STEP_WAIT_MS = 120_000

/**
 * Answers servers' elicitations and completes the URL steps of refused calls.
 * @since 0.1.0
 */
export class Elicitation extends Context.Tag("@mcpctl/core/Elicitation")<
  Elicitation,
  {
    /** Answers one `elicitation/create`. */
    readonly answer: (request: ElicitationRequest) => Effect.Effect<ElicitationAnswer>
    /**
     * Registers the request and completion handlers on a new client. The host passes it as the
     * pool's `configureClient` (and declares `capabilities`).
     */
    readonly configureClient: (client: Client, server: ResolvedServer) => void
    /**
     * While the scope lasts, `server`'s `elicitation/create` requests go to `ask` (a gateway's
     * client, whose request is running on that server) instead of this service's policy — while it
     * is the only one registered for that server; with several, the policy answers.
     */
    readonly relayTo: (server: string, ask: Asker) => Effect.Effect<void, never, Scope.Scope>
    /**
     * A tool call of `server` was refused with -32042: has each step's URL confirmed and opened,
     * and waits for the server's completion notice — at most `URL_STEP_WAIT_MS` each, and all of
     * it within `timeoutMs` (the call's timeout) when given. True when the call should be sent
     * again; false when this layer opens nothing, a URL is unsafe, or the user said no.
     */
    readonly urlRequired: (server: string, steps: ReadonlyArray<UrlStep>, timeoutMs?: number) => Effect.Effect<boolean>
  }
>() {
  /** A layer from any answering policy (an embedding application's own dialogs). */
  static readonly layerWith = (answerer: Answerer): Layer.Layer<Elicitation> => Layer.effect(this, make(answerer))

  /** Nobody can answer: every request is declined (with a note), nothing is opened. */
  static readonly layerDecline: Layer.Layer<Elicitation> = Layer.suspend(() => Elicitation.layerWith(declining))

  /** `--yes` without a terminal: forms accepted with their defaults; URLs never opened (only printed). */
  static readonly layerDefaults: Layer.Layer<Elicitation> = Layer.suspend(() => Elicitation.layerWith(withDefaults))

  /** `--yes` on a terminal: forms accepted with their defaults, URLs shown and opened after a yes. */
  static readonly layerDefaultsOnTerminal: Layer.Layer<Elicitation> = Layer.suspend(() =>
    Elicitation.layerWith(onTerminal(process.stdin, process.stderr, { formDefaults: true }))
  )

  /**
   * Forms asked field by field on stdin/stderr, URLs opened after a yes. Use only when stdin and
   * stderr are TTYs; the host checks, this layer does not.
   */
  static readonly layerTerminal: Layer.Layer<Elicitation> = Layer.suspend(() =>
    Elicitation.layerWith(onTerminal(process.stdin, process.stderr))
  )
}

/**
 * Builds the service from a policy: handlers per client and the completions seen so far.
 * @since 0.1.0
 */
export const make = (answerer: Answerer): Effect.Effect<Elicitation["Type"]> =>
  Effect.gen(function*() {
    const runPromise = Runtime.runPromise(yield* Effect.runtime<never>())
    const openUrl = answerer.openUrl ?? openInBrowser
    const completed = new Set<string>()
    const askers = new Map<string, Array<Asker>>()
    const waiters = new Map<string, () => void>()

    // Checked when it runs, not when it is built: the notice may come while the URL opens.
    const awaitCompletion = (elicitationId: string, timeoutMs: number): Effect.Effect<boolean> =>
      Effect.suspend(() =>
        completed.has(elicitationId)
          ? Effect.succeed(true)
          : Effect.async<boolean>((resume) => {
            waiters.set(elicitationId, () => {
              waiters.delete(elicitationId)
              resume(Effect.succeed(true))
            })
            return Effect.sync(() => waiters.delete(elicitationId))
          }).pipe(
            Effect.timeoutTo({ duration: Duration.millis(timeoutMs), onTimeout: () => false, onSuccess: (done) => done })
          )
      )

    return Elicitation.of({
      answer: answerer.answer,
      configureClient: (client, server) => {
        client.setRequestHandler("elicitation/create", async (request) => {
          // Only when one such request runs: a 2025-era server's question names no request, so
          // with two it could reach the wrong client.
          const waiting = askers.get(server.name) ?? []
          if (waiting.length === 1) return waiting[0]!(request.params)
          const asked = fromSdkRequest(request, server.name)
          const answer = await runPromise(answerer.answer(asked))
          if (answerer.endsUnanswerable === true && answer.action === "decline" && asked.mode === "form") {
            const missing = requiredWithoutDefault(asked.requestedSchema)
            if (missing.length > 0) throw new UnanswerableForm({ server: server.name, fields: missing, schema: asked.requestedSchema })
          }
          return answer
        })
        client.setNotificationHandler("notifications/elicitation/complete", (n) => {
          const id = n.params.elicitationId
          completed.add(id)
          waiters.get(id)?.()
        })
      },
      relayTo: (server, ask) =>
        Effect.acquireRelease(
          Effect.sync(() => askers.set(server, [...(askers.get(server) ?? []), ask])),
          () =>
            Effect.sync(() => {
              const left = (askers.get(server) ?? []).filter((a) => a !== ask)
              if (left.length > 0) askers.set(server, left)
              else askers.delete(server)
            })
        ),
      urlRequired: (server, steps, timeoutMs) => {
        if (!answerer.opensRequiredUrls || steps.length === 0) return Effect.succeed(false)
        const oneStep = (step: UrlStep): Effect.Effect<boolean> => {
          const verdict = checkUrlToOpen(step.url)
          const shown = sanitize(step.url, { multiline: false })
          if (!verdict.ok) {
            return Console.error(`${server} asked to open ${shown}; not opened: ${verdict.reason}.`).pipe(Effect.as(false))
          }
          const confirmed = answerer.confirmUrl
            ? answerer.confirmUrl(server, step.message, verdict.url)
            : Console.error(`${server} needs you to complete a step in the browser: ${sanitize(step.message)}\n  ${shown}`).pipe(
              Effect.as(true)
            )
          return Effect.flatMap(confirmed, (yes) =>
            yes
              ? openUrl(verdict.url).pipe(Effect.zipRight(awaitCompletion(step.elicitationId, URL_STEP_WAIT_MS)), Effect.as(true))
              : Effect.succeed(false))
        }
        const all = Effect.reduce(steps, true, (ok, step) => (ok ? oneStep(step) : Effect.succeed(false)))
        // The call's timeout bounds the whole detour: asking, opening and waiting.
        return timeoutMs === undefined ? all : all.pipe(
          Effect.timeoutTo({ duration: Duration.millis(timeoutMs), onTimeout: () => false, onSuccess: (ok) => ok })
        )
      }
    })
  })

// ---------------------------------------------------------------------------------------------
// Policies
// ---------------------------------------------------------------------------------------------

const declining: Answerer = {
  opensRequiredUrls: false,
  answer: (request) =>
    Console.error(`${request.server} asked: ${sanitize(request.message)} — declined (no terminal; --yes accepts forms with defaults)`).pipe(
      Effect.as({ action: "decline" } as const)
    )
}

const withDefaults: Answerer = {
  // `--yes` approves calls the rules ask about; it is nobody's yes to a page a server chose.
  opensRequiredUrls: false,
  answer: (request) => {
    if (request.mode === "url") {
      const verdict = checkUrlToOpen(request.url)
      return Console.error(
        `${request.server} asked you to open ${sanitize(request.url, { multiline: false })} (${sanitize(request.message)}) — ` +
          (verdict.ok ? "declined: without a terminal nobody can confirm it (open it yourself, then try again)" : `declined: ${verdict.reason}`)
      ).pipe(Effect.as({ action: "decline" } as const))
    }
    const result = acceptWithDefaults(request.requestedSchema)
    if (result.action === "accept") {
      return Console.error(`${request.server} asked: ${sanitize(request.message)} — accepted with defaults (--yes)`).pipe(Effect.as(result))
    }
    const missing = requiredWithoutDefault(request.requestedSchema)
    return Console.error(
      `${request.server} asked: ${sanitize(request.message)} — cannot answer: ${missing.map((f) => `"${sanitize(f)}"`).join(", ")} ` +
        `required, no default (--yes)`
    ).pipe(Effect.as(result))
  },
  // A decline would only make the server ask again (up to the round limit): end the request.
  endsUnanswerable: true
}

/**
 * Options of {@link onTerminal}.
 * @since 0.1.0
 */
export interface TerminalOptions {
  /** Accept forms with their defaults instead of asking (`--yes` on a terminal); URLs are still confirmed. */
  readonly formDefaults?: boolean | undefined
}

/**
 * Asks on a terminal: `input` is read, questions and notes are written to `output`.
 * @since 0.1.0
 */
export const onTerminal = (
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  options: TerminalOptions = {}
): Answerer => {
  const line = (text = "") => void output.write(text + "\n")
  const confirm = (server: string, message: string, url: string) =>
    Effect.promise(() => confirmOpen(message, url, server, input, output, line))
  return {
    opensRequiredUrls: true,
    confirmUrl: confirm,
    endsUnanswerable: options.formDefaults === true,
    answer: (request) => {
      if (request.mode === "url") {
        const verdict = checkUrlToOpen(request.url)
        if (!verdict.ok) {
          line(`${request.server} asked to open ${sanitize(request.url, { multiline: false })}; declined: ${verdict.reason}.`)
          return Effect.succeed({ action: "decline" } as const)
        }
        return Effect.flatMap(
          confirm(request.server, request.message, verdict.url),
          (go): Effect.Effect<ElicitationAnswer> =>
            go
              ? openInBrowser(verdict.url).pipe(Effect.as({ action: "accept" } as const))
              : Effect.succeed({ action: "decline" } as const)
        )
      }
      if (options.formDefaults) return withDefaults.answer(request)
      return Effect.promise(() => askForm(request.message, request.requestedSchema, request.server, input, output, line))
    }
  }
}

/** Asks a form on the terminal, field by field; Enter keeps the default, Ctrl-D cancels. */
const askForm = async (
  message: string,
  schema: FormSchema,
  server: string,
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  line: (text?: string) => void
): Promise<ElicitationAnswer> => {
  const rl = readline.createInterface({ input, output, terminal: true })
  let closed = false
  rl.on("close", () => (closed = true))
  try {
    line(`\n${server} asks: ${sanitize(message)}`)
    const content: Record<string, unknown> = {}
    const required = new Set(schema.required ?? [])
    for (const [key, field] of Object.entries(schema.properties ?? {})) {
      const choices = choicesOf(field)
      const label = sanitize(field.title ?? key, { multiline: false })
      if (field.description) line(`  ${sanitize(field.description)}`)
      if (choices) choices.forEach((c, i) => line(`    ${i + 1}) ${sanitize(String(c), { multiline: false })}`))
      const hint = [
        field.type === "boolean" ? "y/n" : undefined,
        field.default !== undefined ? `default ${JSON.stringify(field.default)}` : undefined,
        required.has(key) ? "required" : undefined
      ].filter(Boolean).join(", ")
      for (;;) {
        const answer = await rl.question(`  ${label}${hint ? ` (${hint})` : ""}: `)
        if (closed) return { action: "cancel" }
        if (answer.trim() === "") {
          if (field.default !== undefined) content[key] = field.default
          else if (required.has(key)) {
            line("  a value is required")
            continue
          }
          break
        }
        const value = parseAnswer(field, answer)
        if (value === undefined) {
          line(`  not a valid ${field.type ?? "value"}${choices ? "; pick one of the listed choices" : ""}`)
          continue
        }
        content[key] = value
        break
      }
    }
    const send = await rl.question("Send this answer? [Y/n] ")
    if (closed) return { action: "cancel" }
    return /^n/i.test(send.trim()) ? { action: "decline" } : { action: "accept", content: content as never }
  } finally {
    rl.close()
  }
}

/** Asks whether to open a URL the server wants the user to visit. */
const confirmOpen = async (
  message: string,
  url: string,
  server: string,
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  line: (text?: string) => void
): Promise<boolean> => {
  const rl = readline.createInterface({ input, output, terminal: true })
  try {
    line(`\n${server} asks you to open ${sanitize(url, { multiline: false })}\n  ${sanitize(message)}`)
    // A server chose this page: only an explicit yes opens it.
    return /^y(es)?$/i.test((await rl.question("Open it in the browser? [y/N] ")).trim())
  } finally {
    rl.close()
  }
}
