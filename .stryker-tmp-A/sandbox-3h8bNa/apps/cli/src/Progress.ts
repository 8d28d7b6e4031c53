/**
 * A one-line "connecting" display on stderr while servers connect, only on a terminal: scripts
 * and CI logs never see carriage returns.
 */
// @ts-nocheck

import { ConnectionPool, type ServerState } from "@mcpctl/core/ConnectionPool"
import { type ResolvedServer, unknownServerMessage } from "@mcpctl/core/ServerConfig"
import { UsageError } from "@mcpctl/core/Errors"
import * as Effect from "effect/Effect"

const mark: Record<ServerState["status"], string> = {
  connected: "✓",
  failed: "✗",
  "needs-auth": "!",
  pending: "…",
  disabled: "-"
}

/** Tracks settled servers and redraws the line; `done` clears it. */
export const makeProgress = (total: number, enabled = Boolean(process.stderr.isTTY)) => {
  let settled = 0
  const recent: Array<string> = []
  const draw = (text: string) => process.stderr.write(`\r\x1b[K${text}`)
  if (enabled && total > 0) draw(`Connecting to ${total} server${total === 1 ? "" : "s"}…`)
  return {
    onSettled: (state: ServerState) =>
      Effect.sync(() => {
        settled++
        recent.push(`${state.server.name} ${mark[state.status]}`)
        if (enabled) draw(`Connecting ${settled}/${total}  ${recent.slice(-6).join("  ")}`)
      }),
    done: Effect.sync(() => {
      if (enabled && total > 0) process.stderr.write("\r\x1b[K")
    })
  }
}

/**
 * The servers a listing command is about: the named ones, else the `--url`/`--stdio` server of
 * this run when there is one (that is the server the user asked about), else every enabled one.
 */
export const neededServers = (named: ReadonlyArray<string>, servers: ReadonlyArray<ResolvedServer>): ReadonlyArray<string> => {
  if (named.length > 0) return named
  const adhoc = servers.filter((s) => s.scope === "adhoc")
  return (adhoc.length > 0 ? adhoc : servers.filter((s) => !s.config.disabled)).map((s) => s.name)
}

/**
 * Connects the servers a listing command is about ({@link neededServers}) with the progress line
 * showing, and returns their names.
 */
export const connectWithProgress = (named: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const pool = yield* ConnectionPool
    yield* checkServerNames(named)
    const wanted = neededServers(named, pool.servers)
    const progress = makeProgress(wanted.length)
    yield* pool.connectAll({ names: wanted, onSettled: progress.onSettled })
    yield* progress.done
    return wanted
  })

/** Server names given on the command line must be configured: a typo is a usage error (exit 2). */
export const checkServerNames = (named: ReadonlyArray<string>) =>
  Effect.flatMap(ConnectionPool, (pool) => {
    const unknown = named.filter((n) => !pool.servers.some((s) => s.name === n))
    return unknown.length === 0
      ? Effect.void
      : Effect.fail(new UsageError({ message: unknownServerMessage(unknown, pool.servers) }))
  })
