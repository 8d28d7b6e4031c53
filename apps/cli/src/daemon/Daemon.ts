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
 */
import { fork, type ChildProcess } from "node:child_process"
import { createHash, randomBytes, timingSafeEqual } from "node:crypto"
import { chmodSync, lstatSync, mkdirSync, unlinkSync, writeFileSync } from "node:fs"
import { takeDaemonLock } from "./Lock.js"
import { connect, createServer, type Socket } from "node:net"
import { type ControlRequest, frame, frameReader, type RunRequest, socketPath, tokenPath } from "./Wire.js"

/** What the daemon is started with. */
export interface DaemonOptions {
  readonly dir: string
  /** Exit after this long without a command. */
  readonly idleMs: number
  /** The pool's idle time to live in the host processes. */
  readonly serverIdleMs: number
}

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

interface Worker {
  readonly key: string
  readonly child: ChildProcess
  inFlight: number
  lastUsed: number
}

export const runDaemon = (options: DaemonOptions): void => {
  delete process.env.MCPCTL_DAEMON_ROLE
  const { dir } = options
  privateRunDir(dir)
  // Holding no directory of the starter's (the host processes work in each caller's own).
  process.chdir("/")
  const socketFile = socketPath(dir)
  const tokenFile = tokenPath(dir)
  const token = randomBytes(32).toString("hex")
  const log = (line: string) => process.stderr.write(`${new Date().toISOString()} ${line}\n`)
  const workers = new Map<string, Worker>()
  const startedAt = Date.now()
  let lastActivity = Date.now()
  let served = 0
  let refused = 0
  let stopping = false
  /** The inodes of the socket and the token this daemon made: the only ones it removes. */
  let socketIno: number | undefined
  let tokenIno: number | undefined

  const spawnWorker = (key: string): Worker => {
    const child = fork(process.argv[1]!, [], {
      env: { ...process.env, MCPCTL_DAEMON_ROLE: "worker", MCPCTL_DAEMON_SERVER_IDLE_MS: String(options.serverIdleMs) },
      stdio: ["ignore", 2, 2, "ipc"],
      serialization: "json"
    })
    const worker: Worker = { key, child, inFlight: 0, lastUsed: Date.now() }
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
      if (!stopping) log(`host process ${child.pid} exited (${signal ?? code})`)
    })
    workers.set(key, worker)
    return worker
  }

  const workerFor = (key: string): Worker => {
    const found = workers.get(key)
    if (found && found.child.connected) return found
    if (workers.size >= MAX_WORKERS) {
      const idle = [...workers.values()].filter((w) => w.inFlight === 0).sort((a, b) => a.lastUsed - b.lastUsed)[0]
      if (idle) {
        workers.delete(idle.key)
        idle.child.send({ type: "shutdown" })
      }
    }
    return spawnWorker(key)
  }

  const status = async () => {
    const replies = await Promise.all([...workers.values()].map((w) =>
      new Promise<unknown>((resolve) => {
        const id = Math.random()
        const timer = setTimeout(() => resolve({ pid: w.child.pid, hosts: [], commands: 0, busy: true }), 2000)
        const onMessage = (m: { type: string; id?: number }) => {
          if (m.type !== "status" || m.id !== id) return
          clearTimeout(timer)
          w.child.off("message", onMessage)
          resolve(m)
        }
        w.child.on("message", onMessage)
        w.child.send({ type: "status", id })
      })
    ))
    ;(globalThis as { gc?: () => void }).gc?.()
    const { arrayBuffers, external, heapUsed, rss } = process.memoryUsage()
    const mb = (n: number) => Math.round(n / 1e5) / 10
    return {
      pid: process.pid,
      memory: { rssMb: mb(rss), heapUsedMb: mb(heapUsed), externalMb: mb(external), arrayBuffersMb: mb(arrayBuffers) },
      socket: socketFile,
      startedAt: new Date(startedAt).toISOString(),
      idleExitSeconds: Math.round(options.idleMs / 1000),
      idleSeconds: Math.round((Date.now() - lastActivity) / 1000),
      serverIdleSeconds: Math.round(options.serverIdleMs / 1000),
      commands: served,
      refused,
      hostProcesses: replies.map((r) => {
        const { type: _type, id: _id, ...rest } = r as Record<string, unknown>
        return rest
      })
    }
  }

  /** Every host process shuts its servers down as on Ctrl-C; then the daemon exits. */
  const stop = (why: string): Promise<void> => {
    if (stopping) return Promise.resolve()
    stopping = true
    log(`stopping: ${why}`)
    server.close()
    for (const [file, ino] of [[socketFile, socketIno], [tokenFile, tokenIno]] as const) {
      try {
        if (ino !== undefined && lstatSync(file).ino === ino) unlinkSync(file)
      } catch {
        // gone already
      }
    }
    return Promise.all([...workers.values()].map((w) =>
      new Promise<void>((resolve) => {
        if (w.child.exitCode !== null || w.child.signalCode !== null) return resolve()
        const kill = setTimeout(() => w.child.kill("SIGKILL"), 15_000)
        w.child.once("exit", () => {
          clearTimeout(kill)
          resolve()
        })
        w.child.send({ type: "shutdown" }, () => {})
      })
    )).then(() => undefined)
  }

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
        log("refused a connection without the daemon's token")
        socket.destroy()
        return
      }
      if (first.type === "C") {
        if (message.kind === "status") status().then((s) => socket.end(frame("J", JSON.stringify(s))))
        else if (message.kind === "stop") stop("daemon stop").then(() => socket.end(frame("J", JSON.stringify({ stopped: true })), () => process.exit(0)))
        else socket.destroy()
        return
      }
      if (first.type !== "R" || stopping) {
        socket.end(frame("I"))
        return
      }
      const request = message as RunRequest
      served++
      lastActivity = Date.now()
      const worker = workerFor(routeKey(request))
      worker.inFlight++
      worker.child.send({ type: "run", request }, socket, { keepOpen: false }, (error) => {
        if (error) {
          worker.inFlight--
          socket.end(frame("I"))
        }
      })
    }
    socket.on("data", onData)
  }

  const server = createServer({ pauseOnConnect: false }, onConnection)
  const listen = () => {
    // The token exists before anyone can connect; a stale socket of a dead daemon is replaced.
    writeFileSync(tokenFile, token + "\n", { mode: 0o600 })
    chmodSync(tokenFile, 0o600)
    tokenIno = lstatSync(tokenFile).ino
    try {
      unlinkSync(socketFile)
    } catch {
      // none
    }
    const oldMask = process.umask(0o177)
    server.listen(socketFile, () => {
      process.umask(oldMask)
      chmodSync(socketFile, 0o600)
      socketIno = lstatSync(socketFile).ino
      log(`listening on ${socketFile} (pid ${process.pid})`)
      // The starter waits for this line on the pipe that is our stdout, then lets go of it.
      process.stdout.end(`ready ${process.pid}\n`)
    })
  }
  /** Another daemon runs (or is starting): this one touches nothing, and tells its starter so. */
  const another = (why: string) => {
    log(`${why}; this one exits`)
    process.stdout.end("another\n", () => process.exit(3))
  }
  takeDaemonLock(dir).then((lock) => {
    if (lock === undefined) return another(`another daemon holds the lock of ${dir}`)
    // A daemon of a version without the lock may still listen there: its socket stays.
    const probe = connect(socketFile)
    probe.on("connect", () => {
      probe.destroy()
      another(`another daemon listens on ${socketFile}`)
    })
    probe.on("error", listen)
  }, (error) => {
    log(`cannot take the daemon lock in ${dir}: ${error instanceof Error ? error.message : String(error)}`)
    process.exit(1)
  })
  server.on("error", (error) => {
    log(`cannot listen on ${socketFile}: ${error.message}`)
    process.exit(1)
  })
  const idleCheck = setInterval(() => {
    const busy = [...workers.values()].some((w) => w.inFlight > 0)
    if (!busy && Date.now() - lastActivity >= options.idleMs) stop(`idle for ${Math.round(options.idleMs / 1000)} s`).then(() => process.exit(0))
  }, Math.max(50, Math.min(10_000, options.idleMs / 4)))
  idleCheck.unref()
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => stop(signal).then(() => process.exit(0)))
}
