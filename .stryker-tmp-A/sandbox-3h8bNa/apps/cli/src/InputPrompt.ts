/**
 * Asks a person for a VS Code input (`${input:id}` of a `--config` file) on the terminal: the
 * description as the question, no echo for `password` inputs. Used only when stdin and stderr
 * are terminals; otherwise loading fails and names the `MCPCTL_INPUT_*` variable to set.
 */
// @ts-nocheck

import type { HostInput } from "@mcpctl/core/ServerConfig"
import * as readline from "node:readline"

/** One answer read from stdin; an empty answer or Ctrl-D is no answer. */
export const askInputOnTerminal = (input: HostInput): Promise<string | undefined> =>
  new Promise((resolve) => {
    const rl = readline.createInterface({ input: process.stdin, output: process.stderr, terminal: true })
    const question = `${input.description ?? `Value of input "${input.id}"`} (${input.variable}): `
    rl.question(question, (answer) => done(answer))
    if (input.password) {
      // The question is on the screen: from now on, what is typed is not echoed.
      ;(rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = () => undefined
    }
    let settled = false
    const done = (answer: string | undefined) => {
      if (settled) return
      settled = true
      if (input.password) process.stderr.write("\n")
      rl.close()
      resolve(answer === undefined || answer === "" ? undefined : answer)
    }
    rl.on("close", () => done(undefined))
  })
