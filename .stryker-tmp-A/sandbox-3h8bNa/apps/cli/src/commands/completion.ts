/** `mcpctl completion bash|zsh|fish`: prints the shell's completion script (completion/Scripts.ts). */
// @ts-nocheck

import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Console from "effect/Console"
import { scriptFor, shells } from "../completion/Scripts.js"

const shell = Args.choice(shells.map((s) => [s, s] as const), { name: "bash|zsh|fish" }).pipe(
  Args.withDescription("The shell to print the completion script of")
)

export const completion = Command.make("completion", { shell }, ({ shell }) => Console.log(scriptFor(shell).trimEnd())).pipe(
  Command.withDescription(
    "Print a shell completion script: commands, options, server names and tool names (from the catalogue cache; nothing is started)"
  )
)
