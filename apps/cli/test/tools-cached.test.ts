/** `tools --cached`: the catalogue cache across runs, real processes and real files. */
import { afterAll, describe, expect, it } from "@effect/vitest"
import * as fixtures from "@mcpctl/testing/Fixtures"
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { workspace } from "./support.js"
// In process: what is checked is output and exit codes, which a spawn adds nothing to (inProcess.ts).
import { runInProcess as run } from "./inProcess.js"

const ws = workspace()
afterAll(() => ws.cleanup())

const starts = (log: string) => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter((l) => l.includes(" start ")).length : 0)

describe("tools --cached", () => {
  const log = join(ws.dir, "starts.log")
  const settings = ws.settings("cached.json", {
    mcpServers: { echo: { command: "node", args: [fixtures.echoServer, "--start-log", log] } }
  })
  const args = ["tools", "--config", settings, "--no-daemon"]

  it("without a cache asks the server, prints what tools prints, and keeps the list", async () => {
    const plain = await run(args, { home: ws.home, cwd: ws.project })
    const first = await run([...args, "--cached"], { home: join(ws.dir, "home-empty"), cwd: ws.project })
    expect({ code: first.code, stdout: first.stdout, stderr: first.stderr }).toEqual({ code: 0, stdout: plain.stdout, stderr: plain.stderr })
    const dir = join(ws.home, "cache", "catalog")
    expect(readdirSync(dir)).toHaveLength(1)
    expect(statSync(dir).mode & 0o777).toBe(0o700)
    expect(statSync(join(dir, readdirSync(dir)[0]!)).mode & 0o777).toBe(0o600)
  })

  it("with a cache starts no server, prints the same table and says how old the list is", async () => {
    const live = await run([...args, "--json"], { home: ws.home, cwd: ws.project })
    const before = starts(log)
    const table = await run(args, { home: ws.home, cwd: ws.project })
    const afterLive = starts(log)
    const cached = await run([...args, "--cached"], { home: ws.home, cwd: ws.project })
    const cachedJson = await run([...args, "--cached", "--json"], { home: ws.home, cwd: ws.project })
    expect(starts(log)).toBe(afterLive)
    expect(afterLive).toBe(before + 1)
    expect(cached.code).toBe(0)
    expect(cached.stdout).toBe(table.stdout)
    expect(cached.stderr).toMatch(/^note: the tools of echo are from the catalogue cache, listed \d+ s ago$/m)
    expect(JSON.parse(cachedJson.stdout)).toEqual(JSON.parse(live.stdout))
  })

  it("is keyed by the server's identity and settings: another entry does not read it", async () => {
    const other = ws.settings("cached-other.json", {
      mcpServers: { echo: { command: "node", args: [fixtures.echoServer, "--start-log", log, "--cancellations"] } }
    })
    const before = starts(log)
    const r = await run(["tools", "--config", other, "--no-daemon", "--cached"], { home: ws.home, cwd: ws.project })
    expect(r.code).toBe(0)
    expect(r.stdout).toContain("mcp__echo__cancellations")
    expect(r.stderr).not.toContain("catalogue cache")
    expect(starts(log)).toBe(before + 1)
  })
})
