/**
 * One daemon per `$MCPCTL_HOME`: the lock a daemon takes before it touches the socket or the
 * token. Whoever holds it may replace a stale socket; whoever does not, touches nothing.
 *
 * On Linux the lock is a listening socket in the abstract namespace: the kernel grants the name
 * to one process only and frees it when that process dies, `kill -9` included, so there is no
 * stale lock to break (breaking stale lock files is where two starters after a crash both win).
 * The name carries a random key kept in `run/daemon.lockkey` (0600 in the 0700 directory), so
 * another user cannot take the name first. Elsewhere: a lock file made with O_EXCL holding the
 * pid, taken over when that pid is dead (a narrower race, the best the platform offers without
 * a native addon).
 */
// @ts-nocheck

import { randomBytes } from "node:crypto"
import { closeSync, linkSync, openSync, readFileSync, unlinkSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import * as Path from "node:path"

/** A lock held by this process; `release` gives it back (exit gives it back too). */
export interface DaemonLock {
  readonly release: () => void
}

const keyFile = (dir: string) => Path.join(dir, "daemon.lockkey")
const lockFile = (dir: string) => Path.join(dir, "daemon.lock")

/** The key of this run directory's lock, made once (written whole, then linked into place). */
const lockKey = (dir: string): string => {
  const file = keyFile(dir)
  try {
    return readFileSync(file, "utf8").trim()
  } catch {
    const temp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`
    writeFileSync(temp, randomBytes(16).toString("hex") + "\n", { mode: 0o600, flag: "wx" })
    try {
      linkSync(temp, file)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
    } finally {
      unlinkSync(temp)
    }
    return readFileSync(file, "utf8").trim()
  }
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

const abstractLock = (dir: string): Promise<DaemonLock | undefined> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.on("error", (error: NodeJS.ErrnoException) => (error.code === "EADDRINUSE" ? resolve(undefined) : reject(error)))
    server.listen(`\0mcpctl-daemon-${lockKey(dir)}`, () => {
      server.unref()
      resolve({ release: () => server.close() })
    })
  })

const fileLock = (dir: string, attempts = 3): DaemonLock | undefined => {
  const file = lockFile(dir)
  try {
    const fd = openSync(file, "wx", 0o600)
    writeFileSync(fd, `${process.pid}\n`)
    closeSync(fd)
    return {
      release: () => {
        try {
          if (Number(readFileSync(file, "utf8")) === process.pid) unlinkSync(file)
        } catch {
          // gone already
        }
      }
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempts === 0) throw error
    let holder = NaN
    try {
      holder = Number(readFileSync(file, "utf8"))
    } catch {
      // removed meanwhile: try again
    }
    if (holder > 0 && alive(holder)) return undefined
    try {
      unlinkSync(file)
    } catch {
      // another starter removed it
    }
    return fileLock(dir, attempts - 1)
  }
}

/** Takes the daemon lock of `dir` (the private run directory), or undefined when another process holds it. */
export const takeDaemonLock = (dir: string): Promise<DaemonLock | undefined> =>
  process.platform === "linux" ? abstractLock(dir) : Promise.resolve(fileLock(dir))
