/**
 * The implementation of `elicitation/Elicitation.ts`: the service built from an answering policy
 * (handlers per client, relays to a gateway's client, URL steps of refused calls) and the
 * policies the layers use (decline, defaults, terminal).
 */
import type { Client } from "@modelcontextprotocol/client"
import * as Console from "effect/Console"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Runtime from "effect/Runtime"
import type * as Scope from "effect/Scope"
import * as readline from "node:readline/promises"
import type { ResolvedServer } from "../../config/ServerConfig.js"
import { checkUrlToOpen, openInBrowser } from "../auth/OAuthFlow.js"
import { sanitize } from "../Sanitize.js"
import {
  acceptWithDefaults,
  type Answerer,
  type Asker,
  choicesOf,
  type ElicitationAnswer,
  type FormSchema,
  fromSdkRequest,
  parseAnswer,
  requiredWithoutDefault,
  UnanswerableForm,
  URL_STEP_WAIT_MS,
  type UrlStep
} from "./forms.js"

/**
 * Builds the service from a policy: handlers per client and the completions seen so far.
 */
export const make = (answerer: Answerer) =>
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

    return {
      answer: answerer.answer,
      configureClient: (client: Client, server: ResolvedServer): void => {
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
      relayTo: (server: string, ask: Asker): Effect.Effect<void, never, Scope.Scope> =>
        Effect.acquireRelease(
          Effect.sync(() => askers.set(server, [...(askers.get(server) ?? []), ask])),
          () =>
            Effect.sync(() => {
              const left = (askers.get(server) ?? []).filter((a) => a !== ask)
              if (left.length > 0) askers.set(server, left)
              else askers.delete(server)
            })
        ),
      urlRequired: (server: string, steps: ReadonlyArray<UrlStep>, timeoutMs?: number): Effect.Effect<boolean> => {
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
    }
  })

// ---------------------------------------------------------------------------------------------
// Policies
// ---------------------------------------------------------------------------------------------

export const declining: Answerer = {
  opensRequiredUrls: false,
  answer: (request) =>
    Console.error(`${request.server} asked: ${sanitize(request.message)} — declined (no terminal; --yes accepts forms with defaults)`).pipe(
      Effect.as({ action: "decline" } as const)
    )
}

export const withDefaults: Answerer = {
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
 */
export interface TerminalOptions {
  /** Accept forms with their defaults instead of asking (`--yes` on a terminal); URLs are still confirmed. */
  readonly formDefaults?: boolean | undefined
}

/**
 * Asks on a terminal: `input` is read, questions and notes are written to `output`.
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
