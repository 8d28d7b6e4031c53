/** Remote transports against servers on 127.0.0.1: a one-handler HTTP server, and SDK clients over `openRemote`. */
// @ts-nocheck

import { Fixtures } from "@mcpctl/testing"
import { Client } from "@modelcontextprotocol/client"
import * as Effect from "effect/Effect"
import { once } from "node:events"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import type { RemoteServerConfig } from "../../src/config/ServerConfig.js"
import { openRemote } from "../../src/internal/transport/Http.js"

export const listen = async (handler: http.RequestListener): Promise<{ server: http.Server; url: string }> => {
  const server = http.createServer(handler)
  server.listen(0, "127.0.0.1")
  await once(server, "listening")
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
}

export const closeServer = (server: http.Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections()
    server.close(() => resolve())
  })

/** The entry every remote test connects as. */
export const resolved = (config: RemoteServerConfig) => Fixtures.server("remote", config)

/** Opens a transport in the test's scope and connects an SDK client; the scope closes both. */
export const connect = (config: RemoteServerConfig, kind: "http" | "sse" | "ws", requestTimeoutMs?: number) =>
  Effect.gen(function*() {
    const opened = yield* openRemote(resolved(config), config, kind, { requestTimeoutMs })
    const client = new Client({ name: "mcpctl-test", version: "0.0.0" })
    yield* Effect.acquireRelease(
      Effect.tryPromise(() => client.connect(opened.transport)),
      () => Effect.promise(() => client.close())
    )
    return { client, opened }
  })

/** Runs `connect` and returns the rejection the SDK client produced. */
export const connectError = (config: RemoteServerConfig, kind: "http" | "sse" | "ws") =>
  Effect.gen(function*() {
    const opened = yield* openRemote(resolved(config), config, kind)
    const client = new Client({ name: "mcpctl-test", version: "0.0.0" })
    return yield* Effect.promise(() => client.connect(opened.transport).then(() => undefined, (e: unknown) => e))
  })

/** The first text item of a tool result. */
export const textOf = (result: unknown): string =>
  ((result as { content: Array<{ type: string; text?: string }> }).content.find((c) => c.type === "text")?.text) ??
    ""
