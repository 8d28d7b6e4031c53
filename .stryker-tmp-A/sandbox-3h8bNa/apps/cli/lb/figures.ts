/**
 * The figures of docs/serve.md: throughput through nginx with 1 and 2 replicas, nginx's cost per
 * call, drain time. `npx vite-node apps/cli/lb/figures.ts` (after `npm run build`); prints JSON.
 * 2026-07-28 era, the echo fixture, 8 calls in flight (1 for the per-call cost).
 */
// @ts-nocheck

import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { connectClient, freePort, runCalls, startNginx, startReplica, tokenFileIn } from "./cluster.js"
import { repoRoot } from "../test/support.js"

const dir = mkdtempSync(join(tmpdir(), "mcpctl-lb-figures-"))
const settings = join(dir, "settings.json")
writeFileSync(settings, JSON.stringify({
  mcpServers: { echo: { command: "node", args: [join(repoRoot, "packages/testing/src/fixtures/echo-server.mjs")] } },
  permissions: { allow: ["mcp__echo__echo"] }
}))
const { file: tokenFile, token } = tokenFileIn(dir)
const N = Number(process.env.CALLS ?? 400)
const kill: Array<() => void> = []

const throughput = async (url: string, inFlight: number, total = N) => {
  const client = await connectClient(url, token, "modern")
  await runCalls(client, { total: 40, inFlight, retries: 0 }) // warm up
  const run = await runCalls(client, { total, inFlight, retries: 0 })
  await client.close()
  if (run.failed.length + run.wrong.length > 0) throw new Error(JSON.stringify(run))
  return { callsPerSecond: Math.round((total / run.ms) * 1000), msPerCall: +(run.ms / total).toFixed(2) }
}

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
  const figures: Record<string, unknown> = {}
  figures.sequentialDirect = await throughput(direct, 1, N / 2)
  figures.sequentialNginx = await throughput(one.url, 1, N / 2)
  figures.nginxCostMsPerCall = +((figures.sequentialNginx as { msPerCall: number }).msPerCall - (figures.sequentialDirect as { msPerCall: number }).msPerCall).toFixed(2)
  figures.oneReplica8InFlight = await throughput(one.url, 8)
  figures.twoReplicas8InFlight = await throughput(two.url, 8)
  // Drain: SIGTERM with a client idle, until the process has exited.
  const t0 = performance.now()
  replicas[1]!.child.kill("SIGTERM")
  const code = await replicas[1]!.exited
  figures.drainIdleMs = Math.round(performance.now() - t0)
  figures.drainExitCode = code
  console.log(JSON.stringify(figures, null, 2))
} finally {
  for (const k of kill) k()
  rmSync(dir, { recursive: true, force: true })
}
