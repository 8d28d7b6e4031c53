/**
 * Elicitation: servers asking the user for input in the middle of a request. mcpctl declares
 * both modes. A form is asked field by field on a terminal (Enter keeps the default); without a
 * terminal it is declined, unless `--yes`, which accepts with every default applied — and still
 * declines when a required field has no default, because inventing a value would be lying to the
 * server. A URL request (or a tool call refused with -32042) opens the URL like sign-in does.
 */
import { openInBrowser } from "@mcpctl/core/Auth"
import type { ResolvedServer } from "@mcpctl/core/ServerConfig"
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import {
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
  ElicitationCompleteNotificationSchema,
  UrlElicitationRequiredError
} from "@modelcontextprotocol/sdk/types.js"
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import * as Runtime from "effect/Runtime"
import * as readline from "node:readline/promises"
import { err } from "./Render.js"

/** How this run answers elicitations. */
export type ElicitationMode = "ask" | "defaults" | "decline"

/** The client capability mcpctl declares (SDK 1.32 shape: form and URL modes). */
export const elicitationCapabilities = { elicitation: { form: {}, url: {} } } as const

/** One field of a form request (the spec's restricted JSON Schema: primitives and enums). */
interface FieldSchema {
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

/** The form's schema: flat properties and which of them are required. */
export interface FormSchema {
  readonly properties?: Readonly<Record<string, FieldSchema>>
  readonly required?: ReadonlyArray<string>
}

/**
 * `--yes` without a terminal: accept with every default; decline when a required field has no
 * default (pure, tested).
 */
export const acceptWithDefaults = (schema: FormSchema): ElicitResult => {
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

/** Asks a form on the terminal, field by field; Enter keeps the default, Ctrl-D cancels. */
const askForm = async (message: string, schema: FormSchema, server: string): Promise<ElicitResult> => {
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr, terminal: true })
  let closed = false
  rl.on("close", () => (closed = true))
  try {
    err(`\n${server} asks: ${message}`)
    const content: Record<string, unknown> = {}
    const required = new Set(schema.required ?? [])
    for (const [key, field] of Object.entries(schema.properties ?? {})) {
      const choices = choicesOf(field)
      const label = field.title ?? key
      if (field.description) err(`  ${field.description}`)
      if (choices) choices.forEach((c, i) => err(`    ${i + 1}) ${String(c)}`))
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
            err("  a value is required")
            continue
          }
          break
        }
        const value = parseAnswer(field, answer)
        if (value === undefined) {
          err(`  not a valid ${field.type ?? "value"}${choices ? "; pick one of the listed choices" : ""}`)
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
const confirmOpen = async (message: string, url: string, server: string): Promise<boolean> => {
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr, terminal: true })
  try {
    err(`\n${server} asks you to open ${url}\n  ${message}`)
    return !/^n/i.test((await rl.question("Open it? [Y/n] ")).trim())
  } finally {
    rl.close()
  }
}

/** URL elicitations a tool call was refused with (-32042), per server, until the call retries. */
export interface UrlElicitation {
  readonly url: string
  readonly message: string
  readonly elicitationId: string
}

/** What `configure` shares with the call command: pending URL elicitations and completions. */
export interface ElicitationState {
  /** Registers the handlers on a new client (the pool's `configureClient`). */
  readonly configure: (client: Client, server: ResolvedServer) => void
  /** The URL elicitations the last refused call of `server` carried (and forgets them). */
  readonly takeUrlElicitations: (server: string) => ReadonlyArray<UrlElicitation>
  /** Resolves when the server reports `elicitationId` complete (or `timeoutMs` passes). */
  readonly awaitCompletion: (elicitationId: string, timeoutMs: number) => Promise<boolean>
}

/** Opening a URL, the same way sign-in does; an Effect run on the host's runtime. */
const open = (url: string): Promise<void> => Runtime.runPromise(Runtime.defaultRuntime)(openInBrowser(url) as Effect.Effect<void>)

/**
 * The elicitation handlers of one run. `mode` follows the flags: `ask` on a terminal, `defaults`
 * with `--yes`, else `decline`.
 */
export const makeElicitation = (mode: ElicitationMode): ElicitationState => {
  const pending = new Map<string, Array<UrlElicitation>>()
  const completed = new Set<string>()
  const waiters = new Map<string, () => void>()

  const answer = async (request: ElicitRequest, server: string): Promise<ElicitResult> => {
    const params = request.params
    if (params.mode === "url") {
      const go = mode === "defaults" || (mode === "ask" && (await confirmOpen(params.message, params.url, server)))
      if (!go) return { action: "decline" }
      err(`Opening ${params.url}`)
      await open(params.url)
      return { action: "accept" }
    }
    const schema = params.requestedSchema as FormSchema
    if (mode === "ask") return askForm(params.message, schema, server)
    if (mode === "defaults") {
      const result = acceptWithDefaults(schema)
      err(`${server} asked: ${params.message} — ${result.action === "accept" ? "accepted with defaults (--yes)" : "declined: a required field has no default"}`)
      return result
    }
    err(`${server} asked: ${params.message} — declined (no terminal; --yes accepts with defaults)`)
    return { action: "decline" }
  }

  return {
    configure: (client, server) => {
      client.setRequestHandler(ElicitRequestSchema, (request) => answer(request, server.name))
      client.setNotificationHandler(ElicitationCompleteNotificationSchema, (n) => {
        const id = n.params.elicitationId
        completed.add(id)
        waiters.get(id)?.()
      })
      // The typed request errors keep the code (-32042) but not the URLs; keep them here.
      const callTool = client.callTool.bind(client)
      client.callTool = (async (...args: Parameters<typeof callTool>) => {
        try {
          return await callTool(...args)
        } catch (error) {
          if (error instanceof UrlElicitationRequiredError) {
            pending.set(server.name, error.elicitations.map((e) => ({ url: e.url, message: e.message, elicitationId: e.elicitationId })))
          }
          throw error
        }
      }) as typeof client.callTool
    },
    takeUrlElicitations: (server) => {
      const list = pending.get(server) ?? []
      pending.delete(server)
      return list
    },
    awaitCompletion: (elicitationId, timeoutMs) =>
      completed.has(elicitationId)
        ? Promise.resolve(true)
        : new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => {
            waiters.delete(elicitationId)
            resolve(false)
          }, timeoutMs)
          waiters.set(elicitationId, () => {
            clearTimeout(timer)
            waiters.delete(elicitationId)
            resolve(true)
          })
        })
  }
}

/** The run's elicitation state as a service, so the call command can retry URL elicitations. */
export class Elicitations extends Context.Tag("mcpctl/Elicitations")<Elicitations, ElicitationState>() {}
