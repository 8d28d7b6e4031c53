/**
 * `mcpctl serve [--http [HOST:]PORT | --socket PATH] [--token-file FILE]`: the configured servers
 * as one MCP server, over stdio (default), Streamable HTTP (127.0.0.1 unless a HOST is given: then
 * a shared `--token-file` is required, docs/serve.md), or a Unix socket (0600). Over a
 * port every request needs the run's bearer token: printed once to stderr and written 0600 to
 * `$MCPCTL_HOME/run/serve-<port>.token` (removed at exit), or read from `--token-file`. Runs until
 * stdin closes (stdio) or Ctrl-C; then every child is shut down as in any other command.
 */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { ConnectionPool } from "@mcpctl/core/ConnectionPool"
import { UsageError } from "@mcpctl/core/Errors"
import { McpConfig } from "@mcpctl/core/McpConfig"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as fs from "node:fs/promises"
import * as Path from "node:path"
import { serveMetrics } from "@mcpctl/core/Host"
import { splitPeer } from "@mcpctl/core/internal/gateway/cancelRelay"
import { isLoopbackHost, parseListen } from "@mcpctl/core/internal/gateway/HttpAccess"
import * as Flags from "../Flags.js"
import { runOnHost, VERSION } from "../Host.js"
import { err } from "../Render.js"

// --- listening: address, hosts, drain (docs/serve.md) -------------------------------------
const http = Options.text("http").pipe(
  Options.withSchema(Schema.String.pipe(Schema.filter((s) => typeof parseListen(s) !== "string", {
    message: (issue) => `--http: ${parseListen(String(issue.actual))}`
  }))),
  Options.optional,
  Options.withDescription(
    "Serve Streamable HTTP on [HOST:]PORT at /mcp instead of stdio (HOST default 127.0.0.1; port 0 = a free one); requests need the token. Off loopback --token-file is required"
  )
)
const allowedHost = Options.text("allowed-host").pipe(
  Options.repeated,
  Options.withDescription("A Host (and Origin) name a proxy in front presents, e.g. mcp.example.com (repeatable); loopback names are always answered")
)
const badPeer = (peers: ReadonlyArray<string>) => peers.find((p) => splitPeer(p) === undefined)
const peer = Options.text("peer").pipe(
  Options.repeated,
  // Refused, not skipped: a typo'd peer would otherwise never hear a cancel, and nobody would know.
  Options.withSchema(Schema.mutable(Schema.Array(Schema.String)).pipe(Schema.filter((peers) => badPeer(peers) === undefined, {
    message: (issue) =>
      `--peer ${badPeer(issue.actual as ReadonlyArray<string>)}: expected HOST:PORT, another replica's address ` +
      "(e.g. 10.0.0.2:8080, replica-b:8080 or [fd00::2]:8080; port 1 to 65535)"
  }))),
  Options.withDescription("Another replica behind the same balancer, HOST:PORT (repeatable; a name counts for each address it resolves to): a 2025-era cancel for a call not running here is passed on to it")
)
const drainTimeout = Options.integer("drain-timeout").pipe(
  Options.withSchema(Schema.Int.pipe(Schema.between(0, 3600, { message: () => "--drain-timeout takes seconds from 0 to 3600" }))),
  Options.withDefault(10),
  Options.withDescription("On SIGTERM, stop accepting and give calls in flight this many seconds to finish (default 10)")
)
const metrics = Options.text("metrics").pipe(
  Options.withSchema(Schema.String.pipe(Schema.filter((s) => typeof parseListen(s) !== "string", {
    message: (issue) => `--metrics: ${parseListen(String(issue.actual))}`
  }))),
  Options.optional,
  Options.withDescription(
    "Serve Prometheus text metrics (tool calls, errors, duration by server and tool) at GET /metrics on [HOST:]PORT (HOST default 127.0.0.1); no token"
  )
)
// --- end of listening options ---------------------------------------------------------------
const socket = Options.text("socket").pipe(
  Options.optional,
  Options.withDescription("Serve Streamable HTTP on the Unix socket PATH (mode 0600) instead of a port")
)
const tokenFile = Options.text("token-file").pipe(
  Options.optional,
  Options.withDescription("Read the bearer token from FILE (private to you, 16+ characters) instead of a random one")
)

/**
 * Connects every enabled server once serving has started and says on stderr which could not be
 * used and why: the client only sees a shorter catalogue, the person who started serve sees this.
 */
const reportServers = (ready: () => void) => Effect.gen(function*() {
  const pool = yield* ConnectionPool
  const states = yield* pool.connectAll()
  const unusable = states.filter((s) => s.status === "failed" || s.status === "needs-auth")
  for (const s of unusable) {
    if ("error" in s) err(`mcpctl serve: server "${s.server.name}" is ${s.status}, its tools are not served: ${s.error.message}`)
  }
  const connected = states.filter((s) => s.status === "connected").length
  err(`mcpctl serve: ${connected} of ${states.length} server${states.length === 1 ? "" : "s"} connected`)
  // Every enabled server connected or given up on: /readyz says ready from now on.
  ready()
})

const toolSearch = Options.boolean("tool-search").pipe(
  Options.withDescription(
    "List only search_tools and call_tool (plus the tools of servers with \"alwaysLoad\": true) instead of every tool"
  )
)

const names = Options.choice("names", ["mcpctl", "upstream"]).pipe(
  Options.withDefault("mcpctl" as const),
  Options.withDescription("upstream: with one server, serve its tools and prompts under their own names (default mcpctl: mcp__<server>__<tool>)")
)

export const serve = Command.make("serve", { ...Flags.global, yes: Flags.yes, protocol: Flags.protocol, http, socket, tokenFile, toolSearch, allowedHost, peer, drainTimeout, names, metrics }, (flags) =>
  runOnHost(
    "serve",
    // No prompts: with stdio, stdin is the MCP stream; asks are decided by --yes or refused.
    // Tasks declared to the servers: serve hands them on to a client that negotiated them, and
    // follows them to their end for one that did not (GatewayTasks.ts).
    { ...flags, noPrompt: true, retryConnects: true, watchCatalog: true, relayServerLogs: true },
    Effect.gen(function*() {
      const listen = Option.map(flags.http, (s) => parseListen(s) as { host: string; port: number }).pipe(Option.getOrUndefined)
      const port = listen?.port, path = Option.getOrUndefined(flags.socket)
      const file = Option.getOrUndefined(flags.tokenFile)
      if (port !== undefined && path !== undefined) return yield* new UsageError({ message: "Give --http PORT or --socket PATH, not both." })
      if (file !== undefined && port === undefined && path === undefined) {
        return yield* new UsageError({ message: "--token-file applies to --http PORT or --socket PATH." })
      }
      if (listen !== undefined && !isLoopbackHost(listen.host) && file === undefined) {
        return yield* new UsageError({
          message: `--http ${listen.host}:${listen.port} listens off loopback: give --token-file FILE (the same token on every replica), ` +
            `and put TLS in the proxy in front (docs/serve.md).`
        })
      }
      let ready = false
      // Loaded only now: the SDK's server side (with its HTTP framework) would otherwise be
      // loaded, and set up, by every command's cold start.
      const { Gateway } = yield* Effect.promise(() => import("@mcpctl/core/Gateway"))
      const { readTokenFile, writeRunToken } = yield* Effect.promise(() => import("@mcpctl/core/internal/gateway/HttpAccess"))
      const token = file === undefined ? undefined : yield* Effect.tryPromise({
        try: () => readTokenFile(Path.resolve(file)),
        catch: (e) => new UsageError({ message: `--token-file: ${e instanceof Error ? e.message : String(e)}`, cause: e })
      })
      const options = { toolSearch: flags.toolSearch, names: flags.names }
      const layer = port === undefined && path === undefined
        ? Gateway.layerStdioWith(options)
        : Gateway.layerHttp({
          port,
          host: listen?.host,
          allowedHosts: flags.allowedHost,
          peers: flags.peer,
          drainTimeoutMs: flags.drainTimeout * 1000,
          ready: () => ready,
          socket: path === undefined ? undefined : Path.resolve(path),
          token,
          ...options
        })
      const config = yield* McpConfig
      yield* Effect.scoped(Effect.gen(function*() {
        const gateway = yield* Gateway
        err(`mcpctl serve: serving MCP on ${gateway.address}`)
        if (gateway.token !== undefined && file === undefined) {
          const bound = Number(new URL(gateway.address).port)
          const written = yield* Effect.acquireRelease(
            Effect.tryPromise({
              try: () => writeRunToken(config.home, bound, gateway.token!),
              catch: (e) => new UsageError({ message: `Could not write the serve token under ${config.home}: ${String(e)}`, cause: e })
            }),
            (f) => Effect.promise(() => fs.rm(f, { force: true }))
          )
          // Printed once, for the one client the user connects; also in a file only the user can read.
          err(`mcpctl serve: every request needs "Authorization: Bearer ${gateway.token}" (also in ${written}, mode 0600)`)
        } else if (gateway.token !== undefined) {
          err(`mcpctl serve: every request needs "Authorization: Bearer <the token in ${file}>"`)
        }
        const scrape = Option.map(flags.metrics, (s) => parseListen(s) as { host: string; port: number }).pipe(Option.getOrUndefined)
        if (scrape !== undefined) {
          const url = yield* serveMetrics({ ...scrape, serviceVersion: VERSION }).pipe(
            Effect.mapError((e) => new UsageError({ message: `--metrics: cannot serve on ${scrape.host}:${scrape.port}: ${e.message}`, cause: e }))
          )
          err(`mcpctl serve: metrics on ${url}`)
        }
        yield* Effect.forkScoped(reportServers(() => (ready = true)))
        return yield* gateway.closed
      }).pipe(Effect.provide(layer)))
    })
  )).pipe(Command.withDescription("Serve every allowed tool, resource and prompt of the configured servers as one MCP server"))
