/**
 * The daemon's wire format and where it lives, shared by the daemon, its warm hosts and the
 * `daemon` command. The relay client (bin/relay.mjs) speaks the same format in plain JavaScript:
 * it must load neither Effect nor the SDK. Keep the two in step (daemon.test.ts runs both).
 *
 * A frame is one type byte, a 4-byte big-endian length and the payload. Client to daemon: `R`
 * (a command to run: token, argv, cwd, environment, terminal facts) or `C` (control: status,
 * stop). Daemon to client: `S` (the command started: from now on it is not run again),
 * `O`/`E` (stdout/stderr bytes), `X` (the exit code, last), `I` (not started: run it in-process),
 * `J` (a control reply, JSON).
 */
// @ts-nocheck

import { homedir } from "node:os"
import * as Path from "node:path"

/** `$MCPCTL_HOME/run`, the directory of the socket and the token (0700). */
export const runDir = (env: Readonly<Record<string, string | undefined>>): string =>
  Path.join(Path.resolve(env.MCPCTL_HOME || Path.join(homedir(), ".mcpctl")), "run")

/** The daemon's Unix socket (0600). */
export const socketPath = (dir: string): string => Path.join(dir, "daemon.sock")
/** The per-run secret a client presents in its first frame (0600, removed at exit). */
export const tokenPath = (dir: string): string => Path.join(dir, "daemon.token")
/** The daemon's own log (its stderr and its hosts'). */
export const logPath = (dir: string): string => Path.join(dir, "daemon.log")

/** What the client sends to run a command. */
export interface RunRequest {
  readonly token: string
  readonly argv: ReadonlyArray<string>
  readonly cwd: string
  readonly env: Readonly<Record<string, string>>
  readonly tty: {
    readonly stdin: boolean
    readonly stdout: boolean
    readonly stderr: boolean
    readonly columns?: number | undefined
    readonly rows?: number | undefined
  }
}

/** What `daemon status` and `daemon stop` send. */
export interface ControlRequest {
  readonly token: string
  readonly kind: "status" | "stop"
}

/** One frame (pure). */
export const frame = (type: string, payload: string | Uint8Array = ""): Buffer => {
  const body = typeof payload === "string" ? Buffer.from(payload, "utf8") : Buffer.from(payload)
  const head = Buffer.alloc(5)
  head[0] = type.charCodeAt(0)
  head.writeUInt32BE(body.length, 1)
  return Buffer.concat([head, body])
}

/** The largest frame a peer may send us (a request carries an environment, not data). */
export const MAX_FRAME = 8 * 1024 * 1024

/** Splits a byte stream into frames; `push` returns the frames completed so far (throws past MAX_FRAME). */
export const frameReader = () => {
  let buffered: Buffer = Buffer.alloc(0)
  return {
    push: (chunk: Buffer): Array<{ readonly type: string; readonly body: Buffer }> => {
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk])
      const frames: Array<{ type: string; body: Buffer }> = []
      while (buffered.length >= 5) {
        const length = buffered.readUInt32BE(1)
        if (length > MAX_FRAME) throw new Error(`frame of ${length} bytes`)
        if (buffered.length < 5 + length) break
        frames.push({ type: String.fromCharCode(buffered[0]!), body: buffered.subarray(5, 5 + length) })
        buffered = buffered.subarray(5 + length)
      }
      return frames
    },
    /** Bytes after the last complete frame. */
    rest: (): number => buffered.length
  }
}
