/**
 * The stdio transport: a server as a child process in its own process group, JSON-RPC lines over
 * its stdin/stdout, stderr kept as a bounded tail for error messages. Shutdown signals the whole
 * group (SIGINT, SIGTERM after 100 ms, SIGKILL after 400 ms more), so `npx` and shell wrappers
 * leave no grandchildren behind (docs/CLI.md, Lifecycle). It replaces the SDK's
 * `StdioClientTransport`, which waits 2 s + 2 s and signals only the direct child. Which
 * variables the child inherits is decided in `ChildEnvironment.ts` (re-exported here).
 */
import { spawn, type ChildProcess } from "node:child_process"
import type { Readable } from "node:stream"
import { existsSync } from "node:fs"
import { serializeMessage } from "@modelcontextprotocol/client"
import type { Transport as SdkTransport, JSONRPCMessage, MessageExtraInfo } from "@modelcontextprotocol/client"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { childEnvironment } from "./ChildEnvironment.js"
import type { ResolvedServer, StdioServerConfig } from "../../config/ServerConfig.js"
import { ServerUnavailable } from "../../Errors.js"
import { blame, DEFAULT_MAX_RESPONSE_BYTES, IdScanner, InFlight, isMessageShape, tooLargeAnswer, tooLargeText } from "./MessageSize.js"
import type { OpenedTransport } from "./OpenedTransport.js"
import { NotSent } from "./TransportErrors.js"
import { groupExists, groupHasLiveMember, register } from "./ProcessGroups.js"
import { endGroup, poke, watch, type GroupEnd } from "./Reaper.js"
import { emptied, killCgroup, place, remove } from "./Cgroups.js"


// ---------------------------------------------------------------------------------------------
// Bounded stderr tail
// ---------------------------------------------------------------------------------------------

/** Last lines of a stream, at most `maxLines` lines and about `maxChars` characters. */
class Tail {
  private lines: Array<string> = []
  private chars = 0
  private partial = ""

  constructor(
    private readonly maxLines = 50,
    private readonly maxChars = 8 * 1024
  ) {}

  /** Appends raw text (may contain several lines or part of one). */
  write(text: string): void {
    const parts = (this.partial + text).split("\n")
    this.partial = parts.pop() ?? ""
    if (this.partial.length > this.maxChars) this.partial = this.partial.slice(-this.maxChars)
    for (const line of parts) this.push(line.replace(/\r$/, ""))
  }

  /** Appends one complete line. */
  push(line: string): void {
    const kept = line.length > this.maxChars ? line.slice(-this.maxChars) : line
    this.lines.push(kept)
    this.chars += kept.length + 1
    while (this.lines.length > this.maxLines || (this.chars > this.maxChars && this.lines.length > 1)) {
      this.chars -= this.lines.shift()!.length + 1
    }
  }

  text(): string | undefined {
    const all = this.partial === "" ? this.lines : [...this.lines, this.partial]
    const text = all.join("\n").trim()
    return text === "" ? undefined : text
  }
}

/** How long a write that failed waits for the child's exit (and its last stderr) to name it. */
const EXIT_WAIT_MS = 1_000
/** After the exit, how long stderr may take to deliver what the child wrote before it died. */
const STDERR_DRAIN_MS = 200

// ---------------------------------------------------------------------------------------------
// The transport
// ---------------------------------------------------------------------------------------------

/** Options of {@link openStdio}. */
export interface StdioOptions {
  /** The parent environment to pick inherited variables from; defaults to `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>
  /** Called with every line that is worth a log entry (non-JSON-RPC stdout lines). */
  readonly onDiagnostic?: (line: string) => void
  /** The largest message (stdout line) accepted, bytes; default 32 MiB (`MessageSize.ts`). */
  readonly maxMessageBytes?: number | undefined
  /**
   * Where the live process groups are recorded, so a later run can end them if this process and
   * its watchdog were both killed (`ProcessGroups.ts`); usually `$MCPCTL_HOME/processes`.
   */
  readonly ledgerDir?: string | undefined
}

/** Knobs of one {@link StdioChildTransport} beyond its child. */
export interface StdioTransportOptions {
  readonly onDiagnostic?: ((line: string) => void) | undefined
  readonly maxMessageBytes?: number | undefined
  /** Called once the process group is gone (releases its watchdog and ledger records). */
  readonly onGroupGone?: (() => void) | undefined
  /** The server's own cgroup (`Cgroups.ts`), killed whole at the end of the shutdown. */
  readonly cgroup?: string | undefined
}

/** The command line as written in the settings, so messages show `${TOKEN}`, not its value. */
const shownConfig = (server: ResolvedServer, config: StdioServerConfig): StdioServerConfig =>
  server.rawConfig && "command" in server.rawConfig ? server.rawConfig : config

const describeCommand = (config: StdioServerConfig): string =>
  [config.command, ...(config.args ?? [])].map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(" ")

const pipeError = (server: string, reason: "exited" | "closed", detail: string): NotSent =>
  new NotSent({ to: `MCP server "${server}"`, reason, detail })

/**
 * An SDK `Transport` over a spawned child. Exported for tests and for callers that need the pid;
 * the pool gets it through {@link openStdio}, which ties its shutdown to a scope.
 */
export class StdioChildTransport implements SdkTransport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void
  /**
   * Set by the pool: true for a line (its bytes `bytes[start..end)`) to drop undecoded and
   * unparsed (a server log below the host's threshold, `hostClient.ts`); a flood of them costs
   * a scan of bytes per line, not a string and a parse.
   */
  skipLine: ((bytes: Uint8Array, start: number, end: number) => boolean) | undefined = undefined

  /** The child's pid, which is also its process group id. */
  readonly pid: number

  /**
   * The child's stderr (already read into the tail {@link diagnostics} returns; a listener added
   * here sees the same text). With `pid`, this is how SDK v2 recognises a stdio transport, which
   * decides how version negotiation probes the server.
   */
  get stderr(): Readable | null {
    return this.child.stderr
  }

  private readonly stderrTail = new Tail()
  private readonly stdoutChunks: Array<Buffer> = []
  private stdoutPending = 0
  /** Set while an over-long line is being dropped: its bytes are only scanned for its id. */
  private dropping: { scanner: IdScanner; size: number; blamed: boolean } | undefined
  private readonly inFlight = new InFlight()
  private readonly maxMessageBytes: number
  private readonly onDiagnostic: ((line: string) => void) | undefined
  private started = false
  private corked = false
  private readonly queued: Array<JSONRPCMessage> = []
  private exit: { code: number | null; signal: NodeJS.Signals | null } | undefined
  private ended = false
  private closeNotified = false
  private closing = false
  private endPromise: Promise<GroupEnd> | undefined
  private closePromise: Promise<void> | undefined
  private stderrEnded = false
  private readonly unwatch: () => void

  constructor(
    private readonly child: ChildProcess,
    private readonly serverName: string,
    private readonly command: string,
    private readonly options: StdioTransportOptions = {}
  ) {
    this.pid = child.pid!
    // The first signal begins this shutdown itself (Reaper.endAll), before any scope closes.
    this.unwatch = watch(this.pid, () => void this.end())
    this.onDiagnostic = options.onDiagnostic
    this.maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_RESPONSE_BYTES
    child.stdout!.on("data", (chunk: Buffer) => this.onStdout(chunk))
    child.stdout!.on("error", () => {})
    child.stderr!.setEncoding("utf8")
    child.stderr!.on("data", (text: string) => this.stderrTail.write(text))
    child.stderr!.on("error", () => {})
    child.stderr!.on("close", () => (this.stderrEnded = true))
    // EPIPE and friends when the child is gone: `send` reports them, they must not crash us.
    child.stdin!.on("error", (error) => {
      if (!this.closing && this.exit === undefined) this.onerror?.(error)
    })
    child.on("error", (error) => {
      if (!this.closing) this.onerror?.(error)
    })
    child.on("exit", (code, signal) => {
      this.exit = { code, signal }
      poke(this.pid)
      // 'close' waits for stdout/stderr to end; a grandchild holding them open would delay it
      // forever, so do not wait long for it.
      setTimeout(() => this.onEnded(), 50).unref()
    })
    child.on("close", () => this.onEnded())
  }

  /**
   * The last lines the server wrote to stderr (and skipped stdout lines), and how it exited when
   * it did so by itself: a server that dies at start is named by its own last words and its exit
   * code, not by the closed pipe we saw.
   */
  diagnostics(): string | undefined {
    const tail = this.stderrTail.text()
    if (this.exit === undefined || this.closing) return tail
    const exit = `[mcpctl] the server process exited (${this.exitText()})`
    return tail === undefined ? exit : `${tail}\n${exit}`
  }

  async start(): Promise<void> {
    if (this.started) throw new Error("StdioChildTransport already started")
    this.started = true
    for (const message of this.queued.splice(0)) this.onmessage?.(message)
    if (this.ended) {
      this.notifyClose()
      throw this.exitError()
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child.stdin!
    if (this.exit !== undefined) return Promise.reject(pipeError(this.serverName, "exited", `the process has exited (${this.exitText()})`))
    if (this.closing || !stdin.writable) return Promise.reject(pipeError(this.serverName, "closed", "the connection is closed"))
    // Messages sent in the same tick leave in one write: many calls in flight cost the server
    // (and us) one wake-up instead of one per message.
    if (!this.corked) {
      this.corked = true
      stdin.cork()
      process.nextTick(() => {
        this.corked = false
        stdin.uncork()
      })
    }
    this.inFlight.sent(message)
    return new Promise((resolve, reject) => {
      stdin.write(serializeMessage(message), (error) => {
        if (!error) return resolve()
        const code = (error as NodeJS.ErrnoException).code ?? "EPIPE"
        // A server that dies at start closes its stdin before we know it exited: a bare
        // "write EPIPE" would hide why. Name the exit (its stderr is in diagnostics by then).
        if (this.closing) return reject(Object.assign(error, { code }))
        void this.exited(EXIT_WAIT_MS).then((exited) =>
          reject(exited
            ? Object.assign(new Error(`the server process exited (${this.exitText()}) before reading what was sent`), { code, cause: error })
            : Object.assign(error, { code }))
        )
      })
    })
  }

  /** Ends the whole process group; idempotent, every caller awaits the same shutdown. */
  close(): Promise<void> {
    this.closePromise ??= this.end().then(() => undefined)
    return this.closePromise
  }

  /**
   * {@link close}, with how it went: resolves once nothing of the group is left, or (after
   * SIGKILL and a bound) with the pids still alive.
   */
  end(): Promise<GroupEnd> {
    this.endPromise ??= this.shutdown().finally(() => {
      this.groupGone()
      this.notifyClose()
    })
    return this.endPromise
  }

  private async shutdown(): Promise<GroupEnd> {
    this.closing = true
    try {
      this.child.stdin!.end()
    } catch {
      // already destroyed
    }
    const end = await endGroup(this.pid, () => this.exit !== undefined)
    const cgroup = this.options.cgroup
    if (cgroup === undefined) return end
    // What left the group (a `setsid` grandchild) is still in the cgroup: SIGKILL to all of it.
    killCgroup(cgroup)
    const empty = await emptied(cgroup, 3_000)
    remove(cgroup)
    return empty ? end : { ...end, gone: false }
  }

  /** The group is gone (or was sent SIGKILL, which nothing survives): its records go too. */
  private groupGone(): void {
    this.unwatch()
    this.options.onGroupGone?.()
  }

  /** Whether anything of the group (the leader or any descendant that stayed in it) still runs. */
  private groupAlive(): boolean {
    if (!groupExists(this.pid)) return false
    if (this.exit === undefined) return true
    return process.platform === "linux" ? groupHasLiveMember(this.pid) ?? true : true
  }

  /**
   * Resolves true once the child has exited and its stderr has ended (or a little after the exit:
   * a grandchild may hold stderr open), false when it has not exited within `ms`.
   */
  private exited(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const check = () => {
        if (this.exit === undefined) return false
        if (this.stderrEnded) resolve(true)
        else setTimeout(() => resolve(true), STDERR_DRAIN_MS).unref()
        return true
      }
      if (check()) return
      const onExit = () => {
        clearTimeout(timer)
        check()
      }
      const timer = setTimeout(() => {
        this.child.off("exit", onExit)
        resolve(false)
      }, ms)
      timer.unref()
      // Runs after the constructor's exit listener has recorded the exit.
      this.child.once("exit", onExit)
    })
  }

  private onEnded(): void {
    if (this.ended) return
    this.ended = true
    this.flushPartialLine()
    // While closing, the reaper decides when the group is gone: a /proc scan per exit here cost
    // fifty shutting-down servers fifty scans of every process on the machine.
    if (!this.closing && !this.groupAlive()) this.groupGone()
    if (!this.closing && this.started) this.onerror?.(this.exitError())
    if (this.started) this.notifyClose()
  }

  private notifyClose(): void {
    if (this.closeNotified || !this.started) return
    this.closeNotified = true
    this.onclose?.()
  }

  private exitText(): string {
    if (this.exit === undefined) return "still running"
    return this.exit.signal !== null ? `killed by ${this.exit.signal}` : `exit code ${this.exit.code}`
  }

  private exitError(): Error {
    const tail = this.stderrTail.text()
    return new Error(
      `MCP server "${this.serverName}" (${this.command}) exited unexpectedly, ${this.exitText()}` +
        (tail === undefined ? "" : `\nstderr:\n${tail}`)
    )
  }

  // Own line splitting instead of the SDK's ReadBuffer: one bad line (a banner, a stray
  // console.log) must be skipped, not end the connection, and chunks are joined once per line
  // instead of once per chunk.
  private onStdout(chunk: Buffer): void {
    let start = 0
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start)
      if (newline === -1) {
        this.appendPartial(chunk, start)
        return
      }
      const from = start
      start = newline + 1
      if (this.dropping !== undefined || this.stdoutPending + newline - from > this.maxMessageBytes) {
        this.dropLine(chunk.subarray(from, newline), true)
        continue
      }
      if (this.stdoutChunks.length === 0) {
        // The common case, a whole line in one chunk: looked at in place (no Buffer view per line).
        if (this.skipLine?.(chunk, from, newline) === true) continue
        this.handleLine(chunk.toString("utf8", from, newline))
        continue
      }
      const piece = chunk.subarray(from, newline)
      const line = Buffer.concat([...this.stdoutChunks, piece], this.stdoutPending + piece.length)
      this.stdoutChunks.length = 0
      this.stdoutPending = 0
      if (this.skipLine?.(line, 0, line.length) === true) continue
      this.handleLine(line.toString("utf8"))
    }
  }

  private appendPartial(chunk: Buffer, start: number): void {
    const piece = chunk.subarray(start)
    if (this.dropping !== undefined || this.stdoutPending + piece.length > this.maxMessageBytes) {
      this.dropLine(piece, false)
      return
    }
    this.stdoutPending += piece.length
    // Copy: the stream may reuse the chunk's memory.
    this.stdoutChunks.push(Buffer.from(piece))
  }

  /**
   * A line past the limit: what was kept of it is let go, the rest is only scanned for the id of
   * the request it answers, and that request fails with the reason, at once when it is known
   * (the id was read, or only one request is in flight), else when the line ends.
   */
  private dropLine(piece: Buffer, ends: boolean): void {
    let dropping = this.dropping
    if (dropping === undefined) {
      const scanner = new IdScanner()
      for (const kept of this.stdoutChunks) scanner.feed(kept)
      dropping = this.dropping = { scanner, size: this.stdoutPending, blamed: false }
      this.stdoutChunks.length = 0
      this.stdoutPending = 0
    }
    dropping.size += piece.length
    if (!dropping.scanner.finished) dropping.scanner.feed(piece)
    if (!dropping.blamed && !ends) {
      const ids = blame(dropping.scanner, this.inFlight.pending())
      if (ids.length > 0) this.answerDropped(ids, false)
    }
    if (!ends) return
    if (!dropping.blamed) {
      const ids = dropping.scanner.id !== undefined ? [dropping.scanner.id] : []
      if (ids.length > 0) this.answerDropped(ids, true)
      else this.diagnostic(`${tooLargeText(this.serverName, dropping.size, this.maxMessageBytes, true)} (it answered no request we could tell)`)
    }
    this.dropping = undefined
  }

  private answerDropped(ids: ReadonlyArray<string | number>, complete: boolean): void {
    const dropping = this.dropping!
    dropping.blamed = true
    const text = tooLargeText(this.serverName, dropping.size, this.maxMessageBytes, complete)
    this.diagnostic(text)
    for (const id of ids) this.deliver(tooLargeAnswer(id, text))
  }

  private flushPartialLine(): void {
    if (this.dropping !== undefined) {
      this.dropLine(Buffer.alloc(0), true)
      return
    }
    if (this.stdoutChunks.length === 0) return
    const bytes = Buffer.concat(this.stdoutChunks)
    this.stdoutChunks.length = 0
    this.stdoutPending = 0
    if (this.skipLine?.(bytes, 0, bytes.length) === true) return
    this.handleLine(bytes.toString("utf8"))
  }

  private handleLine(raw: string): void {
    const line = raw.charCodeAt(raw.length - 1) === 0x0d ? raw.slice(0, -1) : raw
    let message: unknown
    try {
      message = JSON.parse(line)
    } catch {
      message = undefined
    }
    if (!isMessageShape(message)) {
      if (line.trim() === "") return
      this.diagnostic(`stdout line is not JSON-RPC, skipped: ${line.length > 200 ? line.slice(0, 200) + "…" : line}`)
      return
    }
    this.deliver(message)
  }

  private deliver(message: JSONRPCMessage): void {
    this.inFlight.received(message)
    if (this.started) this.onmessage?.(message)
    else this.queued.push(message)
  }

  private diagnostic(line: string): void {
    this.stderrTail.push(`[mcpctl] ${line}`)
    this.onDiagnostic?.(`MCP server "${this.serverName}": ${line}`)
  }
}

const spawnFailure = (server: ResolvedServer, config: StdioServerConfig, error: NodeJS.ErrnoException): ServerUnavailable => {
  const where = `"${server.originalName}" in ${server.source}`
  let message: string
  if (error.code === "ENOENT" && config.cwd !== undefined && !existsSync(config.cwd)) {
    message = `Cannot start MCP server "${server.name}": its working directory "${config.cwd}" does not exist. Fix "cwd" of ${where}.`
  } else if (error.code === "ENOENT") {
    message =
      `Cannot start MCP server "${server.name}": command "${config.command}" not found. ` +
      `Is it installed and on PATH? Install it, or give its absolute path as "command" of ${where}.`
  } else if (error.code === "EACCES") {
    message =
      `Cannot start MCP server "${server.name}": command "${config.command}" is not executable (permission denied). ` +
      `Make it executable (chmod +x) or run it through its interpreter in ${where}.`
  } else {
    message = `Cannot start MCP server "${server.name}" (${describeCommand(shownConfig(server, config))}): ${error.message}`
  }
  return new ServerUnavailable({ message, server: server.name, status: "failed", cause: error })
}

/**
 * Starts a stdio server in its own process group and returns it as an SDK transport bound to the
 * scope: closing the scope (or the transport) runs the SIGINT → SIGTERM → SIGKILL escalation on
 * the whole group, and the finalizer waits for it, so nothing outlives the scope by more than
 * ~600 ms. A command that cannot be started fails here, before any JSON-RPC, with the fix.
 */
export const openStdio = (
  server: ResolvedServer,
  config: StdioServerConfig,
  options?: StdioOptions
): Effect.Effect<OpenedTransport, ServerUnavailable, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.async<StdioChildTransport, ServerUnavailable>((resume) => {
      let child: ChildProcess
      try {
        child = spawn(config.command, [...(config.args ?? [])], {
          detached: true,
          stdio: ["pipe", "pipe", "pipe"],
          cwd: config.cwd,
          env: childEnvironment(options?.env ?? process.env, config.env),
          windowsHide: true
        })
      } catch (error) {
        resume(Effect.fail(spawnFailure(server, config, error as NodeJS.ErrnoException)))
        return
      }
      const onError = (error: NodeJS.ErrnoException) => {
        child.off("spawn", onSpawn)
        // Streams are created even when spawning fails; do not leave them open.
        child.stdin?.destroy()
        child.stdout?.destroy()
        child.stderr?.destroy()
        resume(Effect.fail(spawnFailure(server, config, error)))
      }
      const onSpawn = () => {
        child.off("error", onError)
        const command = describeCommand(shownConfig(server, config))
        // Recorded before anything else can happen: from here on, no death of ours orphans it.
        const release = register(child.pid!, { server: server.name, command, ledgerDir: options?.ledgerDir })
        const cgroup = place(child.pid!)
        resume(Effect.succeed(
          new StdioChildTransport(child, server.name, command, {
            onDiagnostic: options?.onDiagnostic,
            maxMessageBytes: options?.maxMessageBytes,
            onGroupGone: release,
            cgroup
          })
        ))
      }
      child.once("error", onError)
      child.once("spawn", onSpawn)
    }),
    (transport) =>
      Effect.promise(() => transport.end()).pipe(
        Effect.flatMap((end) =>
          end.gone
            ? Effect.void
            : Effect.logWarning(
              `MCP server "${server.name}": processes ${end.left.join(", ")} of its group were still alive ` +
                `${end.ms} ms after the shutdown began (SIGKILL sent); they are left to the kernel`
            ).pipe(Effect.annotateLogs({ server: server.name, pids: end.left.join(",") }))
        )
      )
  ).pipe(
    Effect.map(
      (transport): OpenedTransport => ({
        kind: "stdio",
        transport,
        diagnostics: () => transport.diagnostics()
      })
    ),
    Effect.withSpan("StdioProcess.openStdio", { attributes: { server: server.name, command: config.command } })
  )
