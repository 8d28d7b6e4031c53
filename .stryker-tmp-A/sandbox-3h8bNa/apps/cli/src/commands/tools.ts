/** `mcpctl tools [SERVER…] [--search QUERY [--limit N]]`: the catalogue, or the tools that match. */
// @ts-nocheck

import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as CacheHints from "@mcpctl/core/internal/pool/CacheHints"
import * as CatalogCache from "@mcpctl/core/internal/catalog/CatalogCache"
import { ConnectionPool } from "@mcpctl/core/ConnectionPool"
import { McpConfig } from "@mcpctl/core/McpConfig"
import { Permission } from "@mcpctl/core/Permission"
import { Pins } from "@mcpctl/core/Pins"
import { rank } from "@mcpctl/core/internal/catalog/Search"
import { signInWhereNeeded } from "@mcpctl/core/SignIn"
import { type McpTool, ToolRegistry } from "@mcpctl/core/ToolRegistry"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Flags from "../Flags.js"
import { runOnHost, unavailableWhenAllFailed } from "../Host.js"
import { checkServerNames, connectWithProgress } from "../Progress.js"
import { err, json, oneLine, out, table } from "../Render.js"

const search = Options.text("search").pipe(
  Options.optional,
  Options.withDescription("Only the tools that match these words (name, title, description, parameter names), best first")
)
const limit = Options.integer("limit").pipe(
  Options.withSchema(Schema.Int.pipe(Schema.positive({ message: () => "--limit must be a positive number" }))),
  Options.optional,
  Options.withDescription("At most this many tools (default with --search: 10)")
)

const cached = Options.boolean("cached").pipe(
  Options.withDescription(
    "Answer from the catalogue cache of earlier runs where a server has one (saying how old, and fresh or stale by the " +
      "server's cache hints); ask the others. Without it only a fresh list the server marked public is answered from the cache"
  )
)

/** The pin mark of the FLAGS column: a changed definition shouts, a new one says so. */
const pinFlag = (t: McpTool) => (t.pin === "changed" ? "CHANGED" : t.pin === "new" ? "new" : "")

export const tools = Command.make(
  "tools",
  { ...Flags.global, ...Flags.adhoc, auth: Flags.auth, servers: Flags.servers, search, limit, cached },
  (flags) =>
    runOnHost("tools", flags, Effect.gen(function*() {
      const registry = yield* ToolRegistry
      const permission = yield* Permission
      const config = yield* McpConfig
      const spot = { home: config.home, projectDir: config.projectDir, pathVar: process.env.PATH }
      const started = Date.now()
      const fromCache = yield* cachedLists(flags.servers, spot, flags.cached)
      const wanted = fromCache.misses.length === 0 && fromCache.hits.length > 0 ? [] : yield* connectWithProgress(fromCache.misses)
      const query = Option.getOrUndefined(flags.search)
      const max = Option.getOrUndefined(flags.limit) ?? (query === undefined ? undefined : 10)
      const live = wanted.length === 0 ? Effect.succeed({ tools: [], errors: [] }) : registry.list(wanted)
      const find = Effect.map(live, ({ errors, tools }) => {
        // Cached and listed servers in the order they were asked for, as a listing of all would be.
        const order = new Map([...(flags.servers.length > 0 ? flags.servers : config.servers.map((x) => x.name))].map((name, i) => [name, i]))
        const all = fromCache.hits.length === 0 ? tools : [...fromCache.hits.flatMap((h) => h.tools), ...tools]
          .map((t, i) => ({ t, i }))
          .sort((a, b) => (order.get(a.t.server) ?? 0) - (order.get(b.t.server) ?? 0) || a.i - b.i)
          .map(({ t }) => t)
        const found = query === undefined
          ? all.map((tool) => ({ tool, score: undefined as number | undefined }))
          : rank(all, (t) => ({ name: t.tool, title: t.title, description: t.description, parameters: Object.keys(t.inputSchema.properties ?? {}) }), query)
            .map(({ item, score }) => ({ tool: item, score: score as number | undefined }))
        return { errors, found, tools }
      })
      let { errors, found, tools: listed } = yield* find
      if (yield* signInWhereNeeded(errors)) ({ errors, found, tools: listed } = yield* find)
      yield* keepLists(wanted, listed, errors, spot)
      const now = Date.now()
      for (const h of fromCache.hits) {
        err(`note: the tools of ${h.server} are from the catalogue cache, listed ${CatalogCache.age(now - h.stamp.fetchedAt)} ago` +
          (h.stamp.hint === undefined ? "" : `, ${CacheHints.describe(h.stamp, now)}`))
      }
      // A warm host (the daemon) answers from a list it held before this command, while fresh.
      const held = wanted.flatMap((server) => {
        const stamp = registry.listStamp(server)
        return stamp !== undefined && stamp.fetchedAt < started ? [{ server, stamp }] : []
      })
      for (const h of held) {
        err(`note: the tools of ${h.server} are the warm connection's, listed ${CatalogCache.age(now - h.stamp.fetchedAt)} ago, ` +
          CacheHints.describe(h.stamp, now))
      }
      // The lists a server sent cache hints on: where each came from, and fresh or stale.
      const lists = [
        ...fromCache.hits.map((h) => ({ server: h.server, from: "cache" as const, stamp: h.stamp })),
        ...wanted.flatMap((server) => {
          const stamp = registry.listStamp(server)
          return stamp === undefined ? [] : [{ server, from: stamp.fetchedAt < started ? "connection" as const : "server" as const, stamp }]
        })
      ].filter((l) => l.stamp.hint !== undefined).map((l) => listState(l.server, l.from, l.stamp, now))
      if (max !== undefined) found = found.slice(0, max)
      const rows = found.map(({ score, tool: t }) => ({
        name: t.name,
        server: t.server,
        tool: t.tool,
        title: t.title,
        description: t.description,
        icons: t.icons ?? [],
        readOnly: t.readOnly,
        destructive: t.destructive,
        openWorld: t.openWorld,
        concurrencySafe: t.concurrencySafe,
        permission: permission.decide(t.name, t).behavior,
        pin: t.pin ?? "off",
        ...(score !== undefined ? { score } : {}),
        inputSchema: t.inputSchema
      }))
      // A collision is a server that answered: its other tools are listed, so it did not fail.
      const failed = errors.filter((e) => e.status !== "collision").map((e) => e.server)
      // Servers answered from the cache count as needed and served: exit 4 only when nothing was.
      const needed = [...fromCache.hits.map((h) => h.server), ...wanted]
      if (flags.json) {
        json({ tools: rows, errors, lists })
        return yield* unavailableWhenAllFailed(needed, failed)
      }
      if (rows.length > 0) {
        out(table(
          [...(query === undefined ? [] : ["SCORE"]), "NAME", "PERMISSION", "FLAGS", "DESCRIPTION"],
          found.map(({ score, tool: t }, i) => [
            ...(score === undefined ? [] : [score.toFixed(2)]),
            t.name,
            rows[i]!.permission,
            [pinFlag(t), t.readOnly ? "read-only" : "", t.destructive ? "destructive" : "", t.openWorld ? "open-world" : ""]
              .filter(Boolean).join(",") || "-",
            oneLine(t.description || t.title, 70)
          ])
        ))
      } else if (errors.length === 0) {
        err(query === undefined
          ? "No tools. `mcpctl servers` shows which servers are configured and connected."
          : `No tool matches "${query}".`)
      }
      const changed = found.filter(({ tool }) => tool.pin === "changed").map(({ tool }) => tool)
      if (changed.length > 0) {
        err(`\n${changed.length} tool definition${changed.length === 1 ? "" : "s"} changed since pinned (CHANGED): ` +
          `${changed.map((t) => t.name).join(", ")}. Calls are refused until you accept them with ` +
          "`mcpctl trust SERVER [TOOL]`; `mcpctl call NAME` shows what changed.")
      }
      for (const e of errors) err(`${e.server} (${e.status}): ${e.message}`)
      yield* unavailableWhenAllFailed(needed, failed)
    }))
).pipe(Command.withDescription("List the tools of every server (or of the servers named), or search them with --search"))

type Spot = CatalogCache.CacheSpot

/**
 * The servers asked for (named, else every enabled one) answered from the catalogue cache, with the
 * pin mark of each tool as the pins say now, and those that are not: with `--cached` (`asked`)
 * every one that has a cached list, else only those whose list is fresh and public
 * (CacheHints.onDisk): a stale list is asked for again.
 */
const cachedLists = (named: ReadonlyArray<string>, spot: Spot, asked: boolean) =>
  Effect.gen(function*() {
    const pool = yield* ConnectionPool
    yield* checkServerNames(named)
    const pins = yield* Effect.serviceOption(Pins)
    // `state` answers from the store in memory: read it first.
    if (Option.isSome(pins)) yield* pins.value.reload
    const servers = named.length > 0 ? pool.servers.filter((s) => named.includes(s.name)) : pool.servers.filter((s) => !s.config.disabled)
    const hits: Array<{ server: string; stamp: CacheHints.Stamp; tools: ReadonlyArray<McpTool> }> = []
    const misses: Array<string> = []
    const now = Date.now()
    for (const server of servers) {
      const entry = yield* CatalogCache.read(spot, server)
      if (entry === undefined || CacheHints.onDisk(CatalogCache.stampOf(entry), now, asked) === "refresh") misses.push(server.name)
      else {
        const pinned = Option.isSome(pins) && server.config.pin !== false
        hits.push({
          server: server.name,
          stamp: CatalogCache.stampOf(entry),
          tools: entry.tools.map((t) => (pinned ? { ...t, pin: pins.value.state(server, t.tool, t.hash) } : t))
        })
      }
    }
    return { hits, misses }
  })

/** After a listing: each server that answered gets its list cached for `tools --cached`, with its hints. */
const keepLists = (wanted: ReadonlyArray<string>, tools: ReadonlyArray<McpTool>, errors: ReadonlyArray<{ readonly server: string }>, spot: Spot) =>
  Effect.flatMap(Effect.all([ConnectionPool, ToolRegistry]), ([pool, registry]) =>
    Effect.forEach(wanted.filter((name) => !errors.some((e) => e.server === name)), (name) => {
      const server = pool.servers.find((s) => s.name === name)
      const stamp = registry.listStamp(name)
      return server
        ? CatalogCache.write(spot, server, tools.filter((t) => t.server === name), stamp?.fetchedAt, stamp?.hint)
        : Effect.void
    }, { discard: true }))

/** Where a server's list came from and how fresh it is, for `tools --json`'s `lists`. */
const listState = (server: string, from: "cache" | "connection" | "server", stamp: CacheHints.Stamp, now: number) => ({
  server,
  from,
  state: CacheHints.freshness(stamp, now),
  ageMs: Math.max(0, now - stamp.fetchedAt),
  ...(stamp.hint === undefined ? {} : { ttlMs: stamp.hint.ttlMs, cacheScope: stamp.hint.scope, freshForMs: CacheHints.freshFor(stamp, now) })
})
