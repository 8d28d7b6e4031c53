/**
 * The heavy versions of apps/cli/test/signals.test.ts and of the response size limit, with the
 * built CLI as a user runs it (`npm run soak`; several seconds each on a small machine): 50
 * stubborn servers and Ctrl-C, 50 and a second Ctrl-C, a kill -9 loop, and the peak memory of
 * mcpctl against endless answers over stdio, Streamable HTTP (JSON and an event stream) with
 * the default 32 MiB limit. Each test prints its figure (docs/reliability.md).
 */
// @ts-nocheck

import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Processes } from "@mcpctl/testing"
import * as fixtures from "@mcpctl/testing/Fixtures"
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const root = resolve(fileURLToPath(new URL("../../..", import.meta.url)))
const cli = join(root, "apps/cli/bin/mcpctl.mjs")
const dir = mkdtempSync(join(tmpdir(), "mcpctl-soak-"))
const home = join(dir, "home")
mkdirSync(home)

beforeAll(() => {
  execFileSync(process.execPath, [join(root, "apps/cli/build.mjs")], { stdio: "inherit" })
}, 120_000)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The environment without the knobs of CLI.md, so a developer's settings cannot change results. */
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(MCP_|MAX_MCP_|MCPCTL_)/.test(k)))

const mcpctl = (args: ReadonlyArray<string>, extra: Record<string, string> = {}, wrap: ReadonlyArray<string> = []) => {
  const [command, ...rest] = [...wrap, process.execPath, cli, ...args]
  const child = spawn(command!, rest, { env: { ...env, MCPCTL_HOME: home, ...extra }, stdio: ["ignore", "pipe", "pipe"] })
  let stdout = ""
  let stderr = ""
  child.stdout!.on("data", (d) => (stdout += d))
  child.stderr!.on("data", (d) => (stderr += d))
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolveDone) =>
    child.on("exit", (code) => resolveDone({ code, stdout, stderr }))
  )
  return { child, done }
}

let scenario = 0

/** `count` stubborn servers plus one that never initializes, so `servers` keeps running. */
const stubborn = (count: number) => {
  const tag = `s${++scenario}`
  const pidFiles = Array.from({ length: count }, (_, i) => join(dir, `${tag}-${i}.pids`))
  const signalLog = join(dir, `${tag}.signals`)
  const servers: Record<string, unknown> = Object.fromEntries(pidFiles.map((file, i) => [`stubborn${i}`, {
    command: "node",
    args: [fixtures.hostileServer, "--stubborn", "--pid-file", file, "--signal-log", signalLog]
  }]))
  servers.hold = { command: "node", args: [fixtures.hostileServer, "--never-initialize"] }
  const file = join(dir, `${tag}.json`)
  writeFileSync(file, JSON.stringify({ mcpServers: servers }))
  const pids = async () => {
    const all: Array<number> = []
    for (const f of pidFiles) {
      const p = JSON.parse(await Processes.waitForFile(f, 120_000)) as { server: number; grandchild: number }
      all.push(p.server, p.grandchild)
    }
    return all
  }
  return { file, pids, signalLog }
}

/** Starts `servers` on them, with every server connecting at once; resolves when all are up. */
const startServers = async (setup: ReturnType<typeof stubborn>) => {
  const run = mcpctl(["servers", "--config", setup.file, "--json"], { MCP_TIMEOUT: "300000", MCP_SERVER_CONNECTION_BATCH_SIZE: "60" })
  const pids = await setup.pids()
  expect(pids.filter(Processes.isAlive)).toHaveLength(pids.length)
  return { ...run, pids }
}

const figure = (name: string, value: string) => process.stderr.write(`[soak] ${name}: ${value}\n`)

describe.runIf(process.platform === "linux")("shutdown with 50 stubborn servers", () => {
  it("Ctrl-C: the whole process exits within 1 s, nothing left (was 26.9 s)", async () => {
    const setup = stubborn(50)
    const { child, done, pids } = await startServers(setup)
    const started = Date.now()
    child.kill("SIGINT")
    const r = await done
    const ms = Date.now() - started
    const left = pids.filter(Processes.isAlive)
    figure("50 stubborn servers, Ctrl-C to exit", `${ms} ms, ${left.length} of ${pids.length} processes left`)
    expect(r.code).toBe(130)
    expect(left).toEqual([])
    expect(ms).toBeLessThanOrEqual(1_000)
  }, 300_000)

  it("a second Ctrl-C goes straight to SIGKILL and leaves nothing (was 141 processes left)", async () => {
    const setup = stubborn(50)
    const { child, done, pids } = await startServers(setup)
    const started = Date.now()
    child.kill("SIGINT")
    await Processes.waitForFile(setup.signalLog)
    child.kill("SIGINT")
    const r = await done
    const ms = Date.now() - started
    const left = pids.filter(Processes.isAlive)
    figure("50 stubborn servers, second Ctrl-C to exit", `${ms} ms, ${left.length} of ${pids.length} processes left`)
    expect(r.code).toBe(130)
    expect(left).toEqual([])
  }, 300_000)
})

describe.runIf(process.platform === "linux")("kill -9 loop", () => {
  it("5 rounds of kill -9 of mcpctl with 10 stubborn servers: every group gone within 1.5 s", async () => {
    const times: Array<number> = []
    for (let round = 0; round < 5; round++) {
      const setup = stubborn(10)
      const { child, done, pids } = await startServers(setup)
      child.kill("SIGKILL")
      await done
      const { alive, ms } = await Processes.waitForExit(pids, 5_000)
      times.push(ms)
      expect(alive).toEqual([])
    }
    figure("kill -9 of mcpctl, 10 stubborn servers, time to none left (5 rounds)", times.map((t) => `${t} ms`).join(", "))
    expect(Math.max(...times)).toBeLessThan(1_500)
  }, 600_000)
})

/** Peak RSS of a whole mcpctl run in MB, by GNU time. */
const peakRss = async (args: ReadonlyArray<string>, extra: Record<string, string> = {}) => {
  const out = join(dir, `time-${++scenario}.txt`)
  const { done } = mcpctl(args, extra, ["/usr/bin/time", "-f", "%M", "-o", out])
  const r = await done
  return { ...r, mb: Number(readFileSync(out, "utf8").trim().split("\n").pop()) / 1024 }
}

const httpServer = (sse: boolean) =>
  new Promise<{ url: string; child: ChildProcess }>((resolveServer) => {
    const child = spawn(process.execPath, [fixtures.hostileServer, "--http", "0", ...(sse ? ["--sse-responses"] : [])], {
      stdio: ["ignore", "pipe", "inherit"]
    })
    let text = ""
    child.stdout!.on("data", (c) => {
      text += c
      const m = /listening (\S+)/.exec(text)
      if (m) resolveServer({ url: m[1]!, child })
    })
  })

describe.runIf(existsSync("/usr/bin/time"))("memory against endless answers (default 32 MiB limit)", () => {
  const cases = [
    { name: "stdio, endless line", server: () => Promise.resolve({ args: ["--stdio", `node ${fixtures.hostileServer}`], stop: () => {} }) },
    {
      name: "Streamable HTTP, endless application/json body",
      server: async () => {
        const s = await httpServer(false)
        return { args: ["--url", s.url, "--transport", "http"], stop: () => s.child.kill("SIGKILL") }
      }
    },
    {
      name: "Streamable HTTP, one endless SSE event",
      server: async () => {
        const s = await httpServer(true)
        return { args: ["--url", s.url, "--transport", "http"], stop: () => s.child.kill("SIGKILL") }
      }
    }
  ]
  for (const c of cases) {
    it(`${c.name}: the call fails naming the limit, RSS stays bounded (was 8 GB in 24 s / the heap limit)`, async () => {
      const server = await c.server()
      try {
        const r = await peakRss(["call", "mcp__adhoc__endless", ...server.args, "--yes", "--json"])
        figure(`${c.name}, peak RSS of mcpctl`, `${r.mb.toFixed(0)} MB`)
        expect(JSON.parse(r.stdout).error.message).toMatch(/over the limit of 33,554,432 bytes \(32 MiB\)/)
        expect(r.mb).toBeLessThan(400)
      } finally {
        server.stop()
      }
    }, 120_000)
  }
})
