/**
 * mcpctl: the command line. Composes the commands and runs them under `Signals.runMain`, so
 * Ctrl-C, SIGTERM and SIGHUP interrupt the program and every scope (child processes included)
 * closes before exit, and a second signal hurries that up without skipping it.
 */
// @ts-nocheck

import * as NodeContext from "@effect/platform-node/NodeContext"
import * as Effect from "effect/Effect"
import { codeOf, recordSignals } from "./ExitCode.js"
import { logsFor, program } from "./Program.js"
import { makeRun, withRun } from "./RunState.js"
import { runMain } from "./Signals.js"
import * as Daemon from "./daemon/Daemon.js"
import { runWorker } from "./daemon/Worker.js"

// Which signal stopped a run decides its exit code (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP).
const stoppedBy = recordSignals()

/**
 * Exits explicitly, so a server that leaves a socket open can never keep mcpctl alive, but only
 * once stdout and stderr are flushed: writes to a pipe are asynchronous, and `process.exit` would
 * cut a large `--json` document short for a slow reader. A stuck reader gets 10 s.
 */
const exitAfterFlush = (code: number) => {
  setTimeout(() => process.exit(code), 10_000).unref()
  process.stdout.write("", () => process.stderr.write("", () => process.exit(code)))
}

// `mcpctl daemon start` runs this file again as the daemon, and the daemon as its host processes.
const role = process.env.MCPCTL_DAEMON_ROLE
if (role === "daemon") {
  Effect.runFork(Daemon.main)
} else if (role === "worker") {
  runWorker({ program, codeOf: (exit, state) => codeOf(exit, state) })
}

// This run's record (its exit code, whether its JSON document is out): a service of its fibers.
const thisRun = makeRun()
if (role !== "daemon" && role !== "worker") program(process.argv).pipe(
  withRun(thisRun),
  Effect.provide(NodeContext.layer),
  Effect.provide(logsFor(process.argv.slice(2))),
  runMain({
    disableErrorReporting: true,
    disablePrettyLogger: true,
    teardown: (exit) => exitAfterFlush(codeOf(exit, thisRun, stoppedBy()))
  })
)
