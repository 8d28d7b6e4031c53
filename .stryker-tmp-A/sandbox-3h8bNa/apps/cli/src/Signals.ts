/**
 * `runMain` with the signal handling of CLI.md, "Lifecycle": the first SIGINT, SIGTERM or SIGHUP
 * (a closed terminal) interrupts the program, so every scope closes and every server gets the
 * orderly shutdown; a second signal sends SIGKILL to every server's process group at once, so
 * the shutdown finishes now instead of being skipped; a third exits. Effect's
 * `NodeRuntime.runMain` handles only SIGINT and SIGTERM and drops its handlers after the first,
 * so a second Ctrl-C killed mcpctl in the middle of its shutdown and left the servers running.
 * The first signal also hands the watchdog the shutdown's deadline (SIGKILL to every group
 * 550 ms from now): the orderly shutdown runs on this process's timers, which a busy event loop
 * or a starved CPU delays, while the watchdog is a separate process that only sleeps.
 */
// @ts-nocheck

import { makeRunMain } from "@effect/platform/Runtime"
import * as ProcessGroups from "@mcpctl/core/internal/transport/ProcessGroups"

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const

/** Drop-in for `NodeRuntime.runMain` (same options). */
export const runMain = makeRunMain(({ fiber, teardown }) => {
  const keepAlive = setInterval(() => {}, 2 ** 31 - 1)
  let received = 0
  const onSignal = (signal: NodeJS.Signals) => {
    received++
    // After a hang-up the terminal is gone: writing to it must not crash the shutdown.
    if (signal === "SIGHUP") for (const stream of [process.stdout, process.stderr]) stream.on("error", () => {})
    if (received === 1) {
      ProcessGroups.killAllAt()
      fiber.unsafeInterruptAsFork(fiber.id())
    }
    else ProcessGroups.killAll()
    if (received >= 3) process.exit(130)
  }
  // Never removed: with a listener installed a signal cannot kill mcpctl before its servers.
  for (const signal of SIGNALS) process.on(signal, onSignal)
  fiber.addObserver((exit) => {
    clearInterval(keepAlive)
    teardown(exit, (code) => {
      if (received > 0 || code !== 0) process.exit(code)
    })
  })
})
