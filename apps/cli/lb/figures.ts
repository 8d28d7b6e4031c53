/**
 * The figures of docs/serve.md, for both client eras (2026-07-28 and 2025): calls/s straight to
 * one replica (no nginx), through nginx to 1 and to 2 replicas (8 calls in flight), nginx's cost
 * per call (1 in flight, through nginx minus direct), and the drain (SIGTERM to exit, 8 calls in
 * flight). `npm run lb:figures` (after `npm run build`); prints a markdown table with the date
 * and the load average. The echo fixture; CALLS=400 calls per run by default.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { connectClient, freePort, runCalls, startNginx, startReplica, tokenFileIn } from "./cluster.js"
import { repoRoot } from "../test/support.js"

type Era = "modern" | "legacy"

const dir = mkdtempSync(join(tmpdir(), "mcpctl-lb-figures-"))
const settings = join(dir, "settings.json")
writeFileSync(settings, JSON.stringify({
  mcpServers: { echo: { command: "node", args: [join(repoRoot, "packages/testing/src/fixtures/echo-server.mjs")] } },
  permissions: { allow: ["mcp__echo__echo"] }
}))
const { file: tokenFile, token } = tokenFileIn(dir)
const N = Number(process.env.CALLS ?? 400)
const kill: Array<() => void> = []

const throughput = async (url: string, era: Era, inFlight: number, total = N) => {
  const client = await connectClient(url, token, era)
  await runCalls(client, { total: 40, inFlight, retries: 0 }) // warm up
  const run = await runCalls(client, { total, inFlight, retries: 0 })
  await client.close()
  if (run.failed.length + run.wrong.length > 0) throw new Error(JSON.stringify(run))
  return { callsPerSecond: Math.round((total / run.ms) * 1000), msPerCall: run.ms / total }
}

/** SIGTERM to a fresh replica while 8 calls are in flight on it, until it exited. */
const drain = async (era: Era, name: string) => {
  const port = await freePort()
  const replica = startReplica(dir, settings, tokenFile, port, name)
  kill.push(() => replica.child.kill("SIGKILL"))
  await replica.ready
  const client = await connectClient(`http://127.0.0.1:${port}/mcp`, token, era)
  let exited = false
  let ms = 0
  const calls = runCalls(client, {
    total: 0,
    inFlight: 8,
    retries: 0,
    until: () => exited,
    onCall: (i) => {
      if (i !== 40) return
      const t0 = performance.now()
      replica.child.kill("SIGTERM")
      void replica.exited.then(() => {
        ms = performance.now() - t0
        exited = true
      })
    }
  })
  const run = await calls
  await client.close().catch(() => undefined)
  return { ms: Math.round(ms), answered: run.answered, refused: run.failed.length }
}

const row = (label: string, values: ReadonlyArray<string | number>) => `| ${label} | ${values.join(" | ")} |`

try {
  const ports = [await freePort(), await freePort()]
  const replicas = ports.map((p, i) => startReplica(dir, settings, tokenFile, p, `f${i}`))
  for (const r of replicas) kill.push(() => r.child.kill("SIGKILL"))
  await Promise.all(replicas.map((r) => r.ready))
  const one = await startNginx(join(dir, "nginx-1"), await freePort(), [ports[0]!])
  kill.push(() => one.child.kill("SIGKILL"))
  const two = await startNginx(join(dir, "nginx-2"), await freePort(), ports)
  kill.push(() => two.child.kill("SIGKILL"))
  const direct = `http://127.0.0.1:${ports[0]}/mcp`
  const eras: ReadonlyArray<Era> = ["modern", "legacy"]
  const figures = []
  for (const era of eras) {
    const sequentialDirect = await throughput(direct, era, 1, N / 2)
    const sequentialNginx = await throughput(one.url, era, 1, N / 2)
    figures.push({
      direct: await throughput(direct, era, 8),
      one: await throughput(one.url, era, 8),
      two: await throughput(two.url, era, 8),
      cost: sequentialNginx.msPerCall - sequentialDirect.msPerCall,
      drain: await drain(era, `drain-${era}`)
    })
  }
  const load = loadavg().map((l) => l.toFixed(1)).join(" ")
  console.log(`${new Date().toISOString()}, load average ${load}, ${N} calls per run, echo fixture\n`)
  console.log(row("", ["2026-07-28", "2025"]))
  console.log(row("---", eras.map(() => "---")))
  console.log(row("direct to one replica, 8 in flight (calls/s)", figures.map((f) => f.direct.callsPerSecond)))
  console.log(row("nginx, 1 replica, 8 in flight (calls/s)", figures.map((f) => f.one.callsPerSecond)))
  console.log(row("nginx, 2 replicas, 8 in flight (calls/s)", figures.map((f) => f.two.callsPerSecond)))
  console.log(row("nginx's cost per call, 1 in flight (ms)", figures.map((f) => f.cost.toFixed(2))))
  console.log(row("drain, SIGTERM to exit, 8 in flight (ms)", figures.map((f) => `${f.drain.ms} (${f.drain.answered} answered, ${f.drain.refused} refused)`)))
} finally {
  for (const k of kill) k()
  rmSync(dir, { recursive: true, force: true })
}
