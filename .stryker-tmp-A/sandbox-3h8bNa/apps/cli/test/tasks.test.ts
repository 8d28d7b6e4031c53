/**
 * Tasks (the tasks extension) from the built CLI, against a real SDK v2 server with it
 * (fixtures/v2-tasks-server.mjs): `call --detach` then `task wait|get|result|cancel|list` over HTTP
 * (the server keeps its tasks between commands), Ctrl-C during `call` cancels the task on the
 * server, and through the daemon a stdio server's task outlives the command that started it
 * (without the daemon the server, and its task, end with the command).
 */
// @ts-nocheck

import { Fixtures } from "@mcpctl/testing"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { type ChildProcess, spawn } from "node:child_process"
import { join } from "node:path"
import { cliBin, run, slow, workspace } from "./support.js"

const ws = workspace()
let server: ChildProcess | undefined
let settings = ""

beforeAll(async () => {
  const url = await new Promise<string>((resolve, reject) => {
    server = spawn(process.execPath, [Fixtures.v2TasksServer, "--http"], { stdio: ["ignore", "pipe", "inherit"] })
    let text = ""
    server.stdout!.on("data", (d) => {
      text += d
      const m = /listening (\S+)/.exec(text)
      if (m) resolve(m[1]!)
    })
    server.on("exit", (code) => reject(new Error(`tasks server exited ${code}`)))
  })
  settings = ws.settings("tasks.json", {
    mcpServers: {
      h: { type: "http", url },
      s: { command: process.execPath, args: [Fixtures.v2TasksServer] }
    },
    permissions: { allow: ["mcp__h", "mcp__s"] }
  })
}, slow(60_000))
afterAll(() => {
  server?.kill("SIGKILL")
  ws.cleanup()
})

const mcpctl = (...args: Array<string>) => run([...args, "--config", settings, "--no-daemon"], { home: ws.home, cwd: ws.dir })

describe("call --detach and task …, over HTTP", () => {
  it("--detach prints the id and exits 0; task wait prints the result; get, result and list see it", async () => {
    const started = await mcpctl("call", "mcp__h__slow_compute", "seconds=1", "label=report", "--detach")
    expect(started.code).toBe(0)
    const id = started.stdout.trim()
    expect(id).toMatch(/^[0-9a-f-]{36}$/)
    expect(started.stderr).toContain(`mcpctl task wait h ${id}`)
    const waited = await mcpctl("task", "wait", "h", id)
    expect(waited).toMatchObject({ code: 0, stdout: "computed report in 1s\n" })
    const got = JSON.parse((await mcpctl("task", "get", "h", id, "--json")).stdout)
    expect(got).toMatchObject({ server: "h", taskId: id, status: "completed", result: { content: [{ type: "text", text: "computed report in 1s" }] } })
    const result = JSON.parse((await mcpctl("task", "result", "h", id, "--json")).stdout)
    expect(result).toMatchObject({ taskId: id, status: "completed", isError: false, content: [{ text: "computed report in 1s" }] })
    const listed = JSON.parse((await mcpctl("task", "list", "h", "--json")).stdout)
    expect(listed.tasks.map((t: { taskId: string; tool: string }) => [t.taskId, t.tool])).toContainEqual([id, "mcp__h__slow_compute"])
  }, slow(120_000))

  it("task result of a running task exits 1; task cancel cancels it; task wait then exits 1 saying so", async () => {
    const id = (await mcpctl("call", "mcp__h__slow_compute", "seconds=600", "--detach")).stdout.trim()
    const early = await mcpctl("task", "result", "h", id)
    expect(early.code).toBe(1)
    expect(early.stderr).toContain("has not ended (working)")
    const cancelled = await mcpctl("task", "cancel", "h", id)
    expect(cancelled).toMatchObject({ code: 0 })
    expect(cancelled.stdout).toMatch(new RegExp(`^task ${id} cancelled`))
    const waited = await mcpctl("task", "wait", "h", id)
    expect(waited.code).toBe(1)
    expect(waited.stderr).toContain(`task ${id} was cancelled`)
    expect((await mcpctl("task", "get", "h", "no-such-task")).code).toBe(2)
  }, slow(120_000))

  it("a tool error is exit 1 with its text; a task that failed names the error", async () => {
    const tool = await mcpctl("call", "mcp__h__failing_job")
    expect(tool.code).toBe(1)
    expect(tool.stderr).toContain("the job failed: disk full")
    const crash = await mcpctl("call", "mcp__h__protocol_error_job", "--json")
    expect(crash.code).toBe(1)
    expect(JSON.parse(crash.stdout).error.message).toMatch(/mcp__h__protocol_error_job \(task .+\) failed: the job crashed/)
  }, slow(120_000))
})

describe("Ctrl-C during call", () => {
  it("cancels the task on the server and exits 130", async () => {
    // The tasks before this call's, read before it starts (the server lists them: `started`).
    const before = new Set(JSON.parse((await mcpctl("call", "mcp__h__started")).stdout) as Array<string>)
    const child = spawn(process.execPath, [cliBin, "call", "mcp__h__slow_compute", "seconds=600", "--config", settings, "--no-daemon"], {
      cwd: ws.dir,
      env: { ...process.env, MCPCTL_HOME: ws.home },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stderr = ""
    child.stderr!.on("data", (d) => (stderr += d))
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve))
    // The task exists once the server lists it: then Ctrl-C.
    let id: string | undefined
    while (id === undefined) {
      const now = JSON.parse((await mcpctl("call", "mcp__h__started")).stdout) as Array<string>
      id = now.find((t) => !before.has(t))
    }
    child.kill("SIGINT")
    expect(await exited).toBe(130)
    expect(stderr).toContain(`cancelled task ${id} on h`)
    expect((await mcpctl("task", "get", "h", id)).stdout).toMatch(new RegExp(`^task ${id} cancelled`))
  }, slow(120_000))
})

describe("through the daemon", () => {
  const home = join(ws.dir, "home-daemon")
  const viaDaemon = (...args: Array<string>) => run([...args, "--config", settings], { home, cwd: ws.dir })
  beforeAll(async () => {
    expect((await run(["daemon", "start"], { home })).stderr).toContain("mcpctl daemon started")
  }, slow(60_000))
  afterAll(async () => {
    await run(["daemon", "stop"], { home })
  }, slow(60_000))

  it("a stdio server's task outlives the command that started it; without the daemon it ends with it", async () => {
    const id = (await viaDaemon("call", "mcp__s__slow_compute", "seconds=1", "label=warm", "--detach")).stdout.trim()
    expect(id).toMatch(/^[0-9a-f-]{36}$/)
    expect(await viaDaemon("task", "wait", "s", id)).toMatchObject({ code: 0, stdout: "computed warm in 1s\n" })
    const cold = await run(["call", "mcp__s__slow_compute", "seconds=1", "--detach", "--config", settings, "--no-daemon"], { home, cwd: ws.dir })
    expect(cold.code).toBe(0)
    const gone = await run(["task", "wait", "s", cold.stdout.trim(), "--config", settings, "--no-daemon"], { home, cwd: ws.dir })
    expect(gone.code).toBe(2)
    expect(gone.stderr).toContain("unknown task")
  }, slow(120_000))
})
