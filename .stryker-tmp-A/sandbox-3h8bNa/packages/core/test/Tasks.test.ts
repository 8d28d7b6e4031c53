/**
 * Tasks (SEP-2663) against a real SDK v2 server with the extension (fixtures/v2-tasks-server.mjs):
 * the extension declared in the handshake, a call the server turns into a task, its states as a
 * Stream, cancel, a tool error and a protocol error, a task looked at from another host over HTTP,
 * and no task at all when the pool does not declare the extension.
 */
// @ts-nocheck

import { slow } from "./support/slow.js"
import { describe, expect, it } from "@effect/vitest"
import { config, httpServer, nodeServer, server, v2TasksServer } from "@mcpctl/testing/Fixtures"
import { ConnectionPool, type PoolOptions } from "@mcpctl/core/ConnectionPool"
import * as CoreHost from "@mcpctl/core/Host"
import type { ResolvedServer } from "@mcpctl/core/ServerConfig"
import { isFinal, pollDelay, type TaskInfo, Tasks, taskOf } from "@mcpctl/core/Tasks"
import { Transport } from "@mcpctl/core/Transport"
import * as Chunk from "effect/Chunk"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { liftTaskResult, TASK_RESULT_KEY, withTasksExtension } from "../src/internal/pool/hostClient.js"
import { MAX_ENTRIES, pruned } from "../src/internal/taskLog.js"

const hostWith = (servers: ReadonlyArray<ResolvedServer>, pool: PoolOptions = {}) => {
  const host = CoreHost.layer({
    config: config({ servers, home: mkdtempSync(path.join(tmpdir(), "mcpctl-tasks-")), permissions: { allow: ["mcp__*"] } }),
    transport: Transport.layer,
    pins: false,
    pool
  })
  return Layer.provideMerge(Tasks.layer, host)
}

const stdio = [nodeServer("t", v2TasksServer)]
const textOf = (result: { content: ReadonlyArray<unknown> } | undefined) => (result?.content[0] as { text: string } | undefined)?.text

const startTask = (name: string, args: Record<string, unknown>) =>
  Effect.flatMap(Tasks, (tasks) => tasks.start(name, args)).pipe(
    Effect.flatMap((started) => started._tag === "Task" ? Effect.succeed(started.task) : Effect.die(new Error(`${name} was not a task`)))
  )

describe("tasks over stdio", () => {
  it.live("the extension is declared and announced; a long call is a task whose states stream to the final one", () =>
    Effect.gen(function*() {
      const pool = yield* ConnectionPool
      const connection = yield* pool.get("t")
      expect(connection.era).toBe("modern")
      expect((connection.capabilities as { extensions?: Record<string, unknown> }).extensions).toHaveProperty(["io.modelcontextprotocol/tasks"])
      const tasks = yield* Tasks
      const sync = yield* tasks.start("mcp__t__greet", { name: "W" })
      expect(sync._tag).toBe("Result")
      const task = yield* startTask("mcp__t__slow_compute", { seconds: 2, label: "a" })
      expect(task).toMatchObject({ server: "t", status: "working", ttlMs: 600_000, pollIntervalMs: 250 })
      const states = Chunk.toReadonlyArray(yield* Stream.runCollect(tasks.wait("t", task.taskId)))
      expect(states[0]!.status).toBe("working")
      const last = states[states.length - 1]!
      expect(last.status).toBe("completed")
      expect(textOf(last.result)).toBe("computed a in 2s")
      // One element per change: never the same state twice in a row.
      for (let i = 1; i < states.length; i++) {
        expect([states[i]!.status, states[i]!.statusMessage]).not.toEqual([states[i - 1]!.status, states[i - 1]!.statusMessage])
      }
      expect(states.filter(isFinal)).toHaveLength(1)
    }).pipe(Effect.provide(hostWith(stdio))), slow(60_000))

  it.live("cancel settles a running task to cancelled; a tool error is completed + isError; a crash is failed", () =>
    Effect.gen(function*() {
      const tasks = yield* Tasks
      const long = yield* startTask("mcp__t__slow_compute", { seconds: 600 })
      yield* tasks.cancel("t", long.taskId)
      expect((yield* tasks.result("t", long.taskId)).status).toBe("cancelled")
      const failing = yield* startTask("mcp__t__failing_job", {})
      const failed = yield* tasks.result("t", failing.taskId)
      expect(failed.status).toBe("completed")
      expect(failed.result?.isError).toBe(true)
      const crashing = yield* startTask("mcp__t__protocol_error_job", {})
      const crashed = yield* tasks.result("t", crashing.taskId)
      expect(crashed.status).toBe("failed")
      expect(crashed.error).toMatchObject({ code: -32603, message: "the job crashed" })
      expect(crashed.result).toBeUndefined()
      // The extension has no tasks/list: the host's own record, each task as the server has it now.
      const listed = yield* tasks.list("t")
      expect(listed.map((t) => [t.taskId, t.tool, t.status])).toEqual([
        [long.taskId, "mcp__t__slow_compute", "cancelled"],
        [failing.taskId, "mcp__t__failing_job", "completed"],
        [crashing.taskId, "mcp__t__protocol_error_job", "failed"]
      ])
    }).pipe(Effect.provide(hostWith(stdio))), slow(60_000))

  it.live("an unknown task id is the server's -32602", () =>
    Effect.gen(function*() {
      const tasks = yield* Tasks
      const error = yield* Effect.flip(tasks.get("t", "no-such-task"))
      expect(error).toMatchObject({ _tag: "McpRequestError", code: -32602, method: "tasks/get" })
    }).pipe(Effect.provide(hostWith(stdio))), slow(60_000))

  it.live("without the extension declared (serve's pool), the server runs the call to the end", () =>
    Effect.gen(function*() {
      const tasks = yield* Tasks
      const started = yield* tasks.start("mcp__t__slow_compute", { seconds: 1, label: "b" })
      expect(started._tag).toBe("Result")
      if (started._tag === "Result") expect(textOf(started.result)).toBe("computed b in 1s")
    }).pipe(Effect.provide(hostWith(stdio, { tasks: false }))), slow(60_000))
})

describe("tasks over HTTP", () => {
  it.live("a task started by one host is waited on by another (the server keeps it)", () =>
    Effect.scoped(Effect.gen(function*() {
      const { url } = yield* httpServer(v2TasksServer, ["--http"])
      const servers = [server("h", { url })]
      const task = yield* startTask("mcp__h__slow_compute", { seconds: 1, label: "c" }).pipe(Effect.provide(hostWith(servers)))
      const done = yield* Effect.flatMap(Tasks, (tasks) => tasks.result("h", task.taskId)).pipe(Effect.provide(hostWith(servers)))
      expect(done.status).toBe("completed")
      expect(textOf(done.result)).toBe("computed c in 1s")
    })), slow(60_000))
})

describe("pure parts", () => {
  it("a task answer is lifted into a complete result carrying the task; other answers are left alone", () => {
    const lifted = liftTaskResult({
      jsonrpc: "2.0",
      id: 3,
      result: { resultType: "task", taskId: "x", status: "working", _meta: { k: 1 } }
    } as never) as unknown as { result: Record<string, unknown> }
    expect(lifted.result).toEqual({ resultType: "complete", content: [], [TASK_RESULT_KEY]: { taskId: "x", status: "working" }, _meta: { k: 1 } })
    const plain = { jsonrpc: "2.0", id: 4, result: { resultType: "complete", content: [] } } as never
    expect(liftTaskResult(plain)).toBe(plain)
    expect(taskOf("s", lifted.result as never)).toMatchObject({ server: "s", taskId: "x", status: "working" })
    expect(taskOf("s", { content: [] })).toBeUndefined()
  })

  it("the extension is added to the capabilities already declared", () => {
    expect(withTasksExtension({ capabilities: { elicitation: { form: {} }, extensions: { other: {} } } })).toEqual({
      capabilities: { elicitation: { form: {} }, extensions: { other: {}, "io.modelcontextprotocol/tasks": {} } }
    })
    expect(withTasksExtension(undefined)).toEqual({ capabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } } })
  })

  it("the record keeps tasks within their time to live (a day without one), the newest 200", () => {
    const entry = (i: number, ttlMs?: number | null) => ({ server: "s", taskId: `t${i}`, tool: "x", startedAt: i, ...(ttlMs !== undefined ? { ttlMs } : {}) })
    expect(Object.keys(pruned({ a: entry(0, 10), b: entry(5, 100), c: entry(6, null) }, 50))).toEqual(["b", "c"])
    const many = Object.fromEntries(Array.from({ length: MAX_ENTRIES + 5 }, (_, i) => [`k${i}`, entry(i)]))
    const kept = Object.keys(pruned(many, 1_000))
    expect(kept).toHaveLength(MAX_ENTRIES)
    expect(kept[0]).toBe("k5")
  })

  it("polls at the server's interval, within 100 ms and 5 s", () => {
    const ms = (task: Partial<TaskInfo>) => Duration.toMillis(pollDelay(task))
    expect(ms({ pollIntervalMs: 250 })).toBe(250)
    expect(ms({ pollIntervalMs: 1 })).toBe(100)
    expect(ms({ pollIntervalMs: 60_000 })).toBe(5_000)
    expect(ms({})).toBe(1_000)
  })
})
