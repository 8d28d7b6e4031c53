/**
 * `runMain` with the signal handling of CLI.md, "Lifecycle": the first SIGINT, SIGTERM or SIGHUP
 * (a closed terminal) interrupts the program, so every scope closes and every server gets the
 * orderly shutdown; a second signal sends SIGKILL to every server's process group at once, so
 * the shutdown finishes now instead of being skipped; a third exits. Effect's
 * `NodeRuntime.runMain` handles only SIGINT and SIGTERM and drops its handlers after the first,
 * so a second Ctrl-C killed mcpctl in the middle of its shutdown and left the servers running.
 * The first signal also begins every server's shutdown itself, synchronously, before the
 * program is interrupted (Reaper.endAll: SIGINT to every group now, the escalation on the one
 * reaper timer), and hands the watchdog the shutdown's deadline (SIGKILL to every group 550 ms
 * from now): unwinding fifty connections' fibers and scopes costs the host CPU that a busy
 * machine hands out slowly, and the servers must not wait for it; the watchdog is a separate
 * process that only sleeps. `serve` opts out: its first signal is a drain, during which its
 * servers still answer the calls in flight.
 */
import { makeRunMain } from "@effect/platform/Runtime"
import * as ProcessGroups from "@mcpctl/core/internal/transport/ProcessGroups"
import * as Reaper from "@mcpctl/core/internal/transport/Reaper"

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const

/** Whether the first signal ends the servers at once: not for `serve`, which drains (pure). */
export const endsServersOnSignal = (args: ReadonlyArray<string>): boolean =>
  args.find((arg) => !arg.startsWith("-")) !== "serve"

/** Drop-in for `NodeRuntime.runMain` (same options); `endServers: false` for a draining host. */
export const runMainWith = ({ endServers }: { readonly endServers: boolean }) => makeRunMain(({ fiber, teardown }) => {
  const keepAlive = setInterval(() => {}, 2 ** 31 - 1)
  let received = 0
  const onSignal = (signal: NodeJS.Signals) => {
    received++
    // After a hang-up the terminal is gone: writing to it must not crash the shutdown.
    if (signal === "SIGHUP") for (const stream of [process.stdout, process.stderr]) stream.on("error", () => {})
    if (received === 1) {
      if (endServers) {
        ProcessGroups.killAllAt()
        Reaper.endAll()
      }
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

/** {@link runMainWith} for a command line: every command but `serve` ends its servers at once. */
export const runMain = runMainWith({ endServers: endsServersOnSignal(process.argv.slice(2)) })
