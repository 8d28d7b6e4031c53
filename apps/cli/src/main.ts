/**
 * mcpctl: the command line. Composes the commands and runs them under `Signals.runMain`, so
 * Ctrl-C, SIGTERM and SIGHUP interrupt the program and every scope (child processes included)
 * closes before exit, and a second signal hurries that up without skipping it.
 */
import * as CliConfig from "@effect/cli/CliConfig"
import * as Command from "@effect/cli/Command"
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as CoreHost from "@mcpctl/core/Host"
import * as Logs from "./Logs.js"
import { checkArgs, commandsOf } from "./Argv.js"
import { mcpctl } from "./Commands.js"
import { withPlainConsole } from "./Console.js"
import { codeOf, recordSignals } from "./ExitCode.js"
import { logLevelFromArgv } from "./Flags.js"
import { showHelp } from "./HelpCommand.js"
import { report, VERSION } from "./Host.js"
import { makeRun, withRun } from "./RunState.js"
import { runMain } from "./Signals.js"
import { runDaemon } from "./daemon/Daemon.js"
import { runWorker } from "./daemon/Worker.js"
import { runDir } from "./daemon/Wire.js"

const cli = Command.run(mcpctl, { name: "mcpctl", version: VERSION })

// Which signal stopped a run decides its exit code (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP).
const stoppedBy = recordSignals()

/**
 * The command line checked first (Argv.ts): unknown flags, flags without their value and values
 * of the wrong type are usage errors naming the flag, before @effect/cli could misread them.
 */
const run = (argv: ReadonlyArray<string>) =>
  showHelp(argv.slice(2)) ?? Either.match(checkArgs(argv.slice(2), commandsOf(mcpctl), Boolean(process.stdin.isTTY)), {
    onLeft: (error) =>
      Effect.sync(() => report({ json: argv.includes("--json") }, error)).pipe(Effect.zipRight(Effect.fail(error))),
    onRight: ({ args }) => cli([...argv.slice(0, 2), ...args])
  })

/**
 * Help lists each command's own options only: @effect/cli's built-ins would list a second
 * `--log-level` (Effect's levels) beside ours; `--help` and `--version` are named in the
 * description instead.
 */
const cliConfig = CliConfig.layer({ showBuiltIns: false })

/**
 * Exits explicitly, so a server that leaves a socket open can never keep mcpctl alive, but only
 * once stdout and stderr are flushed: writes to a pipe are asynchronous, and `process.exit` would
 * cut a large `--json` document short for a slow reader. A stuck reader gets 10 s.
 */
const exitAfterFlush = (code: number) => {
  setTimeout(() => process.exit(code), 10_000).unref()
  process.stdout.write("", () => process.stderr.write("", () => process.exit(code)))
}

/**
 * Effect's own logs (warnings about caches, debug logs) go to stderr at `--log-level` and above
 * (default warning), as `mcpctl: warning: …` lines (Logs.ts): stdout carries only the command's output, the `--json` document, or serve's
 * JSON-RPC stream.
 */
const logs = Logs.layer(CoreHost.effectLogLevel(logLevelFromArgv(process.argv.slice(2)) ?? "warning"))

// `mcpctl daemon start` runs this file again as the daemon, and the daemon as its host processes.
const role = process.env.MCPCTL_DAEMON_ROLE
if (role === "daemon") {
  runDaemon({
    dir: runDir(process.env),
    idleMs: Number(process.env.MCPCTL_DAEMON_IDLE_MS) || 30 * 60_000,
    serverIdleMs: Number(process.env.MCPCTL_DAEMON_SERVER_IDLE_MS) || 5 * 60_000
  })
} else if (role === "worker") {
  runWorker({ program: (argv) => run(argv).pipe(withPlainConsole, Effect.provide(cliConfig)), codeOf: (exit, state) => codeOf(exit, state) })
}

// This run's record (its exit code, whether its JSON document is out): a service of its fibers.
const thisRun = makeRun()
if (role !== "daemon" && role !== "worker") run(process.argv).pipe(
  withPlainConsole,
  withRun(thisRun),
  Effect.provide(cliConfig),
  Effect.provide(NodeContext.layer),
  Effect.provide(logs),
  runMain({
    disableErrorReporting: true,
    disablePrettyLogger: true,
    teardown: (exit) => exitAfterFlush(codeOf(exit, thisRun, stoppedBy()))
  })
)
