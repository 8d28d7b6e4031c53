/**
 * The exit code of a run (docs/CLI.md, Exit codes): our tagged errors carry theirs, bad command
 * lines are usage errors (2), an interrupted run exits 128 + the signal's number as shells do
 * (130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP). With `--json` every failure is one
 * `{"error": …}` document: our tagged errors write theirs as they happen (Host.report); a bad
 * command line @effect/cli refused and an internal error get one here.
 */
// @ts-nocheck

import * as HelpDoc from "@effect/cli/HelpDoc"
import * as Cause from "effect/Cause"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import { exitCodeFor } from "./Host.js"
import { json, jsonWritten } from "./Render.js"
import type { Run } from "./RunState.js"

/** 128 + the signal number: what a shell reports for a process a signal ended. */
const signalCodes: Readonly<Record<string, number>> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 }

const failureDocument = (run: Run, type: string, message: string, exitCode: number) => {
  if (process.argv.includes("--json") && !jsonWritten(run)) json({ error: { type, message, exitCode } }, run)
}

/**
 * Remembers which signal interrupted the run, so the exit code can tell which it was; the result
 * says which (the first), if any. Listening does not change what the signal does:
 * Signals.runMain's own handlers (SIGINT, SIGTERM, SIGHUP) interrupt the program and hurry the
 * shutdown; this one only takes note of the first.
 */
export const recordSignals = (): () => string | undefined => {
  let stoppedBy: string | undefined
  for (const signal of Object.keys(signalCodes)) {
    process.once(signal as NodeJS.Signals, () => (stoppedBy ??= signal))
  }
  return () => stoppedBy
}

/** The code for an interruption by `signal` (default SIGINT: Ctrl-C) (pure). */
export const interruptedCode = (signal: string | undefined): number => signalCodes[signal ?? "SIGINT"] ?? 130

/**
 * The exit code of a finished run (`run`: its record; `signal`: the one that stopped it, if any);
 * prints the cause of a defect, which no message explains.
 */
export const codeOf = (exit: Exit.Exit<unknown, unknown>, run: Run, signal?: string): number => {
  if (Exit.isSuccess(exit)) return exitCodeFor(undefined, run)
  if (Cause.isInterruptedOnly(exit.cause)) return interruptedCode(signal)
  const failure = Cause.failureOption(exit.cause)
  if (Option.isSome(failure)) {
    const error = failure.value as { _tag?: string }
    if (typeof error?._tag === "string" && "message" in (error as object)) {
      try {
        return exitCodeFor(error as never, run) ?? 70
      } catch {
        return 2
      }
    }
    const help = (failure.value as { error?: HelpDoc.HelpDoc })?.error
    // eslint-disable-next-line no-control-regex
    failureDocument(run, "UsageError", help ? HelpDoc.toAnsiText(help).replace(/\x1b\[[0-9;]*m/g, "").trim() : String(failure.value), 2)
    return 2
  }
  process.stderr.write(`mcpctl: internal error\n${Cause.pretty(exit.cause)}\n`)
  const defect = Cause.squash(exit.cause)
  failureDocument(run, "InternalError", `internal error: ${defect instanceof Error ? defect.message : String(defect)}`, 70)
  return 70
}
