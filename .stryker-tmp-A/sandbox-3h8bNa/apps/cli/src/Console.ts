/**
 * The console @effect/cli prints help, version and its own errors with. Its help is ANSI-styled
 * text; into a pipe or a file (or with NO_COLOR set) the styling is taken out, so `mcpctl --help |
 * less` and `> help.txt` read as plain text.
 */
// @ts-nocheck

import * as Console from "effect/Console"
import * as Effect from "effect/Effect"

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;]*[A-Za-z]/g

/** Text without ANSI escape sequences (pure). */
export const stripAnsi = (text: string): string => text.replace(ANSI, "")

const plain = (args: ReadonlyArray<unknown>) => args.map((a) => (typeof a === "string" ? stripAnsi(a) : a))

/** Whether a stream should get colours: a terminal, and NO_COLOR unset (https://no-color.org). */
export const colours = (stream: { readonly isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean =>
  Boolean(stream.isTTY) && (env.NO_COLOR === undefined || env.NO_COLOR === "")

/** Runs `effect` with a console that strips styling from whatever goes where colours do not belong. */
export const withPlainConsole = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> => {
  const out = colours(process.stdout)
  const err = colours(process.stderr)
  if (out && err) return effect
  return Effect.flatMap(Effect.console, (console) => {
    const log = (...args: ReadonlyArray<unknown>) => console.log(...(out ? args : plain(args)))
    const error = (...args: ReadonlyArray<unknown>) => console.error(...(err ? args : plain(args)))
    const unsafe: Console.UnsafeConsole = {
      ...console.unsafe,
      log: (...args) => console.unsafe.log(...(out ? args : plain(args))),
      error: (...args) => console.unsafe.error(...(err ? args : plain(args)))
    }
    return Effect.withConsole(effect, { ...console, log, error, unsafe })
  })
}
