/**
 * mcpctl: the command line. Composes the commands and runs them under `Signals.runMain`, so
 * Ctrl-C, SIGTERM and SIGHUP interrupt the program and every scope (child processes included)
 * closes before exit, and a second signal hurries that up without skipping it.
 */
import * as Command from "@effect/cli/Command"
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as CoreHost from "@mcpctl/core/Host"
import { auth, logout } from "./commands/auth.js"
import { call } from "./commands/call.js"
import { config } from "./commands/config.js"
import { daemon } from "./commands/daemon.js"
import { importCommand } from "./commands/import.js"
import { add, get, remove } from "./commands/manage.js"
import { prompt, prompts } from "./commands/prompts.js"
import { read, resources } from "./commands/resources.js"
import { serve } from "./commands/serve.js"
import { servers } from "./commands/servers.js"
import { tools } from "./commands/tools.js"
import { trust } from "./commands/trust.js"
import { logLevelFromArgv } from "./Flags.js"
import { exitCodeFor, VERSION } from "./Host.js"
import { json, jsonWritten } from "./Render.js"
import { runMain } from "./Signals.js"
import { runDaemon } from "./daemon/Daemon.js"
import { runWorker } from "./daemon/Worker.js"
import { runDir } from "./daemon/Wire.js"

const mcpctl = Command.make("mcpctl").pipe(
  Command.withDescription("An MCP client host: connect to MCP servers, list and call their tools"),
  Command.withSubcommands([servers, tools, call, resources, read, prompts, prompt, add, remove, get, importCommand, config, auth, logout, serve, trust, daemon])
)

const cli = Command.run(mcpctl, { name: "mcpctl", version: VERSION })

/**
 * With `--json`, every failure is one `{"error": …}` document on stdout: our tagged errors write
 * theirs as they happen (Host.report); a bad command line and an internal error get one here.
 */
const failureDocument = (type: string, message: string, exitCode: number) => {
  if (process.argv.includes("--json") && !jsonWritten()) json({ error: { type, message, exitCode } })
}

/** Exit codes of docs/CLI.md: our tagged errors carry theirs; bad command lines are usage errors (2). */
const codeOf = (exit: Exit.Exit<unknown, unknown>): number => {
  if (Exit.isSuccess(exit)) return exitCodeFor(undefined)
  if (Cause.isInterruptedOnly(exit.cause)) return 130
  const failure = Cause.failureOption(exit.cause)
  if (Option.isSome(failure)) {
    const error = failure.value as { _tag?: string }
    if (typeof error?._tag === "string" && "message" in (error as object)) {
      try {
        return exitCodeFor(error as never) ?? 70
      } catch {
        return 2
      }
    }
    const help = (failure.value as { error?: HelpDoc.HelpDoc })?.error
    // eslint-disable-next-line no-control-regex
    failureDocument("UsageError", help ? HelpDoc.toAnsiText(help).replace(/\x1b\[[0-9;]*m/g, "").trim() : String(failure.value), 2)
    return 2
  }
  process.stderr.write(`mcpctl: internal error\n${Cause.pretty(exit.cause)}\n`)
  const defect = Cause.squash(exit.cause)
  failureDocument("InternalError", `internal error: ${defect instanceof Error ? defect.message : String(defect)}`, 70)
  return 70
}

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
 * (default warning): stdout carries only the command's output, the `--json` document, or serve's
 * JSON-RPC stream.
 */
const logs = CoreHost.layerLogger(CoreHost.effectLogLevel(logLevelFromArgv(process.argv.slice(2)) ?? "warning"))

// `mcpctl daemon start` runs this file again as the daemon, and the daemon as its host processes.
const role = process.env.MCPCTL_DAEMON_ROLE
if (role === "daemon") {
  runDaemon({
    dir: runDir(process.env),
    idleMs: Number(process.env.MCPCTL_DAEMON_IDLE_MS) || 30 * 60_000,
    serverIdleMs: Number(process.env.MCPCTL_DAEMON_SERVER_IDLE_MS) || 5 * 60_000
  })
} else if (role === "worker") runWorker({ program: cli, codeOf })

if (role !== "daemon" && role !== "worker") cli(process.argv).pipe(
  Effect.provide(NodeContext.layer),
  Effect.provide(logs),
  runMain({
    disableErrorReporting: true,
    disablePrettyLogger: true,
    teardown: (exit) => exitAfterFlush(codeOf(exit))
  })
)
