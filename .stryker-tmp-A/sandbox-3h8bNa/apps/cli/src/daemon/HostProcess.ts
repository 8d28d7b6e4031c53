/**
 * A daemon host process as a resource: its release is the escalation. Asked to shut down (its
 * servers stop as on Ctrl-C), it gets a grace period, then SIGKILL.
 */
// @ts-nocheck

import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { ChildProcess } from "node:child_process"

/** How long a host process gets to shut its servers down before SIGKILL. */
const SHUTDOWN_GRACE = Duration.seconds(15)

/** Whether the child has exited. */
export const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null

/** Resolves when the child has exited (at once when it has). */
export const exitOf = (child: ChildProcess): Effect.Effect<void> =>
  Effect.async<void>((resume) => {
    if (exited(child)) return resume(Effect.void)
    const onExit = () => resume(Effect.void)
    child.once("exit", onExit)
    return Effect.sync(() => child.off("exit", onExit))
  })

/**
 * The release of a host process: asked to shut down as on Ctrl-C, SIGKILL when it has not exited
 * after the grace period (interruptible inside the finalizer, so the timeout can fire).
 */
export const shutDown = (child: ChildProcess): Effect.Effect<void> =>
  Effect.suspend(() => {
    if (exited(child)) return Effect.void
    if (child.connected) child.send({ type: "shutdown" }, () => {})
    return Effect.interruptible(exitOf(child)).pipe(
      Effect.timeoutOption(SHUTDOWN_GRACE),
      Effect.flatMap((done) =>
        Option.isSome(done) ? Effect.void : Effect.zipRight(Effect.sync(() => child.kill("SIGKILL")), exitOf(child)))
    )
  })
