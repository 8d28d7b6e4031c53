/**
 * A daemon host process: a child of the daemon (an IPC channel, `MCPCTL_DAEMON_ROLE=worker`) that
 * runs relayed commands one after another on its warm hosts. The daemon hands over each client's
 * socket with the request; for the command, this process takes on the client's argv, working
 * directory, environment and terminal facts, and what the command writes to stdout and stderr
 * goes to the socket as frames, the exit code last. One command at a time: a command reads and
 * writes process-wide state (argv, environment, exit code), exactly as in a run of its own.
 *
 * When the daemon dies (`kill -9` included) the IPC channel closes: every server is sent SIGKILL
 * and the process exits, and the watchdog of ProcessGroups covers a death of this process too.
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as CoreHost from "@mcpctl/core/Host"
import * as ProcessGroups from "@mcpctl/core/ProcessGroups"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import type { Socket } from "node:net"
import { logLevelFromArgv } from "../Flags.js"
import { setExitCode, setHostProvider } from "../Host.js"
import { resetDocument } from "../Render.js"
import { makeWarmHosts, NeedsTerminal } from "./WarmHosts.js"
import { frame, type RunRequest } from "./Wire.js"

/**
 * What the CLI's main module lends the host process: the program it runs for a command line
 * (everything main composes before NodeContext and the logger), and its exit codes.
 */
export interface CliParts {
  readonly program: (argv: ReadonlyArray<string>) => Effect.Effect<void, unknown, NodeContext.NodeContext>
  readonly codeOf: (exit: Exit.Exit<unknown, unknown>) => number
}

type Write = typeof process.stdout.write

/** Sets a stream's terminal facts for one command. */
const setTty = (stream: NodeJS.WriteStream | NodeJS.ReadStream, isTTY: boolean, size?: { columns?: number | undefined; rows?: number | undefined }) => {
  Object.defineProperty(stream, "isTTY", { value: isTTY || undefined, configurable: true, writable: true })
  if (size) {
    Object.defineProperty(stream, "columns", { value: size.columns, configurable: true, writable: true })
    Object.defineProperty(stream, "rows", { value: size.rows, configurable: true, writable: true })
  }
}

/** Replaces the environment in place (child processes and `process.env` readers see the new one). */
const setEnv = (env: Readonly<Record<string, string>>) => {
  for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key]
  for (const [key, value] of Object.entries(env)) process.env[key] = value
}

export const runWorker = (parts: CliParts): void => {
  const serverIdleMs = Number(process.env.MCPCTL_DAEMON_SERVER_IDLE_MS) || 5 * 60_000
  delete process.env.MCPCTL_DAEMON_ROLE
  // The command of now tells its client it started: from then on, it must not be run again.
  let started = () => {}
  const hosts = makeWarmHosts({ serverIdleMs, onStart: () => started() })
  setHostProvider(hosts.provider)
  const binArgv = process.argv.slice(0, 2)
  const realOut = process.stdout.write
  const realErr = process.stderr.write
  let queue: Promise<void> = Promise.resolve()
  let commands = 0

  const runOne = async (request: RunRequest, socket: Socket): Promise<void> => {
    if (socket.destroyed) return
    try {
      process.chdir(request.cwd)
    } catch {
      socket.end(frame("I"))
      return
    }
    let sent = false
    const start = () => {
      if (!sent && !socket.destroyed) socket.write(frame("S"))
      sent = true
    }
    started = start
    const writer = (type: "O" | "E"): Write =>
      function(this: unknown, chunk: unknown, encoding?: unknown, callback?: unknown) {
        const cb = typeof encoding === "function" ? encoding : callback
        start()
        const bytes = typeof chunk === "string" ? Buffer.from(chunk, typeof encoding === "string" ? encoding as BufferEncoding : "utf8") : Buffer.from(chunk as Uint8Array)
        if (!socket.destroyed) socket.write(frame(type, bytes))
        if (typeof cb === "function") process.nextTick(cb as () => void)
        return true
      } as Write
    process.argv = [...binArgv, ...request.argv]
    setEnv(request.env)
    setTty(process.stdin, request.tty.stdin)
    setTty(process.stdout, request.tty.stdout, request.tty)
    setTty(process.stderr, request.tty.stderr, request.tty)
    process.stdout.write = writer("O")
    process.stderr.write = writer("E")
    resetDocument()
    Effect.runSync(setExitCode(0))
    const logs = CoreHost.layerLogger(CoreHost.effectLogLevel(logLevelFromArgv(request.argv) ?? "warning"))
    const fiber = Effect.runFork(parts.program(process.argv).pipe(Effect.provide(NodeContext.layer), Effect.provide(logs)))
    // The client went away (Ctrl-C, killed): the command is interrupted, as by a signal in-process.
    const onClose = () => Effect.runFork(Fiber.interrupt(fiber))
    socket.once("close", onClose)
    const exit = await Effect.runPromise(Fiber.await(fiber))
    socket.off("close", onClose)
    const needsTerminal = Exit.isFailure(exit) && Cause.isDie(exit.cause) && Cause.squash(exit.cause) instanceof NeedsTerminal
    const code = needsTerminal ? 0 : parts.codeOf(exit)
    process.stdout.write = realOut
    process.stderr.write = realErr
    commands++
    if (socket.destroyed) return
    started = () => {}
    if (needsTerminal && !sent) socket.end(frame("I"))
    else {
      start()
      socket.end(frame("X", String(code)))
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
      const request = message.request
      queue = queue.then(() => runOne(request, socket)).catch((error) => {
        process.stdout.write = realOut
        process.stderr.write = realErr
        realErr.call(process.stderr, `mcpctl daemon host: ${String(error)}\n`)
        if (!socket.destroyed) socket.destroy()
      }).finally(() => process.send?.({ type: "done" }))
    } else if (message.type === "status") {
      // With --expose-gc (the bench's memory figure) the heap is collected first.
      ;(globalThis as { gc?: () => void }).gc?.()
      const { arrayBuffers, external, heapUsed, rss } = process.memoryUsage()
      const mb = (n: number) => Math.round(n / 1e5) / 10
      const memory = { rssMb: mb(rss), heapUsedMb: mb(heapUsed), externalMb: mb(external), arrayBuffersMb: mb(arrayBuffers) }
      Effect.runPromise(hosts.status()).then((list) => process.send?.({ type: "status", id: message.id, hosts: list, commands, pid: process.pid, memory }))
    } else if (message.type === "shutdown") shutdown(false)
  })
  process.on("disconnect", () => shutdown(true))
  // Signals reach this process only from someone who means it: the same orderly shutdown.
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => shutdown(false))
  process.send?.({ type: "ready" })
}
