/**
 * Relayed commands are checked as in-process ones (pins, settings), a server removed from the
 * settings stops in every warm host, and one warm host runs many commands at once. One real
 * daemon, real clients (the bin), real servers.
 */
// @ts-nocheck

import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as fixtures from "@mcpctl/testing/Fixtures"
import { waitForExit } from "@mcpctl/testing/Processes"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { runDir, tokenPath } from "../src/daemon/Wire.js"
import { isAlive, run, slow, workspace } from "./support.js"

const ws = workspace()
const home = join(ws.dir, "home-relayed")
const quietServer = fileURLToPath(new URL("./fixtures/quiet-tools-server.mjs", import.meta.url))
const rendezvousServer = fileURLToPath(new URL("./fixtures/rendezvous-server.mjs", import.meta.url))

/** Commands the daemon has run so far (`daemon status --json`). */
const served = async (): Promise<number> => JSON.parse((await run(["daemon", "status", "--json"], { home })).stdout).commands

beforeAll(async () => {
  const r = await run(["daemon", "start"], { home })
  expect(r.stderr).toContain("mcpctl daemon started")
}, slow(60_000))
afterAll(async () => {
  await run(["daemon", "stop"], { home })
  ws.cleanup()
}, slow(60_000))

describe("a pinned tool whose definition changed, through the daemon and in-process", () => {
  it("is refused the same way (exit 3), and a settings change is seen on the next call", async () => {
    const toolsFile = join(ws.dir, "quiet-tools.json")
    writeFileSync(toolsFile, JSON.stringify([{ name: "t", description: "first" }]))
    const settings = (pin: boolean) =>
      ws.settings("quiet.json", {
        mcpServers: { q: { command: "node", args: [quietServer, "--tools", toolsFile], ...(pin ? {} : { pin: false }) } },
        permissions: { allow: ["mcp__q__t"] }
      })
    const file = settings(true)
    const both = async () => {
      const before = await served()
      const warm = await run(["call", "mcp__q__t", "--config", file], { home, cwd: ws.project })
      expect(await served()).toBe(before + 1)
      const cold = await run(["call", "mcp__q__t", "--config", file, "--no-daemon"], { home, cwd: ws.project })
      return { warm: { code: warm.code, stdout: warm.stdout, stderr: warm.stderr }, cold: { code: cold.code, stdout: cold.stdout, stderr: cold.stderr } }
    }
    const first = await both()
    expect(first.warm).toEqual({ code: 0, stdout: "ran t\n", stderr: "" })
    expect(first.cold).toEqual(first.warm)
    // The server changes the tool and says nothing: the warm connection must ask again, as a run of its own does.
    writeFileSync(toolsFile, JSON.stringify([{ name: "t", description: "second, changed" }]))
    const changed = await both()
    expect(changed.cold.code).toBe(3)
    expect(changed.cold.stderr).toContain("changed since it was pinned")
    expect(changed.warm).toEqual(changed.cold)
    // Pinning turned off in the settings: seen by the next call, relayed or not.
    settings(false)
    const off = await both()
    expect(off.warm).toEqual({ code: 0, stdout: "ran t\n", stderr: "" })
    expect(off.cold).toEqual(off.warm)
  }, slow(180_000))
})

describe("a server removed from the settings", () => {
  it("stops in the warm host of every environment, not at its idle time", async () => {
    const startLog = join(ws.dir, "removed-starts.log")
    const echo = (name: string) => ({ command: "node", args: [fixtures.echoServer, "--start-log", `${startLog}.${name}`] })
    const file = ws.settings("removed.json", { mcpServers: { keep: echo("keep"), gone: echo("gone") } })
    const pids = (name: string) =>
      existsSync(`${startLog}.${name}`) ? [...new Set(readFileSync(`${startLog}.${name}`, "utf8").trim().split("\n").map((l) => Number(l.split(" ")[0])))] : []
    // Two environments: two host processes, each with both servers running.
    for (const env of [{ PICK: "one" }, { PICK: "two" }]) {
      expect((await run(["tools", "--config", file], { home, cwd: ws.project, env })).code).toBe(0)
    }
    const gone = pids("gone")
    expect(gone).toHaveLength(2)
    expect(gone.filter(isAlive)).toHaveLength(2)
    ws.settings("removed.json", { mcpServers: { keep: echo("keep") } })
    // The next command, in one environment, sees the change; the other environment's host closes too.
    expect((await run(["tools", "--config", file], { home, cwd: ws.project, env: { PICK: "one" } })).code).toBe(0)
    expect((await waitForExit(gone, 60_000)).alive).toEqual([])
  }, slow(180_000))
})

describe("one warm host, many commands at once", () => {
  it("runs two relayed calls at the same time (a tool that answers only when both are in flight)", async () => {
    const file = ws.settings("rendezvous.json", {
      mcpServers: { rv: { command: "node", args: [rendezvousServer] } },
      permissions: { allow: ["mcp__rv__meet"] }
    })
    expect(existsSync(tokenPath(runDir({ MCPCTL_HOME: home })))).toBe(true)
    const before = await served()
    // Run one after another, the first would wait alone until alone_ms and answer "alone".
    const calls = await Promise.all([0, 1].map(() => run(["call", "mcp__rv__meet", "alone_ms=60000", "--config", file], { home, cwd: ws.project })))
    expect(await served()).toBe(before + 2)
    for (const c of calls) expect({ code: c.code, stdout: c.stdout, stderr: c.stderr }).toEqual({ code: 0, stdout: "met 2\n", stderr: "" })
  }, slow(180_000))

  it("gives each of them its own output, JSON document and exit code", async () => {
    const file = ws.settings("rendezvous-own.json", {
      mcpServers: { rv: { command: "node", args: [rendezvousServer] } },
      permissions: { allow: ["mcp__rv__meet"] }
    })
    const args = ["call", "mcp__rv__meet", "alone_ms=60000", "--config", file]
    const [failing, plain] = await Promise.all([
      run([...args, "fail=true", "--json"], { home, cwd: ws.project }),
      run(args, { home, cwd: ws.project })
    ])
    const cold = await run([...args, "fail=true", "--json", "n=1", "--no-daemon"], { home, cwd: ws.project })
    expect(failing.code).toBe(1)
    expect(JSON.parse(failing.stdout).isError).toBe(true)
    expect(JSON.parse(failing.stdout).content).toEqual([{ type: "text", text: "met 2" }])
    expect(JSON.parse(cold.stdout).content).toEqual([{ type: "text", text: "met 1" }])
    expect(failing.stderr).toBe(cold.stderr)
    expect({ code: plain.code, stdout: plain.stdout, stderr: plain.stderr }).toEqual({ code: 0, stdout: "met 2\n", stderr: "" })
  }, slow(180_000))
})
