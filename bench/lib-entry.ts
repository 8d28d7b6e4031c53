/**
 * In-process figures of the benchmark, one figure and one side per process so neither side warms
 * the other's JIT or heap. `bench/run.mjs` bundles this file with esbuild (no tsx needed) and runs
 *
 *   node --expose-gc lib-entry.mjs '<json spec>'
 *
 * where the spec is `{ figure, side, n, ... }`; the result is one JSON line on stdout.
 *
 * - mcpctl side: the library path a program composing the layers gets (`McpConfig.layerStatic` +
 *   `Transport.layer` + `ConnectionPool.layer` + `Permission.layer` with an allow rule for the tool,
 *   `Prompter.layerNone` and `RuleWriter.layerNoop` + `ToolRegistry.layer`, `registry.call(...)`),
 *   the loop itself written in Effect: every call is checked against the rules, as users run it.
 * - raw side: SDK v2 `@modelcontextprotocol/client` `Client` + its own transports, `client.callTool(...)`.
 *
 * `era`: "legacy" (default) runs both sides in the 2025 era (the `initialize` handshake, v2's
 * default `versionNegotiation: "legacy"`) against the legacy lean server; "modern" runs both
 * pinned to 2026-07-28 (`versionNegotiation: { mode: { pin } }`, through the pool's client
 * options on the mcpctl side) against the lean server's both-eras form (`--modern`).
 */
import { Processes } from "@mcpctl/testing"
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/client/stdio"
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client"
import { McpConfig } from "@mcpctl/core/McpConfig"
import { type ResolvedServer, type ServerConfig } from "@mcpctl/core/ServerConfig"
import { ConnectionPool } from "@mcpctl/core/ConnectionPool"
import { Permission, Prompter, RuleWriter } from "@mcpctl/core/Permission"
import { openStdio } from "@mcpctl/core/internal/transport/Stdio"
import { ToolRegistry } from "@mcpctl/core/ToolRegistry"
import { Transport } from "@mcpctl/core/Transport"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Scope from "effect/Scope"
import { rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

interface Spec {
  readonly figure: "latency" | "throughput" | "http" | "memory" | "shutdown"
  readonly side: "mcpctl" | "raw"
  /** The protocol era both sides speak (default legacy). */
  readonly era?: "legacy" | "modern"
  /** Measured calls. */
  readonly n: number
  /** Calls before measuring (JIT, caches). */
  readonly warmup: number
  /** Calls in flight (throughput). */
  readonly concurrency?: number
  /** The lean server script (stdio figures). */
  readonly server: string
  /** The Streamable HTTP lean server's URL (http figure). */
  readonly url?: string
  /**
   * Raw side only: start the server through `setsid`, in a session (and process group) of its
   * own, as mcpctl must for its group kill (a reference floor: a server outside the client's
   * session is scheduled in its own group, which costs each round trip on a busy machine).
   */
  readonly setsid?: boolean
  /** The stubborn wrapper script (shutdown figure). */
  readonly wrapper?: string
}

const spec: Spec = JSON.parse(process.argv[2] ?? "{}")
const now = () => process.hrtime.bigint()
const ms = (ns: bigint) => Number(ns) / 1e6
const ARGS = { text: "hello" }
const TOOL = "mcp__lean__echo"
const MODERN = "2026-07-28"
const modern = spec.era === "modern"
/** The lean server's command line: its both-eras form for the modern era. */
const serverArgs = () => (modern ? [spec.server, "--modern"] : [spec.server])
/** SDK v2 client options of the era (legacy: v2's default). */
const eraOptions = () => (modern ? { versionNegotiation: { mode: { pin: MODERN } } } : {})

const gc = (): void => {
  const g = (globalThis as { gc?: () => void }).gc
  if (!g) throw new Error("run with node --expose-gc")
  for (let i = 0; i < 4; i++) g()
}

const percentile = (sorted: Float64Array, p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!

const latencyStats = (samples: Float64Array) => {
  const sorted = Float64Array.from(samples).sort()
  return { p50Ms: percentile(sorted, 0.5), p99Ms: percentile(sorted, 0.99), meanMs: sorted.reduce((a, b) => a + b, 0) / sorted.length }
}

/**
 * The client process's own CPU time (user + sys) per call since `since`: what the library costs
 * per call, which machine load disturbs far less than the wall-clock latency.
 */
const cpuPerCall = (since: NodeJS.CpuUsage) => {
  const { user, system } = process.cpuUsage(since)
  // User time apart: the system part is mostly pipe writes and wake-ups, which load moves most.
  return { cpuUsPerCall: (user + system) / spec.n, userUsPerCall: user / spec.n }
}

// ---------------------------------------------------------------------------------------------
// mcpctl side

const serverConfig = (): ServerConfig =>
  spec.figure === "http"
    ? { type: "http", url: spec.url! }
    : { command: process.execPath, args: serverArgs() }

// The shipped permission gate (rules, prompter, rule writer), not `layerAllowAll`: the rule check
// is part of every call users make.
const permission = Permission.layer.pipe(Layer.provide(Layer.merge(Prompter.layerNone, RuleWriter.layerNoop)))

const hostLayer = () =>
  ToolRegistry.layer.pipe(
    Layer.provideMerge(Layer.merge(
      modern ? ConnectionPool.layerWith({ capabilities: { capabilities: {}, ...eraOptions() } }) : ConnectionPool.layer,
      permission
    )),
    Layer.provideMerge(Layer.merge(
      Transport.layer,
      McpConfig.layerStatic({ servers: { lean: serverConfig() }, permissions: { allow: [TOOL] } })
    ))
  )

const mcpctlFigure = Effect.gen(function*() {
  const registry = yield* ToolRegistry
  const call = registry.call(TOOL, ARGS)
  yield* call
  // Both sides in the era asked for, or the figure would compare different protocols.
  const negotiated = (yield* (yield* ConnectionPool).get("lean")).client.getNegotiatedProtocolVersion()
  if ((negotiated === MODERN) !== modern) throw new Error(`mcpctl: negotiated ${negotiated} (era ${spec.era ?? "legacy"})`)
  for (let i = 0; i < spec.warmup; i++) yield* call
  switch (spec.figure) {
    case "latency": {
      const samples = new Float64Array(spec.n)
      const cpu0 = process.cpuUsage()
      for (let i = 0; i < spec.n; i++) {
        const t0 = now()
        yield* call
        samples[i] = ms(now() - t0)
      }
      return { ...latencyStats(samples), ...cpuPerCall(cpu0) }
    }
    case "throughput":
    case "http": {
      // The same shape as the raw side: `concurrency` workers, each calling until n calls are
      // taken (not one fiber per call, which would measure fiber creation, not the library).
      const concurrency = spec.concurrency ?? 1
      let next = 0
      const worker = Effect.whileLoop({
        while: () => next < spec.n,
        body: () => Effect.suspend(() => (next++, call)),
        step: () => {}
      })
      const t0 = now()
      yield* Effect.all(Array.from({ length: concurrency }, () => worker), { concurrency: "unbounded", discard: true })
      const elapsed = ms(now() - t0)
      return { callsPerSec: (spec.n / elapsed) * 1000, elapsedMs: elapsed }
    }
    case "memory": {
      gc()
      const before = process.memoryUsage().heapUsed
      for (let i = 0; i < spec.n; i++) yield* call
      gc()
      const after = process.memoryUsage().heapUsed
      return { heapBeforeMb: before / 2 ** 20, heapAfterMb: after / 2 ** 20, growthMb: (after - before) / 2 ** 20 }
    }
    default:
      throw new Error(`unknown figure ${spec.figure}`)
  }
})

// ---------------------------------------------------------------------------------------------
// raw SDK side

const rawFigure = async () => {
  const client = new Client({ name: "raw-bench", version: "1.0.0" }, eraOptions())
  const transport = spec.figure === "http"
    ? new StreamableHTTPClientTransport(new URL(spec.url!))
    : spec.setsid
    ? new StdioClientTransport({ command: "setsid", args: [process.execPath, ...serverArgs()], stderr: "pipe" })
    : new StdioClientTransport({ command: process.execPath, args: serverArgs(), stderr: "pipe" })
  await client.connect(transport)
  if (modern && client.getNegotiatedProtocolVersion() !== MODERN) throw new Error(`raw: negotiated ${client.getNegotiatedProtocolVersion()}`)
  // mcpctl lists the tools to resolve a name; the raw client does the same work once.
  await client.listTools()
  const call = () => client.callTool({ name: "echo", arguments: ARGS })
  try {
    for (let i = 0; i < spec.warmup; i++) await call()
    switch (spec.figure) {
      case "latency": {
        const samples = new Float64Array(spec.n)
        const cpu0 = process.cpuUsage()
        for (let i = 0; i < spec.n; i++) {
          const t0 = now()
          await call()
          samples[i] = ms(now() - t0)
        }
        return { ...latencyStats(samples), ...cpuPerCall(cpu0) }
      }
      case "throughput":
      case "http": {
        const concurrency = spec.concurrency ?? 1
        let next = 0
        const worker = async () => {
          while (next < spec.n) {
            next++
            await call()
          }
        }
        const t0 = now()
        await Promise.all(Array.from({ length: concurrency }, worker))
        const elapsed = ms(now() - t0)
        return { callsPerSec: (spec.n / elapsed) * 1000, elapsedMs: elapsed }
      }
      case "memory": {
        gc()
        const before = process.memoryUsage().heapUsed
        for (let i = 0; i < spec.n; i++) await call()
        gc()
        const after = process.memoryUsage().heapUsed
        return { heapBeforeMb: before / 2 ** 20, heapAfterMb: after / 2 ** 20, growthMb: (after - before) / 2 ** 20 }
      }
      default:
        throw new Error(`unknown figure ${spec.figure}`)
    }
  } finally {
    await client.close()
  }
}

// ---------------------------------------------------------------------------------------------
// shutdown: a stubborn server behind a shell wrapper, plus a grandchild

const { isAlive: alive, waitForFile: waitFor } = Processes

const shutdownFigure = async () => {
  const dir = tmpdir()
  const tag = `${process.pid}-${Date.now()}`
  const pidFile = join(dir, `mcpctl-bench-stubborn-${tag}.json`)
  const wrapperPidFile = join(dir, `mcpctl-bench-wrapper-${tag}.pid`)
  const env = { STUBBORN_PID_FILE: pidFile, STUBBORN_WRAPPER_PID_FILE: wrapperPidFile }
  const config = { command: "sh", args: [spec.wrapper!], env }
  let close: () => Promise<void>
  if (spec.side === "mcpctl") {
    const server: ResolvedServer = {
      name: "stubborn",
      originalName: "stubborn",
      scope: "flag",
      source: "bench",
      transport: "stdio",
      config
    }
    const scope = Effect.runSync(Scope.make())
    const opened = await Effect.runPromise(Scope.extend(openStdio(server, config), scope))
    const client = new Client({ name: "mcpctl-bench", version: "1.0.0" })
    await client.connect(opened.transport)
    close = () => Effect.runPromise(Scope.close(scope, Exit.void))
  } else {
    const client = new Client({ name: "raw-bench", version: "1.0.0" })
    await client.connect(new StdioClientTransport({ ...config, env: { ...getDefaultEnvironment(), ...env }, stderr: "pipe" }))
    close = () => client.close()
  }
  const pids = JSON.parse(await waitFor(pidFile)) as { server: number; grandchild: number }
  const wrapper = Number(await waitFor(wrapperPidFile))
  const all = { wrapper, server: pids.server, grandchild: pids.grandchild }
  const t0 = now()
  await close()
  const closeMs = ms(now() - t0)
  const leftAlive = Object.entries(all).filter(([, pid]) => alive(pid)).map(([name]) => name)
  // Clean up what the side under test left behind, so later figures run on a quiet machine.
  for (const pid of Object.values(all)) {
    try {
      process.kill(pid, "SIGKILL")
    } catch {
      // gone
    }
  }
  rmSync(pidFile, { force: true })
  rmSync(wrapperPidFile, { force: true })
  return { closeMs, leftAlive: leftAlive.length, leftAliveNames: leftAlive }
}

// ---------------------------------------------------------------------------------------------

const main = async () => {
  if (spec.figure === "shutdown") return shutdownFigure()
  if (spec.side === "raw") return rawFigure()
  return Effect.runPromise(Effect.scoped(Layer.build(hostLayer()).pipe(
    Effect.flatMap((context) => Effect.provide(mcpctlFigure, context))
  )))
}

main().then(
  (result) => {
    process.stdout.write(JSON.stringify(result) + "\n")
    process.exit(0)
  },
  (error) => {
    process.stderr.write(`lib-entry ${spec.figure}/${spec.side}: ${error?.stack ?? error}\n`)
    process.exit(1)
  }
)
