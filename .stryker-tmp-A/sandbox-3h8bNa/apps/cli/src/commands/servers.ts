/** `mcpctl servers [SERVER…]`: connect every enabled server (or the ones named) and report each. */
// @ts-nocheck

import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { ConnectionPool, type ServerState } from "@mcpctl/core/ConnectionPool"
import { listPrompts, listResources } from "@mcpctl/core/Resources"
import { ToolRegistry } from "@mcpctl/core/ToolRegistry"
import * as Effect from "effect/Effect"
import * as Flags from "../Flags.js"
import { runOnHost, setExitCode, unavailableWhenAllFailed } from "../Host.js"
import { checkServerNames, makeProgress, neededServers } from "../Progress.js"
import { err, json, out, table } from "../Render.js"

/** One row of `servers --json`. */
interface ServerReport {
  readonly name: string
  readonly scope: string
  readonly source: string
  readonly transport: string
  readonly status: ServerState["status"]
  readonly tools: number | null
  readonly resources: number | null
  readonly prompts: number | null
  readonly serverInfo: { readonly name: string; readonly version: string } | null
  readonly connectMs: number | null
  /** The protocol version negotiated (2026-07-28 for a modern server, 2025-… for a legacy one). */
  readonly protocolVersion: string | null
  /** `modern` (2026-07-28 and later) or `legacy` (the 2025-era `initialize`). */
  readonly era: "modern" | "legacy" | null
  /** The era is legacy only because the probe went unanswered in its wait (not remembered). */
  readonly eraByTimeout: boolean
  readonly error: string | null
}

const count = <A>(effect: Effect.Effect<ReadonlyArray<A>, unknown, any>) =>
  effect.pipe(Effect.map((xs) => xs.length), Effect.orElseSucceed(() => null))

/** Connects all servers (or those `named`) and gathers each one's report (counts only for connected servers). */
export const gather = (named: ReadonlyArray<string> = []) => Effect.gen(function*() {
  const pool = yield* ConnectionPool
  const registry = yield* ToolRegistry
  yield* checkServerNames(named)
  const names = neededServers(named, pool.servers)
  const progress = makeProgress(names.length)
  const states = yield* pool.connectAll({ names, onSettled: progress.onSettled })
  yield* progress.done
  // Disabled servers are listed too (never started), unless the run is about its --url/--stdio server.
  const adhocRun = pool.servers.some((s) => s.scope === "adhoc")
  const disabled = adhocRun || named.length > 0
    ? []
    : pool.servers.filter((s) => s.config.disabled).map((s) => ({ status: "disabled" as const, server: s }))
  const all: ReadonlyArray<ServerState> = [...states, ...disabled]
  return yield* Effect.forEach(all, (state): Effect.Effect<ServerReport, never, any> =>
    Effect.gen(function*() {
      const s = state.server
      const base = { name: s.name, scope: s.scope, source: s.source, transport: s.transport }
      if (state.status !== "connected") {
        return {
          ...base,
          status: state.status,
          tools: null,
          resources: null,
          prompts: null,
          serverInfo: null,
          connectMs: "connectMs" in state ? state.connectMs ?? null : null,
          protocolVersion: null,
          era: null,
          eraByTimeout: false,
          error: "error" in state ? state.error.message : null
        }
      }
      const c = state.connection
      const [tools, resources, prompts] = yield* Effect.all(
        [count(registry.listServer(s.name)), count(listResources(s.name)), count(listPrompts(s.name))],
        { concurrency: "unbounded" }
      )
      return {
        ...base,
        transport: c.kind,
        status: state.status,
        tools,
        resources,
        prompts,
        serverInfo: c.serverInfo ? { name: c.serverInfo.name, version: c.serverInfo.version } : null,
        connectMs: c.connectMs,
        protocolVersion: c.protocolVersion ?? null,
        era: c.era,
        eraByTimeout: c.eraByTimeout === true,
        error: null
      }
    }), { concurrency: "unbounded" })
})

const dash = (n: number | null) => (n === null ? "-" : String(n))

const check = Options.boolean("check").pipe(
  Options.withDescription("Exit 4 when any enabled server is not connected (a health check for scripts)")
)

/** The enabled servers that are not connected: what `--check` fails on (pure). */
export const unhealthy = (reports: ReadonlyArray<Pick<ServerReport, "name" | "status">>) =>
  reports.filter((r) => r.status !== "connected" && r.status !== "disabled")

export const servers = Command.make("servers", { ...Flags.global, ...Flags.adhoc, check, servers: Flags.servers }, (flags) =>
  runOnHost("servers", flags, Effect.gen(function*() {
    const reports = yield* gather(flags.servers)
    const down = unhealthy(reports)
    if (flags.check && down.length > 0) {
      yield* setExitCode(4)
      err(`servers --check: ${down.length} of ${reports.filter((r) => r.status !== "disabled").length} enabled servers ` +
        `not connected: ${down.map((r) => `${r.name} (${r.status})`).join(", ")}`)
    }
    const needed = reports.filter((r) => r.status !== "disabled").map((r) => r.name)
    const failed = reports.filter((r) => r.status === "failed" || r.status === "needs-auth").map((r) => r.name)
    if (flags.json) {
      json({ servers: reports })
      return yield* unavailableWhenAllFailed(needed, failed)
    }
    if (reports.length === 0) {
      return err("No MCP servers configured. Add one with `mcpctl add NAME -- COMMAND ARGS…` or pass --config FILE.")
    }
    out(table(
      ["NAME", "STATUS", "TRANSPORT", "PROTOCOL", "TOOLS", "RESOURCES", "PROMPTS", "TIME", "SOURCE"],
      reports.map((r) => [
        r.name,
        r.status,
        r.transport,
        r.protocolVersion === null ? "-" : r.eraByTimeout ? `${r.protocolVersion} (probe timed out)` : r.protocolVersion,
        dash(r.tools),
        dash(r.resources),
        dash(r.prompts),
        r.connectMs === null ? "-" : `${r.connectMs} ms`,
        `${r.scope}: ${r.source}`
      ])
    ))
    for (const r of reports) if (r.error) err(`\n${r.name}: ${r.error}`)
    yield* unavailableWhenAllFailed(needed, failed)
  }))).pipe(Command.withDescription("Connect to every enabled server and report its status"))
