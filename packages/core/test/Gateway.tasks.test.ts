/**
 * Tasks through serve (internal/gateway/GatewayTasks.ts), against two real SDK v2 servers with
 * the extension (fixtures/v2-tasks-server.mjs, `t` and `u`): a client that negotiated the
 * extension gets the task under serve's id and polls or cancels it with later requests (each a
 * gateway of its own, stateless 2026-07-28); one that did not gets the result, the server's
 * error, or — when it drops its call — a task cancelled on the server.
 */
import { slow } from "./support/slow.js"
import { describe, expect, it } from "@effect/vitest"
import { Gateway } from "@mcpctl/core/Gateway"
import * as CoreHost from "@mcpctl/core/Host"
import { Transport } from "@mcpctl/core/Transport"
import type { ResolvedServer } from "@mcpctl/core/ServerConfig"
import { config, nodeServer, v2TasksServer } from "@mcpctl/testing/Fixtures"
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, PROTOCOL_VERSION_META_KEY } from "@modelcontextprotocol/server"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { negotiatesTasks, taskIds, TASKS_EXTENSION } from "../src/internal/gateway/GatewayTasks.js"

const gatewayOf = (servers: ReadonlyArray<ResolvedServer>) => Effect.map(
  Layer.build(Gateway.layerHttp({ port: 0, drainTimeoutMs: 0 }).pipe(Layer.provide(CoreHost.layer({
    config: config({
      servers,
      home: mkdtempSync(path.join(tmpdir(), "mcpctl-gateway-tasks-")),
      permissions: { allow: ["mcp__*"] }
    }),
    transport: Transport.layer,
    pins: false
  })))),
  Context.get(Gateway)
)
const gateway = gatewayOf([nodeServer("t", v2TasksServer), nodeServer("u", v2TasksServer)])
/** The same server spoken to in the 2025 era. */
const legacy = (name: string): ResolvedServer => {
  const s = nodeServer(name, v2TasksServer)
  return { ...s, config: { ...s.config, protocol: "legacy" } } as ResolvedServer
}

type Answer = { readonly result?: Record<string, any>; readonly error?: { code: number; message: string; data?: any } }

/** One stateless 2026-07-28 request; `tasks`: the tasks extension in its envelope. */
const rpcTo = (gw: Context.Tag.Service<Gateway>) => (method: string, params: Record<string, unknown>, tasks: boolean, signal?: AbortSignal) =>
  Effect.promise(async (): Promise<Answer> => {
    const res = await fetch(gw.address, {
      method: "POST",
      signal,
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": method,
        // The header the 2026-07-28 transport asks for: the tool's name, or the task's id.
        ...(method === "tools/call" ? { "mcp-name": String(params.name) } : method.startsWith("tasks/") ? { "mcp-name": String(params.taskId) } : {}),
        authorization: `Bearer ${gw.token}`
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method,
        params: {
          ...params,
          _meta: {
            [PROTOCOL_VERSION_META_KEY]: "2026-07-28",
            [CLIENT_INFO_META_KEY]: { name: "test", version: "1" },
            [CLIENT_CAPABILITIES_META_KEY]: tasks ? { extensions: { [TASKS_EXTENSION]: {} } } : {}
          }
        }
      })
    })
    const text = await res.text()
    // JSON, or an event stream whose last data line is the answer.
    const data = text.trimStart().startsWith("{") ? text : text.split("\n").filter((l) => l.startsWith("data:")).pop()!.slice(5)
    return JSON.parse(data) as Answer
  })

const textOf = (result: Record<string, any> | undefined) => result?.content?.[0]?.text

describe("task ids and negotiation (pure)", () => {
  it("names a task by its server when serve has several; routes only to those servers", () => {
    const several = taskIds(["t", "u"])
    expect(several.ours("t", "abc:1")).toBe("t:abc:1")
    expect(several.route("t:abc:1")).toEqual({ server: "t", taskId: "abc:1" })
    expect(several.route("x:abc")).toBeUndefined()
    expect(several.route("abc")).toBeUndefined()
    const one = taskIds(["t"])
    expect(one.ours("t", "abc")).toBe("abc")
    expect(one.route("abc")).toEqual({ server: "t", taskId: "abc" })
  })

  it("reads the extension from the envelope, the request's _meta, or initialize", () => {
    const declared = { extensions: { [TASKS_EXTENSION]: {} } }
    expect(negotiatesTasks({ [CLIENT_CAPABILITIES_META_KEY]: declared }, undefined, undefined)).toBe(true)
    expect(negotiatesTasks(undefined, { [CLIENT_CAPABILITIES_META_KEY]: declared }, undefined)).toBe(true)
    expect(negotiatesTasks(undefined, undefined, declared)).toBe(true)
    expect(negotiatesTasks({ clientCapabilities: declared }, undefined, undefined)).toBe(true)
    expect(negotiatesTasks({ [CLIENT_CAPABILITIES_META_KEY]: {} }, undefined, { extensions: {} })).toBe(false)
  })
})

describe("serve passes tasks through", () => {
  it.scopedLive("a client that negotiated tasks gets the task under serve's id, and polls and cancels it with later requests", () =>
    Effect.gen(function*() {
      const rpc = rpcTo(yield* gateway)
      const started = yield* rpc("tools/call", { name: "mcp__t__slow_compute", arguments: { seconds: 1, label: "a" } }, true)
      expect(started.result).toMatchObject({ resultType: "task", status: "working", ttlMs: 600_000, pollIntervalMs: 250 })
      const id = started.result!.taskId as string
      expect(id).toMatch(/^t:/)
      // Polled as the client would, until the task ends: the tool's result inlined.
      let task = (yield* rpc("tasks/get", { taskId: id }, true)).result!
      expect(task.taskId).toBe(id)
      while (!["completed", "failed", "cancelled"].includes(task.status)) {
        yield* Effect.sleep("100 millis")
        task = (yield* rpc("tasks/get", { taskId: id }, true)).result!
      }
      expect(task.status).toBe("completed")
      expect(textOf(task.result)).toBe("computed a in 1s")

      const long = (yield* rpc("tools/call", { name: "mcp__u__slow_compute", arguments: { seconds: 600 } }, true)).result!
      expect(long.taskId).toMatch(/^u:/)
      const ack = (yield* rpc("tasks/cancel", { taskId: long.taskId }, true)).result!
      expect(ack.resultType).toBe("complete")
      expect(ack).not.toHaveProperty("taskId")
      expect((yield* rpc("tasks/get", { taskId: long.taskId }, true)).result).toMatchObject({ taskId: long.taskId, status: "cancelled" })
      // A task is its server's: the other one does not know it; an id that names no server is unknown.
      const misrouted = (id as string).replace(/^t:/, "u:")
      expect((yield* rpc("tasks/get", { taskId: misrouted }, true)).error?.code).toBe(-32602)
      expect((yield* rpc("tasks/get", { taskId: "nowhere" }, true)).error?.code).toBe(-32602)
      // Not part of the extension.
      expect((yield* rpc("tasks/result", { taskId: id }, true)).error?.code).toBe(-32601)
      // A synchronous tool is answered as ever.
      expect(textOf((yield* rpc("tools/call", { name: "mcp__t__greet", arguments: { name: "W" } }, true)).result)).toBe("Hello, W!")
    }), slow(90_000))

  it.scopedLive("a client that did not: the server hears so, and answers it without a task, as it would directly; task methods are -32021", () =>
    Effect.gen(function*() {
      const rpc = rpcTo(yield* gateway)
      const tasksOf = (server: string) =>
        Effect.map(rpc("tools/call", { name: `mcp__${server}__started`, arguments: {} }, false), (a) => JSON.parse(textOf(a.result)) as Array<string>)
      const before = yield* tasksOf("t")
      yield* completesAndFails(rpc, "t")
      // Run by the server's own tools/call, which makes a tool error of what the job throws.
      const crashed = yield* rpc("tools/call", { name: "mcp__u__protocol_error_job", arguments: {} }, false)
      expect(crashed.result).toMatchObject({ isError: true })
      expect(textOf(crashed.result)).toContain("the job crashed")
      // No task was made: the envelope did not carry the pool's own tasks declaration.
      expect(yield* tasksOf("t")).toEqual(before)
      const refused = yield* rpc("tasks/get", { taskId: "t:x" }, false)
      expect(refused.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } } })
    }), slow(90_000))
})

/** A task tool answered as a plain result through serve, and a failing job as a tool error. */
const completesAndFails = (rpc: ReturnType<typeof rpcTo>, server: string) =>
  Effect.gen(function*() {
    const done = yield* rpc("tools/call", { name: `mcp__${server}__slow_compute`, arguments: { seconds: 1, label: "b" } }, false)
    expect(done.result?.resultType).toBe("complete")
    expect(textOf(done.result)).toBe("computed b in 1s")
    const failing = yield* rpc("tools/call", { name: `mcp__${server}__failing_job`, arguments: {} }, false)
    expect(failing.result).toMatchObject({ isError: true, content: [{ type: "text", text: "the job failed: disk full" }] })
  })

describe("serve follows a 2025-era server's task for a client that did not negotiate tasks", () => {
  const legacyGateway = gatewayOf([legacy("l")])

  it.scopedLive("it gets the task's result, or the server's error for a crash", () =>
    Effect.gen(function*() {
      const rpc = rpcTo(yield* legacyGateway)
      yield* completesAndFails(rpc, "l")
      const crashed = yield* rpc("tools/call", { name: "mcp__l__protocol_error_job", arguments: {} }, false)
      expect(crashed.error).toMatchObject({ code: -32603 })
      expect(crashed.error?.message).toContain("the job crashed")
    }), slow(90_000))

  it.scopedLive("dropping its call has the task cancelled on the server", () =>
    Effect.gen(function*() {
      const rpc = rpcTo(yield* legacyGateway)
      const before = JSON.parse(textOf((yield* rpc("tools/call", { name: "mcp__l__started", arguments: {} }, false)).result)) as Array<string>
      const abort = new AbortController()
      const call = yield* Effect.fork(Effect.either(Effect.tryPromise(() =>
        Effect.runPromise(rpc("tools/call", { name: "mcp__l__slow_compute", arguments: { seconds: 600 } }, false, abort.signal))
      )))
      // The task exists on the server once it is in the server's list.
      let created: Array<string> = []
      while (created.length === 0) {
        const now = JSON.parse(textOf((yield* rpc("tools/call", { name: "mcp__l__started", arguments: {} }, false)).result)) as Array<string>
        created = now.filter((t) => !before.includes(t))
        if (created.length === 0) yield* Effect.sleep("100 millis")
      }
      abort.abort()
      yield* call.await
      let status = ""
      while (status !== "cancelled") {
        status = (yield* rpc("tasks/get", { taskId: created[0] }, true)).result!.status
        if (status !== "cancelled") yield* Effect.sleep("100 millis")
      }
      expect(status).toBe("cancelled")
    }), slow(90_000))
})
