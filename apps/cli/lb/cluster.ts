/**
 * Replicas of `mcpctl serve --http` behind a real nginx (examples/deploy/nginx.conf with its
 * addresses rewritten), for the load-balancer test and its figures. nginx is this process's own
 * child: a temp config, `daemon off`, pid and logs in a temp dir, ports free on 127.0.0.1.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client"
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { appendFileSync, chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import * as net from "node:net"
import { join } from "node:path"
import { cliBin, repoRoot } from "../test/support.js"

/** A port free on 127.0.0.1 right now (bound, then let go). */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = net.createServer()
    s.once("error", reject)
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port
      s.close(() => resolve(port))
    })
  })

/** nginx's binary; installed by scripts/ensure-nginx.sh when missing (which fails loudly when it cannot). */
export const nginxBinary = (): string => {
  execFileSync("bash", [join(repoRoot, "scripts/ensure-nginx.sh")], { stdio: "inherit" })
  for (const p of ["/usr/sbin/nginx", "/usr/bin/nginx"]) if (existsSync(p)) return p
  return execFileSync("sh", ["-c", "command -v nginx"], { encoding: "utf8" }).trim()
}

export interface Replica {
  readonly port: number
  child: ChildProcess
  /** Resolves when serve said how many servers connected (then /readyz says ready). */
  ready: Promise<void>
  exited: Promise<number | null>
}

/** Starts one `serve --http 127.0.0.1:PORT` replica with the shared token file. */
export const startReplica = (dir: string, settings: string, tokenFile: string, port: number, name: string): Replica => {
  const home = join(dir, `home-${name}`)
  mkdirSync(home, { recursive: true })
  const child = spawn(process.execPath, [cliBin, "serve", "--http", `127.0.0.1:${port}`, "--token-file", tokenFile, "--config", settings], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, MCPCTL_HOME: home },
    stdio: ["ignore", "ignore", "pipe"]
  })
  let text = ""
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
  const ready = new Promise<void>((resolve, reject) => {
    child.stderr!.on("data", (d) => {
      text += d
      appendFileSync(join(dir, `replica-${name}.log`), d)
      if (/\d+ of \d+ servers? connected/.test(text)) resolve()
    })
    void exited.then((code) => reject(new Error(`replica ${name} exited ${code}: ${text}`)))
  })
  ready.catch(() => undefined)
  return { port, child, ready, exited }
}

/** The example config with this run's addresses, pid and log files. */
export const nginxConfig = (dir: string, listen: number, upstreams: ReadonlyArray<number>): string => {
  const example = readFileSync(join(repoRoot, "examples/deploy/nginx.conf"), "utf8")
  // The example's own server parameters, on this run's addresses.
  const params = /^\s*server 10\.0\.0\.\d+:8080([^;\n]*);/m.exec(example)?.[1] ?? ""
  const servers = upstreams.map((p) => `    server 127.0.0.1:${p}${params};`).join("\n")
  const config = example
    .replace(/^pid .*;$/m, `pid ${join(dir, "nginx.pid")};`)
    .replace(/^error_log .*;$/m, `error_log ${join(dir, "nginx-error.log")} warn;`)
    .replace(/^(\s*server 10\.0\.0\.\d+:8080[^\n]*\n)+/m, servers + "\n")
    .replace(/listen 8080;/, `listen 127.0.0.1:${listen};`)
    .replace(/^http \{$/m, [
      "http {",
      ...["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((t) => `  ${t}_temp_path ${join(dir, `${t}-temp`)};`)
    ].join("\n"))
  if (!config.includes(`127.0.0.1:${upstreams[0]}`)) throw new Error("examples/deploy/nginx.conf: its upstream servers were not found to rewrite")
  const file = join(dir, "nginx.conf")
  writeFileSync(file, config)
  return file
}

/** Runs nginx in the foreground as this process's child; resolves once its port accepts. */
export const startNginx = async (dir: string, listen: number, upstreams: ReadonlyArray<number>) => {
  const binary = nginxBinary()
  mkdirSync(dir, { recursive: true })
  const file = nginxConfig(dir, listen, upstreams)
  // In a process group of its own: nginx's workers outlive a SIGKILLed master, so the group goes.
  const master = spawn(binary, ["-p", dir, "-c", file, "-e", join(dir, "nginx-error.log"), "-g", "daemon off;"], {
    stdio: ["ignore", "ignore", "pipe"],
    detached: true
  })
  const child = Object.assign(master, {
    kill: (signal: NodeJS.Signals = "SIGTERM") => {
      try {
        process.kill(-master.pid!, signal)
        return true
      } catch {
        return false
      }
    }
  })
  let text = ""
  child.stderr!.on("data", (d) => (text += d))
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
  // Accepting once its port answers a connect (asked again after each refusal).
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const c = net.connect(listen, "127.0.0.1")
      c.once("connect", () => (c.destroy(), resolve(true)))
      c.once("error", () => resolve(false))
    })
    if (up) break
    if (child.exitCode !== null) throw new Error(`nginx exited ${child.exitCode}: ${text}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return { child, exited, url: `http://127.0.0.1:${listen}/mcp` }
}

/** A private token file every replica reads. */
export const tokenFileIn = (dir: string): { file: string; token: string } => {
  const token = "lb-test-token-" + Math.random().toString(36).slice(2) + "-0123456789"
  const file = join(dir, "token")
  writeFileSync(file, token + "\n", { mode: 0o600 })
  chmodSync(file, 0o600)
  return { file, token }
}

/** An SDK client of one era through the balancer. */
export const connectClient = async (url: string, token: string, era: "modern" | "legacy") => {
  const client = new Client({ name: "lb", version: "1" }, { versionNegotiation: { mode: era === "modern" ? { pin: "2026-07-28" } : "legacy" } })
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }))
  return client
}

/** Whether a failed call failed in the connection (a replica gone mid-call), not in its answer. */
export const isConnectionError = (e: unknown): boolean =>
  /fetch failed|terminated|socket|ECONNRESET|ECONNREFUSED|other side closed|HTTP 502|HTTP 504|Bad Gateway|Gateway Time-out/i.test(
    String((e as Error)?.message ?? e) + String((e as { cause?: Error })?.cause?.message ?? "")
  )

/** The outcome of a run of calls. */
export interface CallRun {
  readonly answered: number
  readonly wrong: ReadonlyArray<string>
  readonly retried: number
  readonly failed: ReadonlyArray<string>
  readonly ms: number
}

/**
 * `total` echo calls, `inFlight` at a time; `onCall(i)` runs before call i (kill a replica
 * halfway). A connection error is retried once when `retries` allows, never an answer.
 */
export const runCalls = async (
  client: Client,
  options: { total: number; inFlight: number; retries: number; onCall?: (i: number) => void | Promise<void>; until?: () => boolean }
): Promise<CallRun> => {
  let next = 0, answered = 0, retried = 0
  const wrong: Array<string> = [], failed: Array<string> = []
  const started = performance.now()
  const one = async (i: number) => {
    for (let attempt = 0; ; attempt++) {
      try {
        const r = await client.callTool({ name: "mcp__echo__echo", arguments: { text: `call ${i}` } })
        const text = (r.content as Array<{ text?: string }>)[0]?.text
        if (text === `call ${i}`) answered++
        else wrong.push(`call ${i}: ${JSON.stringify(r.content)}`)
        return
      } catch (e) {
        if (attempt < options.retries && isConnectionError(e)) {
          retried++
          continue
        }
        failed.push(`call ${i}: ${String((e as Error)?.message ?? e)}`)
        return
      }
    }
  }
  const worker = async () => {
    while (next < options.total || (options.until !== undefined && !options.until())) {
      const i = next++
      await options.onCall?.(i)
      await one(i)
    }
  }
  await Promise.all(Array.from({ length: options.inFlight }, worker))
  return { answered, wrong, retried, failed, ms: performance.now() - started }
}
