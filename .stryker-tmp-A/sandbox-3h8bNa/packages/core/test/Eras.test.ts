/**
 * Both protocol eras against real servers: SDK v2 servers (stdio and stateless Streamable HTTP)
 * and SDK 1.x reference servers (server-everything), through the pool and the catalogue as a host
 * uses them. The era verdict cache, the `protocol` setting, the modern era's duties (headers,
 * input_required, subscriptions/listen, x-mcp-header) and version errors.
 */
// @ts-nocheck

import { describe, expect, it } from "@effect/vitest"
import { Everything } from "@mcpctl/testing"
import { httpServer, nodeServer, server, v2ErasServer, v2HttpServer, v2StdioServer } from "@mcpctl/testing/Fixtures"
import { ConnectionPool, probeTimeout } from "@mcpctl/core/ConnectionPool"
import { eraCacheFile } from "@mcpctl/core/internal/pool/EraCache"
import type { ResolvedServer } from "@mcpctl/core/ServerConfig"
import { ToolRegistry } from "@mcpctl/core/ToolRegistry"
import * as Effect from "effect/Effect"
import * as Logger from "effect/Logger"
import { chmodSync, readFileSync, writeFileSync } from "node:fs"
import * as http from "node:http"
import * as path from "node:path"
import { eraHost, freshHome, readVerdicts } from "./support/eras.js"

const hostWith = eraHost

/** Every server's state after connecting all: name → [era, protocolVersion] or the error. */
const connectAll = Effect.gen(function*() {
  const pool = yield* ConnectionPool
  const states = yield* pool.connectAll()
  return Object.fromEntries(states.map((s) =>
    [s.server.name, s.status === "connected" ? [s.connection.era, s.connection.protocolVersion] : ["error" in s ? s.error.message : s.status]]
  ))
})

/**
 * A shell wrapper that appends a line to `log` on every start, then runs server-everything on
 * stdio with everything the host writes to it copied to `log.stdin`.
 */
const countingEverything = (dir: string, log: string): ResolvedServer => {
  const script = path.join(dir, "count-spawns.sh")
  writeFileSync(
    script,
    `#!/bin/sh\necho start >> "${log}"\ntee -a "${log}.stdin" | "${process.execPath}" "${Everything.everythingServer}" stdio\n`
  )
  chmodSync(script, 0o755)
  return server("legacy", { command: script })
}
const spawnsIn = (log: string) => readFileSync(log, "utf8").split("\n").filter(Boolean).length
/** How many era probes (`server/discover`) the wrapped server was sent. */
const probesIn = (log: string) => readFileSync(`${log}.stdin`, "utf8").split("\n").filter((l) => l.includes(`"server/discover"`)).length

const textOf = (result: { content: ReadonlyArray<unknown> }) => (result.content[0] as { text: string }).text

describe("protocol eras", () => {
  it.live("auto: a v2 stdio server in 2026-07-28 and server-everything in the 2025 era, side by side; verdicts remembered", () =>
    Effect.gen(function*() {
      const home = freshHome()
      const servers = [nodeServer("modern", v2StdioServer), nodeServer("legacy", Everything.everythingServer, ["stdio"])]
      const states = yield* Effect.scoped(connectAll.pipe(Effect.provide(hostWith(servers, home))))
      expect(states.modern).toEqual(["modern", "2026-07-28"])
      expect(states.legacy?.[0]).toBe("legacy")
      expect(states.legacy?.[1]).toMatch(/^2025-/)
      const verdicts = Object.values(readVerdicts(home)).map((v) => v.era).sort()
      expect(verdicts).toEqual(["legacy", "modern"])
    }), 60_000)

  it.live("a legacy stdio server is spawned once per run, and the second run needs no probe", () =>
    Effect.gen(function*() {
      const home = freshHome()
      const log = path.join(home, "spawns.log")
      const legacy = countingEverything(home, log)
      const run = Effect.scoped(connectAll.pipe(Effect.provide(hostWith([legacy], home))))
      const first = yield* run
      expect(first.legacy?.[0]).toBe("legacy")
      expect(spawnsIn(log)).toBe(1)
      // The first run probed (in place, on the one process).
      expect(probesIn(log)).toBe(1)
      const key = Object.keys(readVerdicts(home))[0]!
      expect(key).toMatch(/^stdio:[0-9a-f]{64}$/)
      const second = yield* run
      expect(second.legacy?.[0]).toBe("legacy")
      expect(spawnsIn(log)).toBe(2)
      // The second went straight to initialize: no probe.
      expect(probesIn(log)).toBe(1)
    }), 60_000)

  it.live("a remembered modern verdict that is wrong falls back to a probe and is rewritten", () =>
    Effect.gen(function*() {
      const home = freshHome()
      const log = path.join(home, "spawns.log")
      const legacy = countingEverything(home, log)
      yield* Effect.scoped(connectAll.pipe(Effect.provide(hostWith([legacy], home))))
      const [key] = Object.keys(readVerdicts(home))
      // The server "was" modern: the file says so.
      writeFileSync(eraCacheFile(home), JSON.stringify({ [key!]: { era: "modern", protocolVersion: "2026-07-28", at: Date.now() } }))
      const states = yield* Effect.scoped(connectAll.pipe(Effect.provide(hostWith([legacy], home))))
      expect(states.legacy?.[0]).toBe("legacy")
      expect(readVerdicts(home)[key!]?.era).toBe("legacy")
    }), 60_000)

  it.live("protocol modern against a legacy server fails naming the server and the fix", () =>
    Effect.gen(function*() {
      const home = freshHome()
      const legacy = server("old", { command: process.execPath, args: [Everything.everythingServer, "stdio"], protocol: "modern" })
      const states = yield* Effect.scoped(connectAll.pipe(Effect.provide(hostWith([legacy], home))))
      const message = String(states.old?.[0])
      expect(message).toContain(`Server "old"`)
      expect(message).toContain("--protocol legacy")
      expect(message).toContain(`"protocol": "legacy"`)
    }), 60_000)

  it.live("protocol legacy against a modern-only server: the -32022 version error names the server and the fix", () =>
    Effect.gen(function*() {
      const home = freshHome()
      const modern = server("new", { command: process.execPath, args: [v2StdioServer, "--modern-only"], protocol: "legacy" })
      const states = yield* Effect.scoped(connectAll.pipe(Effect.provide(hostWith([modern], home))))
      const message = String(states.new?.[0])
      expect(message).toContain(`Server "new"`)
      expect(message).toContain("--protocol modern")
    }), 60_000)

  it.live("the pool's --protocol wins over the setting and over the cache", () =>
    Effect.gen(function*() {
      const home = freshHome()
      const v2 = server("v2", { command: process.execPath, args: [v2StdioServer], protocol: "modern" })
      const states = yield* Effect.scoped(connectAll.pipe(Effect.provide(hostWith([v2], home, { pool: { protocol: "legacy" } }))))
      expect(states.v2?.[0]).toBe("legacy")
    }), 60_000)
})

describe("the modern era over stateless HTTP", () => {
  it.scoped("no initialize, per-request _meta, Mcp-Param headers; the modern verdict remembered by URL", () =>
    Effect.gen(function*() {
      const home = freshHome()
      const { url } = yield* httpServer(v2HttpServer)
      const { url: erasUrl } = yield* httpServer(v2ErasServer, ["--http"])
      const servers = [server("h", { url }), server("e", { url: erasUrl })]
      for (const _run of [1, 2]) {
        const out = yield* Effect.scoped(Effect.gen(function*() {
          const states = yield* connectAll
          const registry = yield* ToolRegistry
          const era = yield* registry.call("mcp__h__era", {})
          const region = yield* registry.call("mcp__e__good_header", { region: "eu-west" })
          return { states, era: era.result.structuredContent, region: JSON.parse(textOf(region.result)) }
        }).pipe(Effect.provide(hostWith(servers, home))))
        expect(out.states.h).toEqual(["modern", "2026-07-28"])
        // The server judged the call modern: no session, the version in the request's _meta.
        expect(out.era).toEqual({ era: "modern" })
        expect(out.region).toEqual({ region: "eu-west", header: "eu-west" })
      }
      expect(Object.keys(readVerdicts(home)).sort()).toEqual([`url:${new URL(erasUrl).origin}/mcp`, `url:${new URL(url).origin}/mcp`].sort())
    }), 60_000)

  it.scoped("a tool with an invalid x-mcp-header is left out of the catalogue, with a warning naming server and tool", () =>
    Effect.gen(function*() {
      const { url } = yield* httpServer(v2ErasServer, ["--http"])
      const warnings: Array<string> = []
      const capture = Logger.replace(Logger.defaultLogger, Logger.make(({ message }) => void warnings.push(String(message))))
      const names = yield* Effect.scoped(Effect.gen(function*() {
        const tools = yield* (yield* ToolRegistry).listServer("e")
        return tools.map((t) => t.tool)
      }).pipe(Effect.provide(hostWith([server("e", { url })], freshHome())))).pipe(Effect.provide(capture))
      expect(names).toContain("good_header")
      expect(names).not.toContain("bad_header")
      expect(warnings.filter((w) => w.includes(`Server "e"`) && w.includes(`"bad_header"`) && w.includes("x-mcp-header"))).toHaveLength(1)
    }), 60_000)
})

interface Exchange {
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly body: { method?: string; params?: { name?: string; _meta?: Record<string, unknown> } }
  response: string
}

/**
 * A reverse proxy on 127.0.0.1 in front of `target` that records every POST and its answer;
 * requests of the `swallow` method get no answer at all (a server that holds them open).
 */
const recordingProxy = (target: string, swallow?: string) =>
  Effect.acquireRelease(
    Effect.async<{ readonly url: string; readonly seen: Array<Exchange>; readonly close: () => void }>((resume) => {
      const seen: Array<Exchange> = []
      const to = new URL(target)
      const proxy = http.createServer((req, res) => {
        const chunks: Array<Buffer> = []
        req.on("data", (c: Buffer) => chunks.push(c))
        req.on("end", () => {
          const raw = Buffer.concat(chunks)
          const exchange: Exchange | undefined = req.method === "POST"
            ? { headers: req.headers, body: JSON.parse(raw.toString("utf8")), response: "" }
            : undefined
          if (exchange) seen.push(exchange)
          if (swallow !== undefined && exchange?.body.method === swallow) return
          const upstream = http.request(
            { host: to.hostname, port: to.port, path: to.pathname, method: req.method, headers: { ...req.headers, host: to.host } },
            (r) => {
              res.writeHead(r.statusCode ?? 502, r.headers)
              r.on("data", (c: Buffer) => {
                if (exchange) exchange.response += c.toString("utf8")
                res.write(c)
              })
              r.on("end", () => res.end())
            }
          )
          upstream.on("error", () => res.destroy())
          upstream.end(raw)
        })
      })
      proxy.listen(0, "127.0.0.1", () =>
        resume(Effect.succeed({
          url: `http://127.0.0.1:${(proxy.address() as { port: number }).port}/mcp`,
          seen,
          close: () => {
            proxy.closeAllConnections()
            proxy.close()
          }
        })))
    }),
    (p) => Effect.sync(() => p.close())
  )

const PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
const CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"

describe("auto against legacy HTTP servers", () => {
  it.scoped("server-everything over Streamable HTTP is found legacy (it refuses the probe) and remembered", () =>
    Effect.gen(function*() {
      const home = freshHome()
      const everything = yield* Effect.acquireRelease(
        Effect.promise(() => Everything.startEverything("streamableHttp")),
        ({ child }) => Effect.promise(() => Everything.stopServer(child))
      )
      const servers = [server("ev", { url: `http://127.0.0.1:${everything.port}/mcp` })]
      const states = yield* Effect.scoped(connectAll.pipe(Effect.provide(hostWith(servers, home))))
      expect(states.ev?.[0]).toBe("legacy")
      expect(Object.values(readVerdicts(home)).map((v) => v.era)).toEqual(["legacy"])
    }), 60_000)

  it.scoped("a legacy HTTP server that leaves the probe unanswered gets initialize after the probe's wait, and is probed again next run", () =>
    Effect.gen(function*() {
      const home = freshHome()
      const everything = yield* Effect.acquireRelease(
        Effect.promise(() => Everything.startEverything("streamableHttp")),
        ({ child }) => Effect.promise(() => Everything.stopServer(child))
      )
      const proxy = yield* recordingProxy(`http://127.0.0.1:${everything.port}/mcp`, "server/discover")
      const servers = [server("silent", { url: proxy.url })]
      const states = yield* Effect.scoped(connectAll.pipe(Effect.provide(hostWith(servers, home, { pool: { probeTimeoutMs: 300 } }))))
      expect(states.silent?.[0]).toBe("legacy")
      expect(proxy.seen.map((x) => x.body.method).slice(0, 2)).toEqual(["server/discover", "initialize"])
      // A timeout is no verdict: nothing remembered, the next run probes again (EraProbe.test.ts).
      const before = proxy.seen.length
      yield* Effect.scoped(connectAll.pipe(Effect.provide(hostWith(servers, home, { pool: { probeTimeoutMs: 300 } }))))
      expect(proxy.seen.slice(before).map((x) => x.body.method)).toContain("server/discover")
    }), 60_000)
})

describe("the modern era on the wire", () => {
  it.scoped("HTTP: server/discover first, no initialize, _meta and MCP headers on every request, resultType in answers", () =>
    Effect.gen(function*() {
      const { url } = yield* httpServer(v2ErasServer, ["--http"])
      const proxy = yield* recordingProxy(url)
      yield* Effect.scoped(Effect.gen(function*() {
        const registry = yield* ToolRegistry
        yield* registry.listServer("e")
        yield* registry.call("mcp__e__good_header", { region: "us" })
      }).pipe(Effect.provide(hostWith([server("e", { url: proxy.url })], freshHome()))))
      const requests = proxy.seen.filter((x) => typeof x.body.method === "string" && "id" in x.body)
      expect(requests[0]?.body.method).toBe("server/discover")
      expect(requests.map((x) => x.body.method)).not.toContain("initialize")
      expect(requests.map((x) => x.body.method)).toEqual(expect.arrayContaining(["tools/list", "tools/call"]))
      for (const x of requests) {
        expect(x.headers["mcp-protocol-version"]).toBe("2026-07-28")
        expect(x.headers["mcp-method"]).toBe(x.body.method)
        expect(x.body.params?._meta?.[PROTOCOL_VERSION_KEY]).toBe("2026-07-28")
        expect(x.body.params?._meta?.[CAPABILITIES_KEY]).toEqual(expect.objectContaining({ elicitation: expect.anything() }))
      }
      const toolCall = requests.find((x) => x.body.method === "tools/call")!
      expect(toolCall.headers["mcp-name"]).toBe("good_header")
      expect(toolCall.headers["mcp-param-region"]).toBe("us")
      expect(toolCall.response).toContain(`"resultType":"complete"`)
    }), 60_000)

  it.live("stdio: server/discover first, no initialize, _meta on every request", () =>
    Effect.gen(function*() {
      const home = freshHome()
      const log = path.join(home, "stdin.log")
      const script = path.join(home, "tee.sh")
      writeFileSync(script, `#!/bin/sh\ntee -a "${log}" | "${process.execPath}" "${v2StdioServer}"\n`)
      chmodSync(script, 0o755)
      yield* Effect.scoped(Effect.gen(function*() {
        yield* (yield* ToolRegistry).call("mcp__v2__echo", { text: "hi" })
        // The wait as long as the connect timeout: this test is about the wire, not the wait; a
        // loaded machine's slow start must not turn it into a test of the fallback.
      }).pipe(Effect.provide(hostWith([server("v2", { command: script })], home, { pool: { probeTimeoutMs: 30_000 } }))))
      const requests = readFileSync(log, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as Exchange["body"] & { id?: unknown })
        .filter((m) => m.id !== undefined && typeof m.method === "string")
      expect(requests[0]?.method).toBe("server/discover")
      expect(requests.map((m) => m.method)).not.toContain("initialize")
      for (const m of requests) {
        expect(m.params?._meta?.[PROTOCOL_VERSION_KEY]).toBe("2026-07-28")
        expect(m.params?._meta?.[CAPABILITIES_KEY]).toBeDefined()
      }
    }), 60_000)
})

describe("the era probe's wait (probeTimeout)", () => {
  it("is 3 s at the default MCP_TIMEOUT, a tenth of a raised one, never more than MCP_TIMEOUT, and an explicit value wins", () => {
    expect(probeTimeout(undefined, 30_000)).toBe(3_000)
    // A loaded machine's MCP_TIMEOUT: the probe waits in proportion, so a slow answer is not taken for no answer.
    expect(probeTimeout(undefined, 120_000)).toBe(12_000)
    expect(probeTimeout(undefined, 1_000)).toBe(1_000)
    expect(probeTimeout(300, 120_000)).toBe(300)
    expect(probeTimeout(5_000, 2_000)).toBe(2_000)
  })
})
