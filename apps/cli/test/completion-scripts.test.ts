/**
 * The zsh and fish completion scripts, without zsh or fish (neither is installed where the tests
 * run; bash's script runs for real in completion.test.ts): `mcpctl completion zsh|fish` prints
 * them, each registers itself for `mcpctl`, hands `mcpctl __complete` the line up to the cursor,
 * and uses the shell's file names for `:files`. The line zsh builds (`words[1,CURRENT]` joined by
 * spaces) is replayed here into the completer, so a script and the completer agree on its shape.
 */
import { afterAll, describe, expect, it } from "@effect/vitest"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { mcpctl } from "../src/Commands.js"
import { completionOutput } from "../src/completion/Entry.js"
import { FILES, scriptFor } from "../src/completion/Scripts.js"
import { treeOf } from "../src/completion/Tree.js"
import { runInProcess as run } from "./inProcess.js"

const dir = mkdtempSync(join(tmpdir(), "mcpctl-completion-scripts-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const home = join(dir, "home")
const tree = treeOf(mcpctl)

/** The one `mcpctl __complete …` call of a script, with what it passes. */
const completeCall = (script: string) => {
  const calls = script.split("\n").filter((l) => l.includes("mcpctl __complete"))
  expect(calls).toHaveLength(1)
  return calls[0]!
}

/** zsh's `${(j: :)words[1,CURRENT]}`: the words up to the cursor's (1-based, inclusive), joined by spaces. */
const zshLine = (words: ReadonlyArray<string>, current: number) => words.slice(0, current).join(" ")

/** What `__complete` prints for `line` in an empty home and project: one word a line, or `:files`. */
const answer = (line: string) =>
  completionOutput(tree, line, { HOME: dir, MCPCTL_HOME: home }, dir).split("\n").filter(Boolean)

describe("mcpctl completion zsh|fish", () => {
  it("prints the shell's script, exit 0", async () => {
    for (const shell of ["zsh", "fish"] as const) {
      const r = await run(["completion", shell], { home })
      expect(r.code).toBe(0)
      expect(r.stdout.trimEnd()).toBe(scriptFor(shell).trimEnd())
    }
  })
})

describe("the zsh script", () => {
  const script = scriptFor("zsh")

  it("is a completion function for mcpctl, registered where compinit runs", () => {
    expect(script.split("\n")[0]).toBe("#compdef mcpctl")
    expect(script).toContain("if (( $+functions[compdef] )); then compdef _mcpctl mcpctl; fi")
  })

  it("asks __complete for the words up to the cursor's, one answer a line", () => {
    expect(script).toContain('local line="${(j: :)words[1,CURRENT]}"')
    expect(completeCall(script)).toContain('out=("${(@f)$(command mcpctl __complete "$line" 2>/dev/null)}")')
  })

  it("offers files for :files, and key= words without a space after them", () => {
    expect(script).toMatch(new RegExp(`if \\[\\[ "\\$\\{out\\[1\\]\\}" == "${FILES}" \\]\\]; then\\n\\s+_files\\n\\s+return`))
    expect(script).toContain("if [[ \"$word\" == *= ]]; then full+=(\"$word\"); else bare+=(\"$word\"); fi")
    expect(script).toContain("compadd -S '' -- $full")
    expect(script).toContain("compadd -- $bare")
  })

  it("builds lines the completer reads as zsh meant them", () => {
    // The cursor on a new word: the line ends with a space, so the next word is completed.
    expect(answer(zshLine(["mcpctl", "completion", ""], 3))).toEqual(["bash", "fish", "zsh"])
    // The cursor in a word: that word is the prefix.
    expect(answer(zshLine(["mcpctl", "ser"], 2))).toEqual(["serve", "servers"])
    // Words after the cursor are not sent.
    expect(answer(zshLine(["mcpctl", "ser", "--json"], 2))).toEqual(["serve", "servers"])
    expect(answer(zshLine(["mcpctl", "tools", "--config", ""], 4))).toEqual([FILES])
  })
})

describe("the fish script", () => {
  const script = scriptFor("fish")

  it("completes mcpctl through its function, with no file names unless asked", () => {
    expect(script).toContain("complete -c mcpctl -f -a '(__mcpctl_complete)'")
    expect(script).toContain("function __mcpctl_complete")
  })

  it("asks __complete for the command line up to the cursor", () => {
    expect(completeCall(script)).toContain("set -l out (command mcpctl __complete (commandline -cp) 2>/dev/null)")
  })

  it("offers the paths of the word at the cursor for :files, else each answer as a candidate", () => {
    expect(script).toContain(`if test "$out[1]" = "${FILES}"`)
    expect(script).toContain("__fish_complete_path (commandline -ct)")
    expect(script).toContain("printf '%s\\n' $out")
  })
})
