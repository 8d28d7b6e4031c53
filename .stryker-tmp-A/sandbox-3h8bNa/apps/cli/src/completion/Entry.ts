/**
 * The entry of `bin/complete.cjs` (build.mjs): `mcpctl __complete LINE`, run by the shell at
 * every Tab. bin/mcpctl.mjs hands the command here before the main bundle loads, so a completion
 * starts neither Effect's runtime nor the commands: the tree comes as JSON written at build time.
 */
// @ts-nocheck

import { complete } from "./Complete.js"
import { FILES } from "./Scripts.js"
import type { TreeCommand } from "./Tree.js"
import { worldAt } from "./World.js"

/** What `mcpctl __complete LINE` prints: one word a line, or `:files`. */
export const completionOutput = (tree: TreeCommand, line: string, env: NodeJS.ProcessEnv, cwd: string): string => {
  const result = complete(tree, line, worldAt(env, cwd))
  return result._tag === "Files" ? `${FILES}\n` : result.words.map((w) => `${w}\n`).join("")
}

/** Runs `__complete` for this process (`process.argv` is `node bin/mcpctl.mjs __complete LINE`). */
export const main = (tree: TreeCommand): void => {
  const line = process.argv[3] ?? ""
  try {
    process.stdout.write(completionOutput(tree, line, process.env, process.cwd()))
  } catch {
    // A completion that fails offers nothing; the shell's line stays as typed.
  }
}
