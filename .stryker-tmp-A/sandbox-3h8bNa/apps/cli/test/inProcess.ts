/**
 * Runs the CLI in this test process, the way `mcpctl ARGS…` runs it but without a spawn: the same
 * program (src/Program.ts) with its own run record, on the platform layer, with a console that
 * captures what Effect prints (help, @effect/cli's errors, the `mcpctl: warning:` lines) and the
 * process streams captured for what the commands write. The environment, the working directory
 * and `process.argv` are the run's for its duration; runs queue, one at a time.
 *
 * For rendering, flags, messages and exit codes. Signals, the daemon, `serve` and the relay stay
 * spawned (support.ts `run`): they are about the process.
 */
// @ts-nocheck

import * as NodeContext from "@effect/platform-node/NodeContext"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import { format } from "node:util"
import { codeOf } from "../src/ExitCode.js"
import { logsFor, program } from "../src/Program.js"
import { makeRun, withRun } from "../src/RunState.js"
import { cliBin, hostEnv, repoRoot, type RunResult } from "./support.js"

type Write = typeof process.stdout.write

/** A `write` that appends to `sink` (and calls back, as a stream would). */
const capture = (sink: { text: string }): Write =>
  ((chunk: unknown, encoding?: unknown, callback?: unknown) => {
    sink.text += typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString("utf8")
    const cb = typeof encoding === "function" ? encoding : callback
    if (typeof cb === "function") process.nextTick(cb as () => void)
    return true
  }) as Write

/** Effect's console writing into the two sinks, as the default one writes to stdout and stderr. */
const captureConsole = (out: { text: string }, err: { text: string }): Console.Console => {
  const line = (sink: { text: string }) => (...args: ReadonlyArray<unknown>) => void (sink.text += format(...args) + "\n")
  const unsafe: Console.UnsafeConsole = {
    assert: () => {},
    clear: () => {},
    count: () => {},
    countReset: () => {},
    debug: line(err),
    dir: line(out),
    dirxml: line(out),
    error: line(err),
    group: () => {},
    groupCollapsed: () => {},
    groupEnd: () => {},
    info: line(out),
    log: line(out),
    table: line(out),
    time: () => {},
    timeEnd: () => {},
    timeLog: () => {},
    trace: line(err),
    warn: line(err)
  }
  const lift = <K extends keyof Console.UnsafeConsole>(k: K) => (...args: ReadonlyArray<any>) => Effect.sync(() => (unsafe[k] as any)(...args))
  return {
    [Console.TypeId]: Console.TypeId,
    unsafe,
    assert: (condition, ...args) => Effect.sync(() => unsafe.assert(condition, ...args)),
    clear: Effect.void,
    count: () => Effect.void,
    countReset: () => Effect.void,
    debug: lift("debug"),
    dir: lift("dir"),
    dirxml: lift("dirxml"),
    error: lift("error"),
    group: () => Effect.void,
    groupEnd: Effect.void,
    info: lift("info"),
    log: lift("log"),
    table: lift("table"),
    time: () => Effect.void,
    timeEnd: () => Effect.void,
    timeLog: () => Effect.void,
    trace: lift("trace"),
    warn: lift("warn")
  } as Console.Console
}

let queue: Promise<unknown> = Promise.resolve()

/**
 * Replaces the environment in place: the real `process.env` object writes through to the
 * process's environment, which `os.homedir()` and child processes read (a new object would not).
 */
const setEnv = (env: Readonly<Record<string, string | undefined>>) => {
  for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key]
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) delete process.env[key]
    else if (process.env[key] !== value) process.env[key] = value
  }
}

const runNow = async (
  args: ReadonlyArray<string>,
  options: { readonly home: string; readonly cwd?: string; readonly env?: Record<string, string> }
): Promise<RunResult> => {
  const saved = { env: { ...process.env }, argv: process.argv, cwd: process.cwd(), out: process.stdout.write, err: process.stderr.write }
  const out = { text: "" }
  const err = { text: "" }
  const argv = [process.execPath, cliBin, ...args]
  setEnv({ ...hostEnv, MCPCTL_HOME: options.home, ...options.env })
  process.argv = argv
  process.chdir(options.cwd ?? repoRoot)
  process.stdout.write = capture(out)
  process.stderr.write = capture(err)
  try {
    const run = makeRun()
    const exit = await Effect.runPromiseExit(
      program(argv).pipe(
        withRun(run),
        Effect.provide(NodeContext.layer),
        Effect.provide(logsFor(args)),
        Effect.withConsole(captureConsole(out, err))
      )
    )
    const code = codeOf(exit, run)
    return { code, stdout: out.text, stderr: err.text, pid: process.pid }
  } finally {
    process.stdout.write = saved.out
    process.stderr.write = saved.err
    process.chdir(saved.cwd)
    process.argv = saved.argv
    setEnv(saved.env)
  }
}

/** Runs `mcpctl ARGS…` in this process to completion (the same options and result as support.ts `run`). */
export const runInProcess = (
  args: ReadonlyArray<string>,
  options: { readonly home: string; readonly cwd?: string; readonly env?: Record<string, string> }
): Promise<RunResult> => {
  const next = queue.then(() => runNow(args, options))
  queue = next.catch(() => undefined)
  return next
}
