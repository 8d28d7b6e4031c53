/**
 * The era probe's wait (internal/pool/handshakeProbe.ts): it starts when a stdio server is ready
 * to read, and a probe it cuts short decides nothing by itself: a late `server/discover` answer or
 * a modern server's refusal of `initialize` still ends in the modern era, and a legacy era decided
 * by a timeout is never remembered.
 */
import { describe, expect, it } from "@effect/vitest"
import { Everything } from "@mcpctl/testing"
import { server, v2HttpServer, httpServer } from "@mcpctl/testing/Fixtures"
import { ConnectionPool, type PoolOptions } from "@mcpctl/core/ConnectionPool"
import type { Limits, ResolvedServer } from "@mcpctl/core/ServerConfig"
import type { JSONRPCMessage, Transport as SdkTransport } from "@modelcontextprotocol/client"
import * as Effect from "effect/Effect"
import { existsSync, readFileSync } from "node:fs"
import * as http from "node:http"
import * as path from "node:path"
import { PassThrough } from "node:stream"
import { fileURLToPath } from "node:url"
import { offeredModern, readyToRead, watchProbe } from "../src/internal/pool/handshakeProbe.js"
import { eraHost, freshHome, readVerdicts } from "./support/eras.js"
import { slow } from "./support/slow.js"

const slowStartServer = fileURLToPath(new URL("../../testing/src/fixtures/slow-start-server.mjs", import.meta.url))
const hostWith = (servers: ReadonlyArray<ResolvedServer>, home: string, pool: PoolOptions = {}, limits: Partial<Limits> = {}) =>
  eraHost(servers, home, { pool, limits })

/** Each server's era, version and whether a timeout decided it (or its error). */
const connectAll = Effect.gen(function*() {
  const states = yield* (yield* ConnectionPool).connectAll()
  return Object.fromEntries(states.map((s) =>
    [s.server.name, s.status === "connected"
      ? { era: s.connection.era, version: s.connection.protocolVersion, byTimeout: s.connection.eraByTimeout === true }
      : { error: "error" in s ? s.error.message : s.status }]
  ))
})

const verdicts = (home: string): Array<string> => Object.values(readVerdicts(home)).map((v) => v.era)
const startsIn = (log: string) => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean).length : 0)

/** A transport that records what is sent and lets the test deliver messages (what the SDK's probe window sees). */
const fakeTransport = () => {
  const sent: Array<JSONRPCMessage> = []
  const t = {
    onmessage: undefined as SdkTransport["onmessage"],
    start: async () => {},
    close: async () => {},
    send: async (m: JSONRPCMessage) => void sent.push(m)
  }
  return { t, sent, deliver: (m: unknown) => t.onmessage?.(m as JSONRPCMessage) }
}
const probe = (id = "server-discover-probe-1") => ({ jsonrpc: "2.0", id, method: "server/discover", params: {} }) as JSONRPCMessage

describe("the probe watch (pure parts and a fake transport)", () => {
  it("offeredModern: the modern version a server/discover result offers", () => {
    expect(offeredModern({ supportedVersions: ["2025-06-18", "2026-07-28"] }, "2026-07-28")).toBe("2026-07-28")
    expect(offeredModern({ supportedVersions: ["2025-06-18"] }, "2026-07-28")).toBeUndefined()
    expect(offeredModern({}, "2026-07-28")).toBeUndefined()
  })

  it("the wait starts when the server is ready: no refusal before, mcpctl's own refusal after", async () => {
    const { t, deliver } = fakeTransport()
    const stderr = new PassThrough()
    const readiness = readyToRead(stderr, 60_000)
    const got: Array<unknown> = []
    let refused: (m: unknown) => void = () => {}
    const refusal = new Promise((resolve) => (refused = resolve))
    t.onmessage = (m) => {
      got.push(m)
      if ("error" in m) refused(m)
    }
    const watch = watchProbe(t as unknown as SdkTransport, { waitMs: 20, ready: readiness.ready, modern: "2026-07-28" })
    await t.send(probe())
    // Not ready yet (silent, and the grace is a minute): however long this takes, no refusal.
    await new Promise((r) => setTimeout(r, 100))
    expect(got).toEqual([])
    expect(watch.timedOut()).toBe(false)
    stderr.write("server: ready\n")
    expect(await refusal).toMatchObject({ id: "server-discover-probe-1", error: { code: -32601 } })
    expect(watch.timedOut()).toBe(true)
    // The real answer, late: kept from the SDK, its modern version recorded.
    deliver({ jsonrpc: "2.0", id: "server-discover-probe-1", result: { supportedVersions: ["2026-07-28"] } })
    expect(got).toHaveLength(1)
    expect(watch.lateModern()).toBe("2026-07-28")
    watch.stop()
    readiness.cancel()
    const after = { jsonrpc: "2.0", id: 1, result: {} }
    deliver(after)
    expect(got).toEqual([expect.anything(), after])
  })

  it("an answer in time goes to the SDK, and nothing is refused", async () => {
    const { t, deliver } = fakeTransport()
    const got: Array<unknown> = []
    t.onmessage = (m) => void got.push(m)
    const watch = watchProbe(t as unknown as SdkTransport, { waitMs: 60_000, ready: Promise.resolve(), modern: "2026-07-28" })
    await t.send(probe())
    const answer = { jsonrpc: "2.0", id: "server-discover-probe-1", result: { supportedVersions: ["2026-07-28"] } }
    deliver(answer)
    expect(got).toEqual([answer])
    expect(watch.timedOut()).toBe(false)
    expect(watch.lateModern()).toBeUndefined()
    watch.stop()
  })

  it("a stdio server that exits counts as ready (its stderr closes)", async () => {
    const stderr = new PassThrough()
    const readiness = readyToRead(stderr, 60_000)
    stderr.end()
    stderr.resume()
    await readiness.ready
  })
})

describe("slow starts", () => {
  it.live("a stdio server that reads nothing for 6 s is found modern: the wait starts at its first output; remembered", () =>
    Effect.gen(function*() {
      const home = freshHome()
      const log = path.join(home, "starts.log")
      const slow = server("slow", { command: process.execPath, args: [slowStartServer, "--modern-only"], env: { SLOW_START_MS: "6000", SLOW_START_LOG: log } })
      // The default wait at the default MCP_TIMEOUT: 3 s, half the start.
      const states = yield* Effect.scoped(connectAll.pipe(Effect.provide(hostWith([slow], home))))
      expect(states.slow).toEqual({ era: "modern", version: "2026-07-28", byTimeout: false })
      expect(verdicts(home)).toEqual(["modern"])
    }), slow(120_000))

  it.live("a silent slow modern-only server whose probe times out: initialize is refused, and the modern era follows", () =>
    Effect.gen(function*() {
      const home = freshHome()
      const log = path.join(home, "starts.log")
      const slow = server("quiet", {
        command: process.execPath,
        args: [slowStartServer, "--modern-only"],
        env: { SLOW_START_MS: "2000", SLOW_START_QUIET: "1", SLOW_START_LOG: log }
      })
      const states = yield* Effect.scoped(connectAll.pipe(Effect.provide(hostWith([slow], home, { probeTimeoutMs: 200 }, { startupGraceMs: 100 }))))
      expect(states.quiet).toEqual({ era: "modern", version: "2026-07-28", byTimeout: false })
      // Started twice: once for the probe that was cut short, once in the modern era.
      expect(startsIn(log)).toBe(2)
      expect(verdicts(home)).toEqual(["modern"])
    }), slow(120_000))
})

/** A proxy that holds every `server/discover` answer for `delayMs`, and records the methods it saw. */
const delayingProxy = (target: string, delayMs: number) =>
  Effect.acquireRelease(
    Effect.async<{ readonly url: string; readonly methods: Array<string>; readonly close: () => void }>((resume) => {
      const methods: Array<string> = []
      const to = new URL(target)
      const proxy = http.createServer((req, res) => {
        const chunks: Array<Buffer> = []
        req.on("data", (c: Buffer) => chunks.push(c))
        req.on("end", () => {
          const raw = Buffer.concat(chunks)
          const method = req.method === "POST" ? (JSON.parse(raw.toString("utf8")) as { method?: string }).method : undefined
          if (method !== undefined) methods.push(method)
          const forward = () => {
            const upstream = http.request(
              { host: to.hostname, port: to.port, path: to.pathname, method: req.method, headers: { ...req.headers, host: to.host } },
              (r) => {
                res.writeHead(r.statusCode ?? 502, r.headers)
                r.pipe(res)
              }
            )
            upstream.on("error", () => res.destroy())
            upstream.end(raw)
          }
          if (method === "server/discover") setTimeout(forward, delayMs)
          else forward()
        })
      })
      proxy.listen(0, "127.0.0.1", () =>
        resume(Effect.succeed({
          url: `http://127.0.0.1:${(proxy.address() as { port: number }).port}/mcp`,
          methods,
          close: () => {
            proxy.closeAllConnections()
            proxy.close()
          }
        })))
    }),
    (p) => Effect.sync(() => p.close())
  )

describe("late answers over HTTP", () => {
  it.scoped("a modern-only server that answers server/discover after the probe's wait ends in the modern era, remembered", () =>
    Effect.gen(function*() {
      const home = freshHome()
      const { url } = yield* httpServer(v2HttpServer, ["--modern-only"])
      const proxy = yield* delayingProxy(url, 1_000)
      const states = yield* Effect.scoped(connectAll.pipe(Effect.provide(hostWith([server("late", { url: proxy.url })], home, { probeTimeoutMs: 200 }))))
      expect(states.late).toEqual({ era: "modern", version: "2026-07-28", byTimeout: false })
      expect(proxy.methods.slice(0, 2)).toEqual(["server/discover", "initialize"])
      expect(verdicts(home)).toEqual(["modern"])
    }), slow(60_000))

  it.scoped("a legacy server that never answers the probe: legacy, said to be decided by a timeout, and not remembered", () =>
    Effect.gen(function*() {
      const home = freshHome()
      const everything = yield* Effect.acquireRelease(
        Effect.promise(() => Everything.startEverything("streamableHttp")),
        ({ child }) => Effect.promise(() => Everything.stopServer(child))
      )
      const proxy = yield* delayingProxy(`http://127.0.0.1:${everything.port}/mcp`, 3_600_000)
      const servers = [server("silent", { url: proxy.url })]
      const states = yield* Effect.scoped(connectAll.pipe(Effect.provide(hostWith(servers, home, { probeTimeoutMs: 200 }))))
      expect(states.silent).toMatchObject({ era: "legacy", byTimeout: true })
      expect(verdicts(home)).toEqual([])
      // Not remembered: the next run probes again.
      const before = proxy.methods.length
      yield* Effect.scoped(connectAll.pipe(Effect.provide(hostWith(servers, home, { probeTimeoutMs: 200 }))))
      expect(proxy.methods.slice(before)).toContain("server/discover")
    }), slow(60_000))
})
