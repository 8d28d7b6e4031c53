/**
 * The CLI as one program of a command line: what main runs under `Signals.runMain`, what a daemon
 * host process runs for each relayed command, and what the CLI tests run in process. It needs
 * only the platform (NodeContext), a logger (`logsFor`) and, for its exit code, a `RunState`.
 */
// @ts-nocheck

import * as CliConfig from "@effect/cli/CliConfig"
import * as Command from "@effect/cli/Command"
import type * as NodeContext from "@effect/platform-node/NodeContext"
import * as CoreHost from "@mcpctl/core/Host"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type * as Layer from "effect/Layer"
import { checkArgs, commandsOf } from "./Argv.js"
import { mcpctl } from "./Commands.js"
import { withPlainConsole } from "./Console.js"
import { logLevelFromArgv } from "./Flags.js"
import { showHelp } from "./HelpCommand.js"
import { report, VERSION } from "./Host.js"
import * as Logs from "./Logs.js"

const cli = Command.run(mcpctl, { name: "mcpctl", version: VERSION })

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

/** The program of one command line (`argv` as `process.argv` has it: node, the bin, then the arguments). */
export const program = (argv: ReadonlyArray<string>): Effect.Effect<void, unknown, NodeContext.NodeContext> =>
  run(argv).pipe(withPlainConsole, Effect.provide(cliConfig))

/**
 * Effect's own logs (warnings about caches, debug logs) go to stderr at `--log-level` and above
 * (default warning), as `mcpctl: warning: …` lines (Logs.ts): stdout carries only the command's
 * output, the `--json` document, or serve's JSON-RPC stream.
 */
export const logsFor = (args: ReadonlyArray<string>): Layer.Layer<never> =>
  Logs.layer(CoreHost.effectLogLevel(logLevelFromArgv(args) ?? "warning"))
