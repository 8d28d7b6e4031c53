/**
 * `mcpctl daemon start [--idle MINUTES] [--server-idle MINUTES]`, `daemon status [--json]`,
 * `daemon stop`: the per-user daemon that keeps servers warm between commands (docs/CLI.md,
 * "Daemon"; the daemon itself is daemon/Daemon.ts).
 */
// @ts-nocheck

import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { UsageError } from "@mcpctl/core/Errors"
import * as Effect from "effect/Effect"
import { spawn } from "node:child_process"
import { closeSync, openSync, readFileSync } from "node:fs"
import { connect } from "node:net"
import { privateRunDir } from "../daemon/Daemon.js"
import { untrusted } from "../../bin/relay.mjs"
import { frame, frameReader, logPath, runDir, socketPath, tokenPath } from "../daemon/Wire.js"
import * as Flags from "../Flags.js"
import { report, setExitCode } from "../Host.js"
import { err, json, out } from "../Render.js"

/**
 * Why the daemon's files of `dir` are not to be trusted (a string), else nothing: the relay
 * client's checks (bin/relay.mjs), since a control request carries the token too and its answer
 * is printed. `run/` this user's directory of mode 0700, the socket and the token this user's and
 * 0600, none a symbolic link.
 */
export const untrustedFiles = (dir: string): string | undefined => {
  const verdict = untrusted(dir, socketPath(dir), tokenPath(dir))
  return typeof verdict === "string" ? verdict : undefined
}

/**
 * Sends one control request; undefined when no daemon answers (none, stale socket, wrong token)
 * or when its files are not to be trusted ({@link untrustedFiles}): then nothing is sent.
 */
export const control = (dir: string, kind: "status" | "stop", timeoutMs = 30_000): Promise<Record<string, unknown> | undefined> =>
  new Promise((resolve) => {
    const verdict = untrusted(dir, socketPath(dir), tokenPath(dir))
    if (typeof verdict === "string" || verdict.token === undefined) return resolve(undefined)
    const token = verdict.token
    const socket = connect(socketPath(dir))
    const reader = frameReader()
    const timer = setTimeout(() => socket.destroy(), timeoutMs)
    let reply: Record<string, unknown> | undefined
    socket.on("connect", () => socket.write(frame("C", JSON.stringify({ token, kind }))))
    socket.on("data", (chunk) => {
      for (const f of reader.push(chunk)) if (f.type === "J") reply = JSON.parse(f.body.toString("utf8"))
    })
    socket.on("error", () => {})
    socket.on("close", () => {
      clearTimeout(timer)
      resolve(reply)
    })
  })

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

const minutes = (name: string, fallback: number, what: string) =>
  Options.float(name).pipe(
    Options.withDefault(fallback),
    Options.withDescription(what)
  )

const idle = minutes("idle", 30, "Exit after this many minutes without a command (default 30)")
const serverIdle = minutes("server-idle", 5, "Close a server after this many minutes unused; the next command starts it again (default 5)")

/** Starts the daemon detached and waits until it listens; its log is `$MCPCTL_HOME/run/daemon.log`. */
const startDaemon = (dir: string, idleMs: number, serverIdleMs: number) =>
  new Promise<number | undefined>((resolve, reject) => {
    privateRunDir(dir)
    const logFd = openSync(logPath(dir), "a", 0o600)
    const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!], {
      detached: true,
      stdio: ["ignore", "pipe", logFd],
      env: {
        ...process.env,
        MCPCTL_DAEMON_ROLE: "daemon",
        MCPCTL_DAEMON_IDLE_MS: String(idleMs),
        MCPCTL_DAEMON_SERVER_IDLE_MS: String(serverIdleMs)
      }
    })
    closeSync(logFd)
    let output = ""
    const timer = setTimeout(() => fail("did not start listening within 15 s"), 15_000)
    const fail = (why: string) => {
      clearTimeout(timer)
      let tail = ""
      try {
        tail = readFileSync(logPath(dir), "utf8").trim().split("\n").slice(-3).join("\n")
      } catch {
        // no log
      }
      reject(new Error(`the daemon ${why}${tail ? `:\n${tail}` : ""}`))
    }
    let another = false
    child.stdout!.on("data", (d) => {
      output += d
      const ready = /^ready (\d+)$/m.exec(output)
      if (ready) {
        clearTimeout(timer)
        child.stdout!.destroy()
        child.unref()
        resolve(Number(ready[1]))
      }
      if (/^another$/m.test(output)) another = true
    })
    child.on("exit", (code) => {
      if (!another) return fail(`exited (${code})`)
      // Another daemon holds the lock: once it answers, it is the one running (undefined: not ours).
      clearTimeout(timer)
      const deadline = Date.now() + 15_000
      const ask = (): unknown =>
        control(dir, "status", 5_000).then((s) =>
          s ? resolve(undefined) : Date.now() > deadline ? fail("found another daemon starting, which did not answer within 15 s") : setTimeout(ask, 50)
        )
      ask()
    })
  })

const start = Command.make("start", { idle, serverIdle }, (flags) =>
  Effect.gen(function*() {
    if (!(flags.idle > 0) || !(flags.serverIdle > 0)) {
      return yield* new UsageError({ message: "--idle and --server-idle take a positive number of minutes" })
    }
    const dir = runDir(process.env)
    const running = yield* Effect.promise(() => control(dir, "status", 5_000))
    if (running) return err(`mcpctl daemon is already running (pid ${running.pid}).`)
    const pid = yield* Effect.tryPromise({
      try: () => startDaemon(dir, flags.idle * 60_000, flags.serverIdle * 60_000),
      catch: (e) => new UsageError({ message: `Could not start the daemon: ${e instanceof Error ? e.message : String(e)}` })
    }).pipe(Effect.catchAll((error) =>
      // Started by someone else meanwhile: that one runs.
      Effect.flatMap(Effect.promise(() => control(dir, "status", 5_000)), (other) =>
        other ? Effect.succeed(undefined) : Effect.fail(error))
    ))
    if (pid === undefined) return err("mcpctl daemon is already running.")
    err(`mcpctl daemon started (pid ${pid}) on ${socketPath(dir)}; it exits after ${flags.idle} min without a command.`)
  }).pipe(Effect.tapError((error) => Effect.sync(() => report({ json: false }, error))))).pipe(Command.withDescription("Start the daemon that keeps servers warm between commands (detached)"))

/** A daemon whose files are not to be trusted is not asked anything: said on stderr, exit 1. */
const refuseUntrusted = (why: string) =>
  Effect.zipRight(
    setExitCode(1),
    Effect.sync(() => err(`mcpctl: not asking the daemon (${why}): its files must be yours and private (run/ 0700, socket and token 0600).`))
  )

const status = Command.make("status", { json: Flags.json }, (flags) =>
  Effect.gen(function*() {
    const dir = runDir(process.env)
    const why = untrustedFiles(dir)
    if (why !== undefined) {
      yield* refuseUntrusted(why)
      return flags.json ? json({ running: false, untrusted: why }) : undefined
    }
    const s = yield* Effect.promise(() => control(dir, "status", 10_000))
    if (!s) {
      yield* setExitCode(1)
      return flags.json ? json({ running: false }) : err("mcpctl daemon is not running.")
    }
    if (flags.json) return json({ running: true, ...s })
    out(`daemon pid ${s.pid}, up since ${s.startedAt}, ${s.commands} command(s), idle ${s.idleSeconds} s (exits at ${s.idleExitSeconds} s)`)
    out(`socket ${s.socket}`)
    type Host = { key: string; cwd: string; commands: number; idleSeconds: number; servers: Array<{ name: string; status: string }> }
    for (const p of s.hostProcesses as Array<{ pid: number; hosts: Array<Host> }>) {
      for (const h of p.hosts) {
        out(`host ${h.key} (pid ${p.pid}) in ${h.cwd}: ${h.commands} command(s), idle ${h.idleSeconds} s`)
        for (const server of h.servers) out(`  ${server.name}  ${server.status}`)
      }
    }
  })).pipe(Command.withDescription("Show the daemon, its warm hosts and their servers"))

const stop = Command.make("stop", {}, () =>
  Effect.gen(function*() {
    const dir = runDir(process.env)
    const why = untrustedFiles(dir)
    if (why !== undefined) return yield* refuseUntrusted(why)
    const s = yield* Effect.promise(() => control(dir, "status", 5_000))
    if (!s) return err("mcpctl daemon is not running.")
    yield* Effect.promise(() => control(dir, "stop", 60_000))
    // The daemon answers once every host process has shut its servers down; then it exits.
    const pid = Number(s.pid)
    yield* Effect.promise(async () => {
      for (let i = 0; i < 200 && alive(pid); i++) await new Promise((r) => setTimeout(r, 25))
    })
    err(`mcpctl daemon stopped (pid ${pid}).`)
  })).pipe(Command.withDescription("Stop the daemon; every server it holds shuts down as on Ctrl-C"))

export const daemon = Command.make("daemon").pipe(
  Command.withDescription("A per-user daemon that keeps servers warm, so repeated commands skip the start-up"),
  Command.withSubcommands([start, status, stop])
)
