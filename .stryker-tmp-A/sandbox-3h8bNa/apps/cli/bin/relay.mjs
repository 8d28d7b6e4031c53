// @ts-nocheck
// The warm path of the CLI (docs/CLI.md, "Daemon"): when `mcpctl daemon` runs, the bin hands a
// command to it over its Unix socket instead of loading the bundle, and plays back what the
// daemon's warm host writes. Plain JavaScript on Node's built-ins only: a warm call loads neither
// Effect nor the SDK. The frames are those of apps/cli/src/daemon/Wire.ts (keep them in step).
//
// `relay(args)` resolves to true when the daemon ran the command (process.exitCode is set), and
// to false when the command is to run in-process: no daemon, a stale socket, a refused token, or
// the daemon's answer that the command needs this terminal.
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync } from "node:fs"
import { connect } from "node:net"
import { homedir } from "node:os"
import { join, resolve } from "node:path"

const frame = (type, payload) => {
  const body = Buffer.from(payload, "utf8")
  const head = Buffer.alloc(5)
  head[0] = type.charCodeAt(0)
  head.writeUInt32BE(body.length, 1)
  return Buffer.concat([head, body])
}

/**
 * The daemon's files checked before anything is sent: `run/` a directory (no symbolic link) of
 * this user, 0700; the socket a socket of this user, 0600; the token a regular file of this user,
 * 0600. Whoever could have made or swapped one of them would receive the whole environment,
 * secrets included, and could print what it likes. Returns why not (a string), `{ absent: true }`
 * when there is simply no daemon (no warning then), or `{ token }`.
 */
export const untrusted = (dir, socketFile, tokenFile) => {
  const uid = typeof process.getuid === "function" ? process.getuid() : undefined
  const check = (file, stat, isKind, kind) => {
    if (stat.isSymbolicLink()) return `${file} is a symbolic link`
    if (!isKind(stat)) return `${file} is not a ${kind}`
    if (uid !== undefined && stat.uid !== uid) return `${file} belongs to uid ${stat.uid}, not ${uid}`
    if ((stat.mode & 0o077) !== 0) return `${file} has mode ${(stat.mode & 0o777).toString(8)}, not ${kind === "directory" ? "700" : "600"}`
    return undefined
  }
  let dirStat, socketStat
  try {
    dirStat = lstatSync(dir)
    socketStat = lstatSync(socketFile)
  } catch {
    return { absent: true }
  }
  return check(dir, dirStat, (s) => s.isDirectory(), "directory") ??
    check(socketFile, socketStat, (s) => s.isSocket(), "socket") ??
    (() => {
      let fd
      try {
        // Opened without following a symbolic link; checked on the open file, then read from it.
        fd = openSync(tokenFile, constants.O_RDONLY | constants.O_NOFOLLOW)
        const stat = fstatSync(fd)
        const why = check(tokenFile, stat, (s) => s.isFile(), "file")
        if (why) return why
        if (stat.size > 4096) return `${tokenFile} is too large`
        return { token: readFileSync(fd, "utf8").trim() }
      } catch (error) {
        return error.code === "ELOOP" ? `${tokenFile} is a symbolic link` : { absent: true }
      } finally {
        if (fd !== undefined) closeSync(fd)
      }
    })()
}

export const relay = (args) => {
  const env = process.env
  const dir = join(resolve(env.MCPCTL_HOME || join(homedir(), ".mcpctl")), "run")
  const socketFile = join(dir, "daemon.sock")
  const verdict = untrusted(dir, socketFile, join(dir, "daemon.token"))
  if (typeof verdict === "string") {
    process.stderr.write(`mcpctl: warning: not using the daemon (${verdict}); running in-process.\n`)
    return Promise.resolve(false)
  }
  if (verdict.absent) return Promise.resolve(false)
  const token = verdict.token
  return new Promise((done) => {
    const socket = connect(socketFile)
    let started = false
    let code
    let buffered = Buffer.alloc(0)
    // A signal ends the command in the daemon (the socket closes, the host interrupts it) and here,
    // with the exit code an interrupted run has in-process (docs/CLI.md, Exit codes).
    const codes = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 }
    const signals = Object.keys(codes)
    const onSignal = (signal) => {
      socket.destroy()
      process.exit(codes[signal])
    }
    const finish = (ranThere) => {
      for (const s of signals) process.off(s, onSignal)
      done(ranThere)
    }
    for (const s of signals) process.on(s, onSignal)
    socket.on("connect", () => {
      socket.write(frame("R", JSON.stringify({
        token,
        argv: args,
        cwd: process.cwd(),
        env,
        tty: {
          stdin: Boolean(process.stdin.isTTY),
          stdout: Boolean(process.stdout.isTTY),
          stderr: Boolean(process.stderr.isTTY),
          columns: process.stdout.columns,
          rows: process.stdout.rows
        }
      })))
    })
    socket.on("data", (chunk) => {
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk])
      while (buffered.length >= 5) {
        const length = buffered.readUInt32BE(1)
        if (buffered.length < 5 + length) break
        const type = String.fromCharCode(buffered[0])
        const body = buffered.subarray(5, 5 + length)
        buffered = buffered.subarray(5 + length)
        if (type === "S") started = true
        else if (type === "O") process.stdout.write(body)
        else if (type === "E") process.stderr.write(body)
        else if (type === "X") code = Number(body.toString("utf8"))
        else if (type === "I" && !started) {
          socket.destroy()
          return finish(false)
        }
      }
    })
    // Before the command started, any failure (no listener, a stale socket, a refusal) means it
    // runs here; after, it must not run twice.
    socket.on("error", () => {})
    socket.on("close", () => {
      if (code !== undefined) {
        process.exitCode = code
        return finish(true)
      }
      if (!started) return finish(false)
      process.stderr.write("mcpctl: the daemon stopped before the command finished; it was not run again.\n")
      process.exitCode = 70
      finish(true)
    })
  })
}
