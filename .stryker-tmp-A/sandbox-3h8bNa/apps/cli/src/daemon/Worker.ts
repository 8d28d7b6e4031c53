/**
 * A daemon host process: a child of the daemon (an IPC channel, `MCPCTL_DAEMON_ROLE=worker`) that
 * runs relayed commands on its warm hosts, many at once. The daemon hands over each client's
 * socket with the request; what the command writes to stdout and stderr goes to that socket as
 * frames, the exit code last.
 *
 * Several commands at once in one process: what a command reads of the process (argv, terminal
 * facts, stdout and stderr, its exit code and whether its JSON document is out) is its own. Each
 * command's fiber carries its record (a FiberRef, inherited by the fibers it forks), and
 * `process.argv`, the streams' `write` and `isTTY`/`columns`/`rows` answer for the command whose
 * fiber is running. Code that runs outside any command's fiber (a server's log notification, a
 * connection's background fiber) writes to the one command running, or, when several run, to the
 * daemon's log. Working directory and environment are the same for every command of a host
 * process: the daemon routes by them (Daemon.ts `routeKey`).
 *
 * When the daemon dies (`kill -9` included) the IPC channel closes: every server is sent SIGKILL
 * and the process exits, and the watchdog of ProcessGroups covers a death of this process too.
 */
// @ts-nocheck

import * as NodeContext from "@effect/platform-node/NodeContext"
import * as CoreHost from "@mcpctl/core/Host"
import * as ProcessGroups from "@mcpctl/core/internal/transport/ProcessGroups"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as FiberRef from "effect/FiberRef"
import * as Option from "effect/Option"
import type { Socket } from "node:net"
import { logLevelFromArgv } from "../Flags.js"
import { HostSource } from "../Host.js"
import * as Logs from "../Logs.js"
import { type Run, withRun } from "../RunState.js"
import { serverIdleMs as serverIdleConfig } from "./DaemonOptions.js"
import { makeWarmHosts, NeedsTerminal } from "./WarmHosts.js"
import { frame, type RunRequest } from "./Wire.js"

/**
 * What the CLI's main module lends the host process: the program it runs for a command line
 * (everything main composes before NodeContext and the logger), and its exit codes.
 */
export interface CliParts {
  readonly program: (argv: ReadonlyArray<string>) => Effect.Effect<void, unknown, NodeContext.NodeContext>
  readonly codeOf: (exit: Exit.Exit<unknown, unknown>, run: Run) => number
}

/** One relayed command while it runs. */
interface Command {
  readonly argv: ReadonlyArray<string>
  readonly tty: RunRequest["tty"]
  readonly socket: Socket
  readonly state: Run
  /** Tells the client the command started (once): from then on it must not be run again. */
  readonly start: () => void
  sent: boolean
  done: boolean
}

/** How often the hosts' settings files are looked at between commands. */
const SETTINGS_CHECK_MS = 5_000

/** The relayed command a fiber (and the fibers it forks) runs for. */
const commandRef = FiberRef.unsafeMake<Command | undefined>(undefined)

/** The command the running code belongs to, if any (see the module's comment), of `active` ones. */
const currentOf = (active: ReadonlySet<Command>) => (): Command | undefined => {
  const fiber = Fiber.getCurrentFiber()
  const own = Option.isSome(fiber) ? fiber.value.getFiberRef(commandRef) : undefined
  if (own && !own.done) return own
  return active.size === 1 ? active.values().next().value : undefined
}

type Write = typeof process.stdout.write

/** `write` of stdout or stderr: frames to the command's client, else the stream itself (the daemon's log). */
const frameWriter = (current: () => Command | undefined, type: "O" | "E", real: Write): Write =>
  function(this: NodeJS.WriteStream, chunk: unknown, encoding?: unknown, callback?: unknown) {
    const command = current()
    if (!command) return real.call(this, chunk as string, encoding as BufferEncoding, callback as () => void)
    const cb = typeof encoding === "function" ? encoding : callback
    command.start()
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, typeof encoding === "string" ? encoding as BufferEncoding : "utf8") : Buffer.from(chunk as Uint8Array)
    if (!command.socket.destroyed) command.socket.write(frame(type, bytes))
    if (typeof cb === "function") process.nextTick(cb as () => void)
    return true
  } as Write

/** Terminal facts of a stream, as the command's client has them. */
const terminalFacts = (
  current: () => Command | undefined,
  stream: NodeJS.WriteStream | NodeJS.ReadStream,
  which: "stdin" | "stdout" | "stderr"
) => {
  const define = (key: string, get: () => unknown) => Object.defineProperty(stream, key, { get, set: () => {}, configurable: true })
  define("isTTY", () => current()?.tty[which] || undefined)
  if (which !== "stdin") {
    define("columns", () => current()?.tty.columns)
    define("rows", () => current()?.tty.rows)
  }
}

/** Replaces the environment in place (child processes and `process.env` readers see the new one). */
const setEnv = (env: Readonly<Record<string, string>>) => {
  for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key]
  for (const [key, value] of Object.entries(env)) if (process.env[key] !== value) process.env[key] = value
}

export const runWorker = (parts: CliParts): void => {
  // The process's entry: its knob read once, through effect/Config as the daemon reads it.
  const serverIdleMs = Effect.runSync(serverIdleConfig)
  delete process.env.MCPCTL_DAEMON_ROLE
  const active = new Set<Command>()
  const current = currentOf(active)
  const hosts = makeWarmHosts({
    serverIdleMs,
    onStart: () => current()?.start(),
    // The settings changed: the daemon asks every host process to check its hosts.
    onSettingsChanged: () => process.send?.({ type: "changed" })
  })
  const binArgv = process.argv.slice(0, 2)
  Object.defineProperty(process, "argv", { get: () => current()?.argv ?? binArgv, set: () => {}, configurable: true })
  process.stdout.write = frameWriter(current, "O", process.stdout.write)
  process.stderr.write = frameWriter(current, "E", process.stderr.write)
  terminalFacts(current, process.stdin, "stdin")
  terminalFacts(current, process.stdout, "stdout")
  terminalFacts(current, process.stderr, "stderr")
  let commands = 0

  const runOne = async (request: RunRequest, socket: Socket): Promise<void> => {
    if (socket.destroyed) return
    try {
      if (process.cwd() !== request.cwd) process.chdir(request.cwd)
    } catch {
      socket.end(frame("I"))
      return
    }
    setEnv(request.env)
    const command: Command = {
      argv: [...binArgv, ...request.argv],
      tty: request.tty,
      socket,
      state: { documentWritten: false, successCode: 0 },
      start: () => {
        if (!command.sent && !socket.destroyed) socket.write(frame("S"))
        command.sent = true
      },
      sent: false,
      done: false
    }
    active.add(command)
    try {
      // The same `mcpctl: warning: …` lines as in-process (Logs.ts), through the command's console.
      const logs = Logs.layer(CoreHost.effectLogLevel(logLevelFromArgv(request.argv) ?? "warning"))
      const fiber = Effect.runFork(
        parts.program(command.argv).pipe(
          Effect.provide(NodeContext.layer),
          Effect.provide(logs),
          // Its own record and exit code; its host from this process's warm hosts.
          withRun(command.state),
          Effect.provideService(HostSource, hosts.provider),
          Effect.locally(commandRef, command)
        )
      )
      // The client went away (Ctrl-C, killed): the command is interrupted, as by a signal in-process.
      const onClose = () => Effect.runFork(Fiber.interrupt(fiber))
      socket.once("close", onClose)
      const exit = await Effect.runPromise(Fiber.await(fiber))
      socket.off("close", onClose)
      const needsTerminal = Exit.isFailure(exit) && Cause.isDie(exit.cause) && Cause.squash(exit.cause) instanceof NeedsTerminal
      // On a fiber of the command: a failure document it writes goes to this command's client.
      const code = needsTerminal ? 0 : Effect.runSync(Effect.sync(() => parts.codeOf(exit, command.state)).pipe(Effect.locally(commandRef, command)))
      commands++
      if (socket.destroyed) return
      if (needsTerminal && !command.sent) socket.end(frame("I"))
      else {
        command.start()
        socket.end(frame("X", String(code)))
      }
    } finally {
      command.done = true
      active.delete(command)
    }
  }

  const shutdown = (fast: boolean) => {
    if (fast) {
      // The daemon is gone: nobody will ask for these servers again, and nothing may outlive it.
      ProcessGroups.killAll()
      process.exit(0)
    }
    Effect.runPromise(hosts.closeAll).finally(() => process.exit(0))
  }

  process.on("message", (message: { type: string; request?: RunRequest; id?: number }, handle: unknown) => {
    if (message.type === "run" && message.request) {
      const socket = handle as Socket
      runOne(message.request, socket).catch((error) => {
        process.stderr.write(`mcpctl daemon host: ${String(error)}\n`)
        if (!socket.destroyed) socket.destroy()
      }).finally(() => process.send?.({ type: "done" }))
    } else if (message.type === "status") {
      // With --expose-gc (the bench's memory figure) the heap is collected first.
      ;(globalThis as { gc?: () => void }).gc?.()
      const { arrayBuffers, external, heapUsed, rss } = process.memoryUsage()
      const mb = (n: number) => Math.round(n / 1e5) / 10
      const memory = { rssMb: mb(rss), heapUsedMb: mb(heapUsed), externalMb: mb(external), arrayBuffersMb: mb(arrayBuffers) }
      Effect.runPromise(hosts.status()).then((list) =>
        process.send?.({ type: "status", id: message.id, hosts: list, commands, running: active.size, pid: process.pid, memory })
      )
    } else if (message.type === "recheck") Effect.runFork(hosts.recheck)
    else if (message.type === "shutdown") shutdown(false)
  })
  // Settings edited while no command runs: a host of stale settings closes all the same.
  setInterval(() => Effect.runFork(hosts.recheck), SETTINGS_CHECK_MS).unref()
  process.on("disconnect", () => shutdown(true))
  // Signals reach this process only from someone who means it: the same orderly shutdown.
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => shutdown(false))
  process.send?.({ type: "ready" })
}
