/**
 * The shapes and pure logic of `elicitation/Elicitation.ts`: a server's form and what answers it,
 * the policy port a host supplies, and the error of a form `--yes` cannot answer.
 */
import type { ElicitRequest, ElicitResult } from "@modelcontextprotocol/client"
import type * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"

// ---------------------------------------------------------------------------------------------
// Shapes and pure logic
// ---------------------------------------------------------------------------------------------

/**
 * The client capability a host with elicitation declares (SDK 1.32 shape: form and URL modes).
 */
export const capabilities = { elicitation: { form: {}, url: {} } } as const

/**
 * One field of a form request (the spec's restricted JSON Schema: primitives and enums).
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
 */
export interface FormSchema {
  readonly properties?: Readonly<Record<string, FieldSchema>>
  readonly required?: ReadonlyArray<string>
}

/**
 * One `elicitation/create` of a server, in either mode.
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
 */
export type ElicitationAnswer = ElicitResult

/**
 * Asks someone else (a gateway's client) a server's `elicitation/create`.
 */
export type Asker = (params: ElicitRequest["params"]) => Promise<ElicitationAnswer>

/**
 * A step a refused tool call (-32042) asks the user to complete in the browser.
 */
export interface UrlStep {
  readonly url: string
  readonly message: string
  readonly elicitationId: string
}

/**
 * The required fields of a form that have no default: what `--yes` cannot answer (pure).
 */
export const requiredWithoutDefault = (schema: FormSchema): ReadonlyArray<string> =>
  (schema.required ?? []).filter((k) => schema.properties?.[k]?.default === undefined)

/**
 * A form `--yes` cannot answer (a required field has no default), thrown from the
 * `elicitation/create` handler so the request ends at the first such round: in the 2026-07-28
 * era the tool call fails with this message instead of looping to the round limit; in the 2025
 * era the server gets it as the error answer to its `elicitation/create`.
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

export const choicesOf = (field: FieldSchema): ReadonlyArray<unknown> | undefined =>
  field.enum ?? field.oneOf?.map((o) => o.const) ?? undefined

/**
 * One typed answer from text: numbers, booleans and enum members are checked so the server gets
 * what its schema asked for (pure, tested). `undefined` means "not a valid answer".
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
 */
export const URL_STEP_WAIT_MS = 120_000
