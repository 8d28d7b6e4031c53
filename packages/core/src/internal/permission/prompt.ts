/**
 * What a person is asked about one call, and the terminal prompt that asks it (the
 * implementation behind `Prompter.layerTerminal` of `permission/Permission.ts`).
 */
import * as Effect from "effect/Effect"
import * as readline from "node:readline"
import { sanitize } from "../Sanitize.js"

/**
 * What a server says about a tool; shown when asking, never trusted to decide anything.
 */
export interface ToolAnnotations {
  readonly readOnly?: boolean | undefined
  readonly destructive?: boolean | undefined
  readonly openWorld?: boolean | undefined
  readonly title?: string | undefined
}

/**
 * Everything a person needs to judge one call.
 */
export interface PermissionRequest {
  /** Fully-qualified name, `mcp__<server>__<tool>`: what rules match against. */
  readonly tool: string
  readonly server: string
  /** The tool's name as the server spells it. */
  readonly toolName: string
  readonly annotations: ToolAnnotations
  readonly args: unknown
}

/**
 * A person's answer. `unavailable` means nobody could be asked (no terminal, stdin closed): the
 * call then fails with a message naming the rule to add, instead of a bare "no".
 */
export type PromptAnswer = "once" | "always" | "no" | "unavailable"

/** Arguments beyond this are cut in the prompt: a person cannot judge 1 MB of JSON anyway. */
const MAX_PROMPT_ARGS_CHARS = 4000
const MAX_PROMPT_ARGS_LINES = 60

/**
 * Server-provided text (titles) and arguments may carry terminal escapes that could redraw the
 * prompt and make a destructive call look harmless: shown visibly (`Sanitize`), one line each
 * for the names and the title so none can forge another line of the prompt.
 */
const line = (text: string): string => sanitize(text).replace(/\n/g, "\\x0a")

const prettyArgs = (args: unknown): string => {
  let text: string
  try {
    text = args === undefined ? "{}" : (JSON.stringify(args, null, 2) ?? String(args))
  } catch {
    text = String(args)
  }
  const lines = text.split("\n")
  let shown = lines.length > MAX_PROMPT_ARGS_LINES ? lines.slice(0, MAX_PROMPT_ARGS_LINES).join("\n") : text
  if (shown.length > MAX_PROMPT_ARGS_CHARS) shown = shown.slice(0, MAX_PROMPT_ARGS_CHARS)
  const hidden = text.length - shown.length
  return hidden > 0 ? `${shown}\n… (${hidden} more characters not shown)` : shown
}

/**
 * The text shown before asking: tool, server, annotations and arguments, all escaped. Exported so
 * other front ends (and tests) show the same thing.
 */
export const renderRequest = (request: PermissionRequest): string => {
  const { annotations: a } = request
  const traits = [
    a.readOnly === true ? "read-only" : undefined,
    a.destructive === true ? "destructive" : undefined,
    a.openWorld === true ? "open-world" : undefined
  ].filter((t): t is string => t !== undefined)
  const indent = (text: string) => text.split("\n").map((l) => `    ${l}`).join("\n")
  return [
    `Allow ${line(request.tool)}?`,
    `  server:      ${line(request.server)}`,
    `  tool:        ${line(request.toolName)}${a.title ? ` (${line(a.title)})` : ""}`,
    `  annotations: ${traits.length > 0 ? traits.join(", ") : "none"}`,
    `  arguments:`,
    indent(sanitize(prettyArgs(request.args)))
  ].join("\n")
}

/** Maps typed answers; anything else asks again. Empty is "no" so a stray Enter never approves. */
const parseAnswer = (line: string): "once" | "always" | "no" | undefined => {
  switch (line.trim().toLowerCase()) {
    case "y":
    case "yes":
    case "once":
      return "once"
    case "a":
    case "always":
      return "always"
    case "":
    case "n":
    case "no":
      return "no"
    default:
      return undefined
  }
}

/**
 * The terminal prompt over any pair of streams, so it can be driven by tests or by an embedding
 * application's own TTY. Ctrl-C is re-raised as SIGINT; end of input answers `unavailable`.
 */
export const askOnTerminal = (
  request: PermissionRequest,
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream
): Effect.Effect<PromptAnswer> =>
  Effect.async<PromptAnswer>((resume) => {
    const rl = readline.createInterface({ input, output, terminal: true })
    let done = false
    const finish = (answer: PromptAnswer) => {
      if (done) return
      done = true
      rl.close()
      resume(Effect.succeed(answer))
    }
    // readline swallows Ctrl-C on a TTY; re-raise it so the runtime's normal shutdown runs.
    rl.on("SIGINT", () => {
      done = true
      rl.close()
      process.kill(process.pid, "SIGINT")
    })
    // stdin ended (EOF, Ctrl-D): nobody can answer.
    rl.on("close", () => finish("unavailable"))
    output.write(`${renderRequest(request)}\n`)
    const ask = () =>
      rl.question("[y] once  [a] always  [n] no > ", (line) => {
        const answer = parseAnswer(line)
        if (answer === undefined) {
          output.write("Please answer y (once), a (always) or n (no).\n")
          ask()
        } else {
          finish(answer)
        }
      })
    ask()
    return Effect.sync(() => {
      done = true
      rl.close()
    })
  })
