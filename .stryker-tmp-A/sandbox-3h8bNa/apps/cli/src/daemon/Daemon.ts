/**
 * The daemon (`mcpctl daemon start` runs it detached, `MCPCTL_DAEMON_ROLE=daemon`): one per user,
 * listening on `$MCPCTL_HOME/run/daemon.sock`. It authenticates each connection, answers
 * `status`/`stop`, and hands each command (with its client's socket) to a host process
 * (Worker.ts) chosen by the command's working directory and environment, started on first use.
 * It exits when stopped, or after `idle` ms without a command.
 *
 * Who may connect. Node cannot read a Unix socket peer's uid (SO_PEERCRED) and the packages that
 * can are native addons (a compiler at install time, little upkeep), so the checks are:
 * the directory `run/` is the user's own, mode 0700, not a symbolic link (another uid cannot even
 * reach the socket); the socket is 0600; and every request carries the per-run secret of
 * `run/daemon.token` (32 random bytes, 0600, written before the socket listens, removed at exit),
 * which only the same user (or root) can read. A request without it is refused and logged.
 *
 * One daemon per run directory (Lock.ts): the lock is taken before the socket or the token is
 * touched, and at exit a daemon removes the socket and the token only if they are still the
 * files it made (same inode), never a successor's.
 *
 * An Effect program: the lock, the token, the listening socket and every host process are scoped
 * resources of the daemon's scope, so stopping is closing it. A host process's release is its
 * escalation: asked to shut down (its servers stop as on Ctrl-C), SIGKILL after 15 s. Knobs are
 * read through `effect/Config` (`daemonOptions`), lines go through Effect's logger (`logger`).
 */
// @ts-nocheck

import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as ExecutionStrategy from "effect/ExecutionStrategy"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Runtime from "effect/Runtime"
import * as Schedule from "effect/Schedule"
import * as Scope from "effect/Scope"
import { type ChildProcess, fork } from "node:child_process"
import { createHash, randomBytes, timingSafeEqual } from "node:crypto"
import { chmodSync, lstatSync, mkdirSync, unlinkSync, writeFileSync } from "node:fs"
import { connect, createServer, type Server, type Socket } from "node:net"
import { type DaemonOptions, daemonOptions, DaemonError, logger } from "./DaemonOptions.js"
import { shutDown } from "./HostProcess.js"
import { takeDaemonLock } from "./Lock.js"
import { type ControlRequest, frame, frameReader, type RunRequest, socketPath, tokenPath } from "./Wire.js"

/** A host process per working directory and environment, at most this many. */
const MAX_WORKERS = 4

/** Variables that change between shell commands and say nothing about what a host sees. */
const VOLATILE = new Set(["_", "OLDPWD", "SHLVL"])

/** Which host process serves a request (pure): its directory and environment. */
export const routeKey = (request: Pick<RunRequest, "cwd" | "env">): string =>
  createHash("sha256").update(request.cwd).update(JSON.stringify(
    Object.keys(request.env).filter((k) => !VOLATILE.has(k)).sort().map((k) => [k, request.env[k]])
  )).digest("hex")

/** `run/` as a private directory of this user (0700), never through a symbolic link. */
export const privateRunDir = (dir: string): void => {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const stat = lstatSync(dir)
  if (stat.isSymbolicLink() || !stat.isDirectory()) throw new Error(`${dir} is not a directory (a symbolic link?)`)
  if (typeof process.getuid === "function" && stat.uid !== process.getuid()) throw new Error(`${dir} belongs to another user`)
  chmodSync(dir, 0o700)
}

const sameSecret = (a: string, b: string): boolean => {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

interface Worker {
  readonly key: string
  readonly child: ChildProcess
  /** Closing it shuts the host process down (the escalation); once, whoever closes it. */
  readonly scope: Scope.CloseableScope
  inFlight: number
  lastUsed: number
}

/**
 * The daemon until it stops, every resource released (host processes gone, socket and token
 * removed); it fails only when it could not start. The result: the `daemon stop` connections,
 * to be answered now.
 */
export const runDaemon = (options: DaemonOptions): Effect.Effect<ReadonlyArray<Socket>, DaemonError> =>
  Effect.scoped(Effect.gen(function*() {
    delete process.env.MCPCTL_DAEMON_ROLE
    const { dir } = options
    yield* Effect.try({
      try: () => privateRunDir(dir),
      catch: (cause) => new DaemonError({ reason: "run-dir", message: `cannot use ${dir}: ${messageOf(cause)}`, cause })
    })
    // Holding no directory of the starter's (the host processes work in each caller's own).
    process.chdir("/")
    const runtime = yield* Effect.runtime<never>()
    const runFork = Runtime.runFork(runtime)
    const socketFile = socketPath(dir)
    const tokenFile = tokenPath(dir)
    const token = randomBytes(32).toString("hex")
    const workers = new Map<string, Worker>()
    const startedAt = Date.now()
    let lastActivity = Date.now()
    let served = 0
    let refused = 0
    let stopping = false
    /** Why the daemon stops, and the control connections waiting for it to be done. */
    const stopped = yield* Deferred.make<string>()
    const stopReplies: Array<Socket> = []
    const stop = (why: string) => Effect.suspend(() => {
      stopping = true
      return Deferred.succeed(stopped, why)
    })

    // One daemon per run directory: the lock first, before the socket or the token is touched.
    const lock = yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () => takeDaemonLock(dir),
        catch: (cause) => new DaemonError({ reason: "lock", message: `cannot take the daemon lock in ${dir}: ${messageOf(cause)}`, cause })
      }),
      (lock) => Effect.sync(() => lock?.release())
    )
    if (lock === undefined) {
      return yield* new DaemonError({ reason: "another", message: `another daemon holds the lock of ${dir}` })
    }
    // A daemon of a version without the lock may still listen there: its socket stays.
    const listening = yield* Effect.async<boolean>((resume) => {
      const probe = connect(socketFile)
      probe.on("connect", () => {
        probe.destroy()
        resume(Effect.succeed(true))
      })
      probe.on("error", () => resume(Effect.succeed(false)))
    })
    if (listening) return yield* new DaemonError({ reason: "another", message: `another daemon listens on ${socketFile}` })
    // Host processes shut down all at once when the daemon stops, after the socket closed and
    // before the lock is given back.
    const workerScopes = yield* Scope.fork(yield* Effect.scope, ExecutionStrategy.parallel)

    /** Removes `file` only if it is still the one this daemon made. */
    const removeOwn = (file: string, ino: number) =>
      Effect.sync(() => {
        try {
          if (lstatSync(file).ino === ino) unlinkSync(file)
        } catch {
          // gone already
        }
      })

    // The token exists before anyone can connect.
    yield* Effect.acquireRelease(
      Effect.sync(() => {
        writeFileSync(tokenFile, token + "\n", { mode: 0o600 })
        chmodSync(tokenFile, 0o600)
        return lstatSync(tokenFile).ino
      }),
      (ino) => removeOwn(tokenFile, ino)
    )

    const spawnWorker = (key: string): Effect.Effect<Worker> =>
      Effect.gen(function*() {
        const scope = yield* Scope.fork(workerScopes, ExecutionStrategy.sequential)
        const child = yield* Effect.acquireRelease(
          Effect.sync(() =>
            fork(process.argv[1]!, [], {
              env: { ...process.env, MCPCTL_DAEMON_ROLE: "worker", MCPCTL_DAEMON_SERVER_IDLE_MS: String(options.serverIdleMs) },
              stdio: ["ignore", 2, 2, "ipc"],
              serialization: "json"
            })
          ),
          shutDown
        ).pipe(Scope.extend(scope))
        const worker: Worker = { key, child, scope, inFlight: 0, lastUsed: Date.now() }
        child.on("message", (message: { type: string }) => {
          if (message.type === "done") {
            worker.inFlight--
            worker.lastUsed = lastActivity = Date.now()
          } else if (message.type === "changed") {
            // One host process saw the settings change: every other one checks its hosts now.
            for (const other of workers.values()) if (other.child.connected) other.child.send({ type: "recheck" }, () => {})
          }
        })
        child.on("exit", (code, signal) => {
          if (workers.get(key) === worker) workers.delete(key)
          if (!stopping) runFork(Effect.logWarning(`host process ${child.pid} exited (${signal ?? code})`))
          runFork(Scope.close(scope, Exit.void))
        })
        workers.set(key, worker)
        return worker
      })

    /** The host process of `key`: the running one, else a new one (the least recently used idle one goes at the limit). */
    const workerFor = (key: string): Effect.Effect<Worker> =>
      Effect.suspend(() => {
        const found = workers.get(key)
        if (found && found.child.connected) return Effect.succeed(found)
        if (workers.size >= MAX_WORKERS) {
          const idle = [...workers.values()].filter((w) => w.inFlight === 0).sort((a, b) => a.lastUsed - b.lastUsed)[0]
          if (idle) {
            workers.delete(idle.key)
            runFork(Scope.close(idle.scope, Exit.void))
          }
        }
        return spawnWorker(key)
      })

    /** One host process's status; a busy one that does not answer within 2 s says so. */
    const workerStatus = (w: Worker) =>
      Effect.async<unknown>((resume) => {
        const id = Math.random()
        const onMessage = (m: { type: string; id?: number }) => {
          if (m.type !== "status" || m.id !== id) return
          resume(Effect.succeed(m))
        }
        w.child.on("message", onMessage)
        w.child.send({ type: "status", id }, () => {})
        return Effect.sync(() => w.child.off("message", onMessage))
      }).pipe(
        Effect.timeout(Duration.seconds(2)),
        Effect.orElseSucceed(() => ({ pid: w.child.pid, hosts: [], commands: 0, busy: true }))
      )

    const status = Effect.gen(function*() {
      const replies = yield* Effect.forEach([...workers.values()], workerStatus, { concurrency: "unbounded" })
      ;(globalThis as { gc?: () => void }).gc?.()
      const { arrayBuffers, external, heapUsed, rss } = process.memoryUsage()
      const mb = (n: number) => Math.round(n / 1e5) / 10
      const now = yield* Clock.currentTimeMillis
      return {
        pid: process.pid,
        memory: { rssMb: mb(rss), heapUsedMb: mb(heapUsed), externalMb: mb(external), arrayBuffersMb: mb(arrayBuffers) },
        socket: socketFile,
        startedAt: new Date(startedAt).toISOString(),
        idleExitSeconds: Math.round(options.idleMs / 1000),
        idleSeconds: Math.round((now - lastActivity) / 1000),
        serverIdleSeconds: Math.round(options.serverIdleMs / 1000),
        commands: served,
        refused,
        hostProcesses: replies.map((r) => {
          const { type: _type, id: _id, ...rest } = r as Record<string, unknown>
          return rest
        })
      }
    })

    /** Hands a command, with its client's socket, to its host process. */
    const relay = (request: RunRequest, socket: Socket) =>
      Effect.gen(function*() {
        served++
        lastActivity = Date.now()
        const worker = yield* workerFor(routeKey(request))
        worker.inFlight++
        worker.child.send({ type: "run", request }, socket, { keepOpen: false }, (error) => {
          if (error) {
            worker.inFlight--
            socket.end(frame("I"))
          }
        })
      })

    const onConnection = (socket: Socket) => {
      const reader = frameReader()
      socket.on("error", () => {})
      const onData = (chunk: Buffer) => {
        let frames
        try {
          frames = reader.push(chunk)
        } catch {
          socket.destroy()
          return
        }
        const first = frames[0]
        if (!first) return
        socket.off("data", onData)
        socket.pause()
        let message: (RunRequest | ControlRequest) & { kind?: string }
        try {
          message = JSON.parse(first.body.toString("utf8"))
        } catch {
          socket.destroy()
          return
        }
        if (typeof message.token !== "string" || !sameSecret(message.token, token)) {
          refused++
          runFork(Effect.logWarning("refused a connection without the daemon's token"))
          socket.destroy()
          return
        }
        if (first.type === "C") {
          if (message.kind === "status") runFork(Effect.map(status, (s) => socket.end(frame("J", JSON.stringify(s)))))
          else if (message.kind === "stop") {
            // Answered once every host process has shut its servers down, just before the exit.
            stopReplies.push(socket)
            runFork(stop("daemon stop"))
          } else socket.destroy()
          return
        }
        if (first.type !== "R" || stopping) {
          socket.end(frame("I"))
          return
        }
        runFork(relay(message as RunRequest, socket))
      }
      socket.on("data", onData)
    }

    // A stale socket of a dead daemon is replaced; the socket is 0600 from its first moment.
    const server = yield* Effect.acquireRelease(
      Effect.async<{ readonly server: Server; readonly ino: number }, DaemonError>((resume) => {
        try {
          unlinkSync(socketFile)
        } catch {
          // none
        }
        const server = createServer({ pauseOnConnect: false }, onConnection)
        const oldMask = process.umask(0o177)
        const onError = (cause: Error) => {
          process.umask(oldMask)
          resume(Effect.fail(new DaemonError({ reason: "listen", message: `cannot listen on ${socketFile}: ${cause.message}`, cause })))
        }
        server.once("error", onError)
        server.listen(socketFile, () => {
          server.off("error", onError)
          process.umask(oldMask)
          chmodSync(socketFile, 0o600)
          resume(Effect.succeed({ server, ino: lstatSync(socketFile).ino }))
        })
      }),
      ({ ino, server }) => Effect.zipRight(Effect.sync(() => server.close()), removeOwn(socketFile, ino))
    )
    server.server.on("error", (error) => runFork(Effect.zipRight(Effect.logError(`socket error: ${error.message}`), stop("socket error"))))
    yield* Effect.logInfo(`listening on ${socketFile} (pid ${process.pid})`)
    // The starter waits for this line on the pipe that is our stdout, then lets go of it.
    process.stdout.end(`ready ${process.pid}\n`)

    // Idle: no command running and none for `idleMs`.
    yield* Effect.suspend(() => {
      const busy = [...workers.values()].some((w) => w.inFlight > 0)
      return !busy && Date.now() - lastActivity >= options.idleMs ? stop(`idle for ${Math.round(options.idleMs / 1000)} s`) : Effect.void
    }).pipe(
      Effect.repeat(Schedule.spaced(Duration.millis(Math.max(50, Math.min(10_000, options.idleMs / 4))))),
      Effect.forkScoped
    )
    // Kept to the exit: a second signal during the shutdown changes nothing.
    for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => runFork(stop(signal)))

    const why = yield* Deferred.await(stopped)
    yield* Effect.logInfo(`stopping: ${why}`)
    // No new connection while the host processes shut down.
    server.server.close()
    return stopReplies
  }))

/**
 * The daemon process: runs the daemon with its knobs from the environment and its log lines on
 * stderr, then exits: 0 once stopped, 3 when another daemon runs (told to the starter on stdout),
 * 1 when it could not start.
 */
export const main: Effect.Effect<void> = Effect.gen(function*() {
  const options = yield* daemonOptions
  const exit = yield* Effect.exit(runDaemon(options))
  if (Exit.isSuccess(exit)) {
    const stopped = frame("J", JSON.stringify({ stopped: true }))
    yield* Effect.forEach(exit.value, (socket) => Effect.async<void>((resume) => void socket.end(stopped, () => resume(Effect.void))), {
      concurrency: "unbounded"
    })
    return yield* Effect.sync(() => process.exit(0))
  }
  const failure = Cause.failureOption(exit.cause)
  if (Option.isSome(failure) && failure.value.reason === "another") {
    yield* Effect.logInfo(`${failure.value.message}; this one exits`)
    return yield* Effect.async<void>(() => void process.stdout.end("another\n", () => process.exit(3)))
  }
  yield* Effect.logError(Option.isSome(failure) ? failure.value.message : Cause.pretty(exit.cause))
  yield* Effect.sync(() => process.exit(1))
}).pipe(Effect.orDie, Effect.provide(logger))
