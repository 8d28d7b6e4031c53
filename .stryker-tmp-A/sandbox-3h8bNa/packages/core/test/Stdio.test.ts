// @ts-nocheck
import { describe, expect, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/client"
import type { Transport } from "@modelcontextprotocol/client"
import { Fixtures, Processes } from "@mcpctl/testing"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Scope from "effect/Scope"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { StdioServerConfig } from "../src/config/ServerConfig.js"
import { openStdio, StdioChildTransport } from "../src/internal/transport/Stdio.js"
import { slow } from "./support/slow.js"

const resolved = (name: string, config: StdioServerConfig) => Fixtures.server(name, config)

/** A node script as a stdio server, with the config `openStdio` takes beside it. */
const nodeServer = (name: string, script: string, args: Array<string> = [], env?: Record<string, string>) => {
  const server = Fixtures.nodeServer(name, script, args, env)
  return { server, config: server.config as StdioServerConfig }
}

const connectClient = (transport: Transport) =>
  Effect.promise(async () => {
    const client = new Client({ name: "mcpctl-test", version: "0.0.0" })
    await client.connect(transport)
    return client
  })

const { isAlive } = Processes
const waitForFile = (path: string) => Effect.promise(() => Processes.waitForFile(path, 10_000))

describe("openStdio", () => {
  it.scoped("connects an SDK client to the echo server, lists tools, calls echo", () =>
    Effect.gen(function* () {
      const { config, server } = nodeServer("echo", Fixtures.echoServer)
      const opened = yield* openStdio(server, config)
      expect(opened.kind).toBe("stdio")
      const client = yield* connectClient(opened.transport)
      const { tools } = yield* Effect.promise(() => client.listTools())
      expect(tools.map((t) => t.name).sort()).toEqual(
        ["add", "big", "crash", "destructive_thing", "echo", "fail", "slow"].sort()
      )
      expect(tools.find((t) => t.name === "destructive_thing")?.annotations).toMatchObject({
        destructiveHint: true,
        openWorldHint: true
      })
      const result = yield* Effect.promise(() => client.callTool({ name: "echo", arguments: { text: "hello" } }))
      expect(result.content).toEqual([{ type: "text", text: "hello" }])
      const big = yield* Effect.promise(() => client.callTool({ name: "big", arguments: { chars: 300_000 } }))
      expect((big.content as Array<{ text: string }>)[0]!.text.length).toBe(300_000)
    }))

  it.scoped("skips non-JSON stdout lines and reports them as diagnostics", () =>
    Effect.gen(function* () {
      const { config, server } = nodeServer("noisy", Fixtures.echoServer, ["--noise"])
      const logged: Array<string> = []
      const opened = yield* openStdio(server, config, { onDiagnostic: (line) => logged.push(line) })
      const client = yield* connectClient(opened.transport)
      const sum = yield* Effect.promise(() => client.callTool({ name: "add", arguments: { a: 2, b: 3 } }))
      expect(sum.content).toEqual([{ type: "text", text: "5" }])
      const echo = yield* Effect.promise(() => client.callTool({ name: "echo", arguments: { text: "still fine" } }))
      expect(echo.content).toEqual([{ type: "text", text: "still fine" }])
      expect(logged.some((line) => line.includes("this is not json") && line.includes('"noisy"'))).toBe(true)
      expect(opened.diagnostics()).toContain("not JSON-RPC")
    }))

  it.effect("fails with ServerUnavailable naming the server, the command and the fix when the command is missing", () =>
    Effect.gen(function* () {
      const config: StdioServerConfig = { command: "mcpctl-no-such-command-xyz", args: ["--x"] }
      const error = yield* openStdio(resolved("ghost", config), config).pipe(Effect.scoped, Effect.flip)
      expect(error._tag).toBe("ServerUnavailable")
      expect(error.status).toBe("failed")
      expect(error.server).toBe("ghost")
      expect(error.message).toContain('"ghost"')
      expect(error.message).toContain("mcpctl-no-such-command-xyz")
      expect(error.message).toContain("PATH")
    }))

  it.effect("names the working directory when cwd does not exist", () =>
    Effect.gen(function* () {
      const config: StdioServerConfig = { command: process.execPath, cwd: "/nonexistent/mcpctl-dir" }
      const error = yield* openStdio(resolved("nowhere", config), config).pipe(Effect.scoped, Effect.flip)
      expect(error.message).toContain("/nonexistent/mcpctl-dir")
      expect(error.message).toContain("cwd")
    }))

  it.scoped("a server that fails to start leaves its stderr in diagnostics", () =>
    Effect.gen(function* () {
      const { config, server } = nodeServer("broken", Fixtures.echoServer, ["--fail-start"])
      const opened = yield* openStdio(server, config)
      const client = new Client({ name: "mcpctl-test", version: "0.0.0" })
      const failure = yield* Effect.promise(() => client.connect(opened.transport).then(() => undefined, (e: Error) => e))
      expect(failure).toBeInstanceOf(Error)
      expect(opened.diagnostics()).toContain("cannot start (--fail-start given)")
    }))

  it.scoped("a crash mid-call fires onclose and onerror, and the pending request rejects promptly", () =>
    Effect.gen(function* () {
      const { config, server } = nodeServer("crashy", Fixtures.echoServer)
      const opened = yield* openStdio(server, config)
      const client = yield* connectClient(opened.transport)
      const errors: Array<string> = []
      let closes = 0
      client.onerror = (error) => errors.push(error.message)
      client.onclose = () => closes++
      const started = Date.now()
      const outcome = yield* Effect.promise(() =>
        client.callTool({ name: "crash", arguments: {} }).then(() => "resolved", (e: Error) => e.message)
      )
      const elapsed = Date.now() - started
      console.log(`crash mid-call: pending request rejected after ${elapsed} ms`)
      expect(outcome).not.toBe("resolved")
      expect(elapsed).toBeLessThan(slow(3000))
      expect(closes).toBe(1)
      expect(errors.some((m) => m.includes("exit code 1") && m.includes("crashing on purpose"))).toBe(true)
      // Sending after the crash rejects with an EPIPE-like error instead of crashing the host.
      const sendError = yield* Effect.promise(() =>
        opened.transport.send({ jsonrpc: "2.0", method: "ping", id: 99 }).then(
          () => undefined,
          (e: NodeJS.ErrnoException) => e
        )
      )
      expect(sendError?.code).toBe("EPIPE")
    }))

  it.effect("close() is idempotent: one shutdown, onclose once, send afterwards rejects with EPIPE", () =>
    Effect.gen(function* () {
      const { config, server } = nodeServer("twice", Fixtures.echoServer)
      const scope = yield* Scope.make()
      const opened = yield* openStdio(server, config).pipe(Scope.extend(scope))
      const transport = opened.transport as StdioChildTransport
      let closes = 0
      yield* connectClient(transport)
      const onclose = transport.onclose
      transport.onclose = () => {
        closes++
        onclose?.()
      }
      const started = Date.now()
      const first = transport.close()
      expect(transport.close()).toBe(first)
      yield* Effect.promise(() => first)
      yield* Scope.close(scope, Exit.void)
      const elapsed = Date.now() - started
      console.log(`well-behaved echo server shut down in ${elapsed} ms`)
      expect(closes).toBe(1)
      expect(isAlive(transport.pid)).toBe(false)
      const error = yield* Effect.promise(() =>
        transport.send({ jsonrpc: "2.0", method: "ping", id: 1 }).then(
          () => undefined,
          (e: NodeJS.ErrnoException) => e
        )
      )
      expect(error?.code).toBe("EPIPE")
    }))

  it.scoped("is a stdio transport to SDK v2: pid and stderr, as its own stdio transport has", () =>
    Effect.gen(function* () {
      const script = "process.stderr.write('from the server\\n'); setInterval(() => {}, 1000)"
      const config: StdioServerConfig = { command: process.execPath, args: ["-e", script] }
      const opened = yield* openStdio(resolved("stderr", config), config)
      const transport = opened.transport as StdioChildTransport
      // How SDK v2 tells stdio from HTTP when it probes a server's era.
      expect("pid" in transport && "stderr" in transport).toBe(true)
      expect(transport.pid).toBeGreaterThan(0)
      const seen = yield* Effect.promise(() =>
        new Promise<string>((resolve) => transport.stderr!.on("data", (text: string) => resolve(String(text))))
      )
      expect(seen).toContain("from the server")
      expect(opened.diagnostics()).toContain("from the server")
    }))

  it.scoped("keeps only a bounded tail of stderr", () =>
    Effect.gen(function* () {
      const script = "for (let i = 0; i < 5000; i++) process.stderr.write('line ' + i + ' ' + 'x'.repeat(40) + '\\n'); process.stderr.write('LAST')"
      const config: StdioServerConfig = { command: process.execPath, args: ["-e", script] }
      const opened = yield* openStdio(resolved("chatty", config), config)
      const transport = opened.transport as StdioChildTransport
      const client = new Client({ name: "mcpctl-test", version: "0.0.0" })
      yield* Effect.promise(() => client.connect(transport).catch(() => undefined))
      const tail = opened.diagnostics() ?? ""
      // The server exited by itself: how is the line after its own last words.
      expect(tail).toMatch(/LAST\n\[mcpctl\] the server process exited \(exit code 0\)$/)
      expect(tail).toContain("line 4999")
      expect(tail).not.toContain("line 4900 ")
      expect(tail.length).toBeLessThanOrEqual(8 * 1024 + 150)
      expect(tail.split("\n").length).toBeLessThanOrEqual(52)
    }))

  it.effect("the stubborn wrapper: sh, server and grandchild are all gone after the scope closes", () =>
    Effect.gen(function* () {
      const dir = mkdtempSync(join(tmpdir(), "mcpctl-stubborn-"))
      const pidFile = join(dir, "pids.json")
      const wrapperPidFile = join(dir, "wrapper.pid")
      const config: StdioServerConfig = {
        command: "sh",
        args: [Fixtures.stubbornWrapper],
        env: { STUBBORN_PID_FILE: pidFile, STUBBORN_WRAPPER_PID_FILE: wrapperPidFile }
      }
      const scope = yield* Scope.make()
      const opened = yield* openStdio(resolved("stubborn", config), config).pipe(Scope.extend(scope))
      const client = yield* connectClient(opened.transport)
      const tools = yield* Effect.promise(() => client.listTools())
      expect(tools.tools.map((t) => t.name)).toContain("echo")
      const pids = JSON.parse(yield* waitForFile(pidFile)) as { server: number; grandchild: number }
      const wrapper = Number(yield* waitForFile(wrapperPidFile))
      const all = { wrapper, server: pids.server, grandchild: pids.grandchild }
      expect(wrapper).toBe((opened.transport as StdioChildTransport).pid)
      for (const pid of Object.values(all)) expect(isAlive(pid)).toBe(true)

      const started = performance.now()
      yield* Scope.close(scope, Exit.void)
      const elapsed = Math.round(performance.now() - started)
      console.log(`stubborn wrapper (sh → node → node, all ignoring INT/TERM) shut down in ${elapsed} ms`)

      const survivors = Object.entries(all).filter(([, pid]) => isAlive(pid))
      expect(survivors).toEqual([])
    }))

  it.effect("the stubborn server started directly: server and grandchild are gone after the scope closes", () =>
    Effect.gen(function* () {
      const dir = mkdtempSync(join(tmpdir(), "mcpctl-stubborn-"))
      const pidFile = join(dir, "pids.json")
      const { config, server } = nodeServer("stubborn2", Fixtures.stubbornServer, [], { STUBBORN_PID_FILE: pidFile })
      const scope = yield* Scope.make()
      const opened = yield* openStdio(server, config).pipe(Scope.extend(scope))
      yield* connectClient(opened.transport)
      const pids = JSON.parse(yield* waitForFile(pidFile)) as { server: number; grandchild: number }
      const started = performance.now()
      yield* Scope.close(scope, Exit.void)
      const elapsed = Math.round(performance.now() - started)
      console.log(`stubborn server (node → node) shut down in ${elapsed} ms`)
      expect(isAlive(pids.server)).toBe(false)
      expect(isAlive(pids.grandchild)).toBe(false)
    }))

  it.effect("a leader that exits on SIGINT does not leave a signal-ignoring grandchild behind", () =>
    Effect.gen(function* () {
      // The leader dies of the default SIGINT at once; its child ignores INT/TERM/HUP and would
      // survive if only the leader's exit were awaited.
      // The grandchild inherits the pipes and keeps them open after the leader exits (so 'close'
      // never comes by itself); it writes its pid to a file once its handlers are installed.
      const pidFile = join(mkdtempSync(join(tmpdir(), "mcpctl-leaky-")), "grandchild.pid")
      const grandchild =
        "for (const s of ['SIGINT','SIGTERM','SIGHUP']) process.on(s, () => {});" +
        "require('node:fs').writeFileSync(process.env.GRANDCHILD_PID_FILE, String(process.pid)); setInterval(() => {}, 1 << 30)"
      const leader =
        `require('node:child_process').spawn(process.execPath, ['-e', ${JSON.stringify(grandchild)}], { stdio: 'inherit' });` +
        "setInterval(() => {}, 1 << 30)"
      const config: StdioServerConfig = { command: process.execPath, args: ["-e", leader], env: { GRANDCHILD_PID_FILE: pidFile } }
      const scope = yield* Scope.make()
      const opened = yield* openStdio(resolved("leaky", config), config).pipe(Scope.extend(scope))
      const leaderPid = (opened.transport as StdioChildTransport).pid
      const grandchildPid = Number(yield* waitForFile(pidFile))
      expect(isAlive(grandchildPid)).toBe(true)
      const started = performance.now()
      yield* Scope.close(scope, Exit.void)
      const elapsed = Math.round(performance.now() - started)
      console.log(`leader gone on SIGINT, stubborn grandchild killed with the group in ${elapsed} ms`)
      expect(isAlive(leaderPid)).toBe(false)
      expect(isAlive(grandchildPid)).toBe(false)
    }))
})
