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
 *
 * This module is the tag, its types and layers; the implementation is
 * `internal/elicitation/elicitation.ts` (shapes and pure logic: `forms.ts`).
 */
import type { Client, ElicitRequest } from "@modelcontextprotocol/client"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import type { ResolvedServer } from "../config/ServerConfig.js"
import * as internal from "../internal/elicitation/elicitation.js"
import * as forms from "../internal/elicitation/forms.js"

// ---------------------------------------------------------------------------------------------
// Shapes and pure logic (`internal/elicitation/forms.ts`)
// ---------------------------------------------------------------------------------------------

/**
 * The client capability a host with elicitation declares (SDK 1.32 shape: form and URL modes).
 * @since 0.1.0
 */
export const capabilities: { readonly elicitation: { readonly form: {}; readonly url: {} } } = forms.capabilities

/**
 * One field of a form request (the spec's restricted JSON Schema: primitives and enums).
 * @since 0.1.0
 */
export type FieldSchema = forms.FieldSchema

/**
 * The form's schema: flat properties and which of them are required.
 * @since 0.1.0
 */
export type FormSchema = forms.FormSchema

/**
 * One `elicitation/create` of a server, in either mode.
 * @since 0.1.0
 */
export type ElicitationRequest = forms.ElicitationRequest

/**
 * The answer sent back: accept (with content for a form), decline or cancel.
 * @since 0.1.0
 */
export type ElicitationAnswer = forms.ElicitationAnswer

/**
 * Asks someone else (a gateway's client) a server's `elicitation/create`.
 * @since 0.1.0
 */
export type Asker = forms.Asker

/**
 * A step a refused tool call (-32042) asks the user to complete in the browser.
 * @since 0.1.0
 */
export type UrlStep = forms.UrlStep

/**
 * The required fields of a form that have no default: what `--yes` cannot answer (pure).
 * @since 0.1.0
 */
export const requiredWithoutDefault: (schema: FormSchema) => ReadonlyArray<string> = forms.requiredWithoutDefault

/**
 * A form `--yes` cannot answer (a required field has no default), thrown from the
 * `elicitation/create` handler so the request ends at the first such round: in the 2026-07-28
 * era the tool call fails with this message instead of looping to the round limit; in the 2025
 * era the server gets it as the error answer to its `elicitation/create`.
 * @since 0.1.0
 */
export const UnanswerableForm: typeof forms.UnanswerableForm = forms.UnanswerableForm
/** @since 0.1.0 */
export type UnanswerableForm = forms.UnanswerableForm

/**
 * `--yes` without a terminal: a form accepted with every default; declined when a required field
 * has no default (pure).
 * @since 0.1.0
 */
export const acceptWithDefaults: (schema: FormSchema) => ElicitationAnswer = forms.acceptWithDefaults

/**
 * One typed answer from text: numbers, booleans and enum members are checked so the server gets
 * what its schema asked for (pure, tested). `undefined` means "not a valid answer".
 * @since 0.1.0
 */
export const parseAnswer: (field: FieldSchema, text: string) => unknown = forms.parseAnswer

/**
 * The SDK's request as an `ElicitationRequest` of `server` (pure).
 * @since 0.1.0
 */
export const fromSdkRequest: (request: ElicitRequest, server: string) => ElicitationRequest = forms.fromSdkRequest

// ---------------------------------------------------------------------------------------------
// Port
// ---------------------------------------------------------------------------------------------

/**
 * How a host answers: the policy a layer supplies.
 * @since 0.1.0
 */
export type Answerer = forms.Answerer

/**
 * How long a URL step of a refused call may take before the call is sent again anyway (ms).
 * @since 0.1.0
 */
export const URL_STEP_WAIT_MS: number = forms.URL_STEP_WAIT_MS

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
  static readonly layerDecline: Layer.Layer<Elicitation> = Layer.suspend(() => Elicitation.layerWith(internal.declining))

  /** `--yes` without a terminal: forms accepted with their defaults; URLs never opened (only printed). */
  static readonly layerDefaults: Layer.Layer<Elicitation> = Layer.suspend(() => Elicitation.layerWith(internal.withDefaults))

  /** `--yes` on a terminal: forms accepted with their defaults, URLs shown and opened after a yes. */
  static readonly layerDefaultsOnTerminal: Layer.Layer<Elicitation> = Layer.suspend(() =>
    Elicitation.layerWith(internal.onTerminal(process.stdin, process.stderr, { formDefaults: true }))
  )

  /**
   * Forms asked field by field on stdin/stderr, URLs opened after a yes. Use only when stdin and
   * stderr are TTYs; the host checks, this layer does not.
   */
  static readonly layerTerminal: Layer.Layer<Elicitation> = Layer.suspend(() =>
    Elicitation.layerWith(internal.onTerminal(process.stdin, process.stderr))
  )
}

/**
 * Builds the service from a policy: handlers per client and the completions seen so far (the
 * implementation: `internal/elicitation/elicitation.ts`).
 * @since 0.1.0
 */
export const make = (answerer: Answerer): Effect.Effect<Elicitation["Type"]> => internal.make(answerer)

// ---------------------------------------------------------------------------------------------
// Policies
// ---------------------------------------------------------------------------------------------

/**
 * Options of {@link onTerminal}.
 * @since 0.1.0
 */
export type TerminalOptions = internal.TerminalOptions

/**
 * Asks on a terminal: `input` is read, questions and notes are written to `output`.
 * @since 0.1.0
 */
export const onTerminal: (input: NodeJS.ReadableStream, output: NodeJS.WritableStream, options?: TerminalOptions) => Answerer =
  internal.onTerminal
