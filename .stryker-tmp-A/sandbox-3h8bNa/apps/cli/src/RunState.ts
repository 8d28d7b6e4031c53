/**
 * What one run of a command remembers besides its output: whether its `--json` document is out,
 * and its exit code when it does not fail. It is a service of the run's fibers (`RunState`,
 * provided by main for a run of its own and by the daemon's host process for each relayed
 * command, daemon/Worker.ts), so commands running at once in one process each have their own.
 */
// @ts-nocheck

import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"

/** One run's record. */
export interface Run {
  documentWritten: boolean
  successCode: number
}

/** A fresh record: nothing written, exit code 0. */
export const makeRun = (): Run => ({ documentWritten: false, successCode: 0 })

/**
 * The run the fiber belongs to. Code outside any run (a library caller, a test) gets one default
 * record, as a run of its own would.
 */
export class RunState extends Context.Reference<RunState>()("mcpctl/cli/RunState", { defaultValue: makeRun }) {}

/**
 * The run of the code running now, read from the current fiber's services: for the synchronous
 * writers (Render.json) that run inside a command's fiber but are not Effects themselves.
 */
export const currentRun = (): Run => {
  const fiber = Fiber.getCurrentFiber()
  return Context.get(Option.isSome(fiber) ? fiber.value.currentContext : Context.empty(), RunState)
}

/** Runs `effect` as the run `run`. */
export const withRun = (run: Run) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.provideService(effect, RunState, run)
