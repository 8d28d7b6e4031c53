/**
 * A task that needs input, from the CLI (in process), against the real SDK v2 tasks fixture over
 * stdio (`confirm_delete`: a task that asks one form, a boolean with a default): `call --yes`
 * answers it with the default and the task resumes to "deleted"; without a terminal and without
 * `--yes` the form is declined and the tool keeps the file; `--detach` then `task wait --yes`
 * answers it from a later command, through the same server (HTTP keeps its tasks).
 */
import { Fixtures } from "@mcpctl/testing"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { type ChildProcess, spawn } from "node:child_process"
import { runInProcess } from "./inProcess.js"
import { slow, workspace } from "./support.js"

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
    mcpServers: { s: { command: process.execPath, args: [Fixtures.v2TasksServer] }, h: { type: "http", url } },
    permissions: { allow: ["mcp__s", "mcp__h"] }
  })
}, slow(60_000))
afterAll(() => {
  server?.kill("SIGKILL")
  ws.cleanup()
})

const mcpctl = (...args: Array<string>) => runInProcess([...args, "--config", settings, "--no-daemon"], { home: ws.home, cwd: ws.dir })

describe("a task that asks for input", () => {
  it("call --yes answers the form with its defaults; the task resumes and its result is printed", async () => {
    const r = await mcpctl("call", "mcp__s__confirm_delete", "filename=a.txt", "--yes")
    expect(r).toMatchObject({ code: 0, stdout: "deleted a.txt\n" })
    expect(r.stderr).toContain("s asked: Delete a.txt? — accepted with defaults (--yes)")
  }, slow(120_000))

  it("without a terminal or --yes the form is declined, and the tool says what it did with that", async () => {
    const r = await mcpctl("call", "mcp__s__confirm_delete", "filename=b.txt")
    expect(r).toMatchObject({ code: 0, stdout: "kept b.txt (decline)\n" })
    expect(r.stderr).toContain("s asked: Delete b.txt? — declined")
  }, slow(120_000))

  it("a detached task that asks is answered by the later `task wait`", async () => {
    const started = await mcpctl("call", "mcp__h__confirm_delete", "filename=c.txt", "--detach")
    expect(started.code).toBe(0)
    const id = started.stdout.trim()
    const waited = await mcpctl("task", "wait", "h", id, "--yes")
    expect(waited).toMatchObject({ code: 0, stdout: "deleted c.txt\n" })
  }, slow(120_000))
})
