/**
 * `npm run test:lb`: two `mcpctl serve --http` replicas behind a real nginx running
 * examples/deploy/nginx.conf (round robin, no sticky sessions, Host passed through). In each era,
 * 400 read-only calls with 8 in flight survive one replica SIGKILLed halfway (each call answered
 * correctly after at most one retry of a connection error), and a rolling restart (SIGTERM one,
 * start it again, then the other) loses no call at all. No nginx and none installable: fails.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as fixtures from "@mcpctl/testing/Fixtures"
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { connectClient, freePort, nginxBinary, type Replica, runCalls, startNginx, startReplica, tokenFileIn } from "./cluster.js"

const dir = mkdtempSync(join(tmpdir(), "mcpctl-lb-"))
const settings = join(dir, "settings.json")
writeFileSync(settings, JSON.stringify({ mcpServers: { echo: { command: "node", args: [fixtures.echoServer] } }, permissions: { allow: ["mcp__echo__echo"] } }))
const { file: tokenFile, token } = tokenFileIn(dir)
const children: Array<{ child: { kill: (s: NodeJS.Signals) => boolean; exitCode: number | null } }> = []

beforeAll(() => {
  // Throws when nginx is missing and cannot be installed: this test never passes without it.
  nginxBinary()
})
afterAll(() => {
  for (const c of children) if (c.child.exitCode === null) c.child.kill("SIGKILL")
  if (process.env.MCPCTL_LB_KEEP === undefined) rmSync(dir, { recursive: true, force: true })
  else {
    cpSync(dir, process.env.MCPCTL_LB_KEEP, { recursive: true })
    console.log(`[lb] kept ${dir} in ${process.env.MCPCTL_LB_KEEP}`)
  }
})

const cluster = async (name: string) => {
  const ports = [await freePort(), await freePort()]
  const replicas: Array<Replica> = ports.map((p, i) => startReplica(dir, settings, tokenFile, p, `${name}-${i}`))
  children.push(...replicas)
  await Promise.all(replicas.map((r) => r.ready))
  const nginx = await startNginx(join(dir, `nginx-${name}`), await freePort(), ports)
  children.push(nginx)
  const restart = (i: number) => {
    const r = startReplica(dir, settings, tokenFile, ports[i]!, `${name}-${i}-again`)
    replicas[i] = r
    children.push(r)
    return r
  }
  return { replicas, nginx, restart }
}

for (const era of ["modern", "legacy"] as const) {
  describe(`serve --http behind nginx, ${era === "modern" ? "2026-07-28" : "2025"} era`, () => {
    it("400 calls, 8 in flight, one replica SIGKILLed halfway: every call answered, at most one retry each", async () => {
      const { nginx, replicas } = await cluster(`kill-${era}`)
      const client = await connectClient(nginx.url, token, era)
      try {
        const run = await runCalls(client, {
          total: 400,
          inFlight: 8,
          retries: 1,
          onCall: (i) => void (i === 200 && replicas[1]!.child.kill("SIGKILL"))
        })
        expect(run.failed).toEqual([])
        expect(run.wrong).toEqual([])
        expect(run.answered).toBe(400)
        console.log(`[lb] ${era}: 400 calls with a SIGKILL at 200 in ${Math.round(run.ms)} ms ` +
          `(${Math.round((400 / run.ms) * 1000)} calls/s), ${run.retried} retried by the client`)
      } finally {
        await client.close().catch(() => undefined)
      }
    }, 240_000)

    it("a rolling restart (SIGTERM one, start it again, then the other) loses no call", async () => {
      const { nginx, replicas, restart } = await cluster(`roll-${era}`)
      const client = await connectClient(nginx.url, token, era)
      let done = false
      const drains: Array<number> = []
      const roll = (async () => {
        for (const i of [0, 1]) {
          const old = replicas[i]!
          const t0 = performance.now()
          old.child.kill("SIGTERM")
          expect(await old.exited).toBe(143)
          drains.push(Math.round(performance.now() - t0))
          await restart(i).ready
        }
        done = true
      })()
      try {
        const run = await runCalls(client, { total: 400, inFlight: 8, retries: 0, until: () => done })
        await roll
        expect(run.failed).toEqual([])
        expect(run.wrong).toEqual([])
        expect(run.answered).toBeGreaterThanOrEqual(400)
        console.log(`[lb] ${era}: rolling restart, ${run.answered} calls in ${Math.round(run.ms)} ms ` +
          `(${Math.round((run.answered / run.ms) * 1000)} calls/s), none lost; drain under load, SIGTERM to exit: ${drains.join(" and ")} ms`)
      } finally {
        await client.close().catch(() => undefined)
      }
    }, 240_000)
  })
}
