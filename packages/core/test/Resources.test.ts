import { describe, expect, it, layer } from "@effect/vitest"
import { Fixtures, Host, InMemory } from "@mcpctl/testing"
import { Server } from "@modelcontextprotocol/server"
import * as Resources from "@mcpctl/core/Resources"
import { ToolRegistry } from "@mcpctl/core/ToolRegistry"
import { Transport } from "@mcpctl/core/Transport"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("../../..", import.meta.url))
const everything = path.join(root, "node_modules/@modelcontextprotocol/server-everything/dist/index.js")

/** Log notifications seen by the configured clients, for the logging test. */
const logs: Array<{ server: string; level: string; data: unknown }> = []

const hostLayer = () => {
  const config = Fixtures.staticConfig({
    servers: {
      everything: { command: "node", args: [everything, "stdio"] },
      broken: { command: "node", args: ["-e", "process.exit(3)"] }
    },
    permissions: { allow: ["mcp__everything"] }
  })
  return Host.layer({
    config,
    transport: Transport.layer,
    pool: { configureClient: Resources.forwardServerLogs("debug", (log) => logs.push(log)) }
  })
}

describe("checkPromptArguments (pure)", () => {
  const prompt = {
    name: "args-prompt",
    arguments: [{ name: "city", required: true }, { name: "state" }]
  }

  it("accepts declared arguments, required ones present", () => {
    expect(Either.getOrThrow(Resources.checkPromptArguments(prompt, { city: "Paris" }))).toEqual({ city: "Paris" })
  })

  it("names a missing required argument and lists the declared ones", () => {
    const error = Either.flip(Resources.checkPromptArguments(prompt, { state: "X" })).pipe(Either.getOrThrow)
    expect(error._tag).toBe("UsageError")
    expect(error.message).toContain("city")
    expect(error.message).toContain("city (required), state")
  })

  it("refuses an unknown key", () => {
    const error = Either.flip(Resources.checkPromptArguments(prompt, { city: "P", country: "FR" })).pipe(Either.getOrThrow)
    expect(error.message).toContain("no argument country")
  })

  it("parses key=value pairs as strings and refuses anything else", () => {
    expect(Either.getOrThrow(Resources.parsePromptPairs(["a=1", "b=x=y"]))).toEqual({ a: "1", b: "x=y" })
    expect(Either.isLeft(Resources.parsePromptPairs(["nope"]))).toBe(true)
  })

  it("orders log levels like syslog", () => {
    expect(Resources.levelAtLeast("error", "warning")).toBe(true)
    expect(Resources.levelAtLeast("info", "warning")).toBe(false)
    expect(Resources.levelAtLeast("debug", "debug")).toBe(true)
  })
})

layer(hostLayer(), { timeout: 60_000 })("Resources against server-everything (stdio)", (it) => {
  it.effect("lists resources and templates across servers, reporting the broken one", () =>
    Effect.gen(function*() {
      const all = yield* Resources.listAllResources()
      expect(all.resources.length).toBeGreaterThan(0)
      expect(all.resources.every((r) => r.server === "everything")).toBe(true)
      expect(all.resources.some((r) => r.uri.startsWith("demo://resource/static/document/"))).toBe(true)
      expect(all.templates.map((t) => t.uriTemplate)).toEqual(
        expect.arrayContaining(["demo://resource/dynamic/text/{resourceId}", "demo://resource/dynamic/blob/{resourceId}"])
      )
      expect(all.errors).toEqual([{ server: "broken", status: "failed", message: expect.any(String) }])
    }))

  it.effect("groups resources by server name (an agent host's mcp_resources)", () =>
    Effect.gen(function*() {
      const byServer = yield* Resources.resourcesByServer()
      expect(Object.keys(byServer)).toEqual(["everything"])
      expect(byServer.everything!.length).toBeGreaterThan(0)
      expect(byServer.everything![0]).toHaveProperty("uri")
    }))

  it.effect("reads a text resource inline and a blob resource into a file of the decoded bytes", () =>
    Effect.gen(function*() {
      const dir = yield* Effect.promise(() => fs.mkdtemp(path.join(os.tmpdir(), "mcpctl-res-")))
      const text = yield* Resources.readResourceToFiles("everything", "demo://resource/dynamic/text/1", dir)
      expect(text.files).toEqual([])
      expect(text.contents[0]).toMatchObject({ uri: "demo://resource/dynamic/text/1", text: expect.stringContaining("Resource 1") })

      const raw = yield* Resources.readResource("everything", "demo://resource/dynamic/blob/2")
      const blob = yield* Resources.readResourceToFiles("everything", "demo://resource/dynamic/blob/2", dir)
      expect(blob.files.length).toBe(1)
      const file = blob.files[0]!
      const bytes = yield* Effect.promise(() => fs.readFile(file.path))
      expect(bytes.length).toBe(file.bytes)
      expect(bytes.toString("utf8")).toMatch(/^Resource 2: This is a base64 blob created at /)
      // Same second → same bytes as a second raw read (the server stamps the time).
      const rawBytes = Buffer.from((raw.contents[0] as { blob: string }).blob, "base64")
      expect(bytes.length).toBe(rawBytes.length)
      expect(JSON.stringify(blob)).not.toContain((raw.contents[0] as { blob: string }).blob)
    }))

  it.effect("lists prompts, checks arguments, and gets messages", () =>
    Effect.gen(function*() {
      const { errors, prompts } = yield* Resources.listAllPrompts(["everything"])
      expect(errors).toEqual([])
      expect(prompts.map((p) => p.name)).toEqual(
        expect.arrayContaining(["simple-prompt", "args-prompt", "completable-prompt", "resource-prompt"])
      )
      const { result } = yield* Resources.getPromptChecked("everything", "args-prompt", { city: "Paris", state: "TX" })
      expect(result.messages[0]!.content).toEqual({ type: "text", text: "What's weather in Paris, TX?" })

      const missing = yield* Effect.flip(Resources.getPromptChecked("everything", "args-prompt", {}))
      expect(missing._tag).toBe("UsageError")
      expect(missing.message).toContain("city")
      const unknown = yield* Effect.flip(Resources.getPromptChecked("everything", "no-such-prompt", {}))
      expect(unknown.message).toContain("simple-prompt")
    }))

  it.effect("persists embedded blob resources of prompt messages", () =>
    Effect.gen(function*() {
      const dir = yield* Effect.promise(() => fs.mkdtemp(path.join(os.tmpdir(), "mcpctl-prompt-")))
      const { result } = yield* Resources.getPromptChecked("everything", "resource-prompt", {
        resourceType: "Blob",
        resourceId: "3"
      })
      const { files, messages } = yield* Resources.persistPromptMessages(result, dir)
      expect(messages.map((m) => m.role)).toEqual(["user", "user"])
      expect(messages[1]!.content.type).toBe("file")
      expect(files.length).toBe(1)
      const bytes = yield* Effect.promise(() => fs.readFile(files[0]!.path))
      expect(bytes.toString()).toMatch(/^Resource 3: This is a base64 blob/)
    }))

  it.effect("completes prompt arguments (with context) and resource-template variables", () =>
    Effect.gen(function*() {
      const dept = yield* Resources.complete("everything", { type: "ref/prompt", name: "completable-prompt" }, {
        name: "department",
        value: "S"
      })
      expect(dept.values).toEqual(["Sales", "Support"])
      const names = yield* Resources.complete(
        "everything",
        { type: "ref/prompt", name: "completable-prompt" },
        { name: "name", value: "" },
        { department: "Engineering" }
      )
      expect(names.values).toEqual(["Alice", "Bob", "Charlie"])
      const id = yield* Resources.complete(
        "everything",
        { type: "ref/resource", uri: "demo://resource/dynamic/text/{resourceId}" },
        { name: "resourceId", value: "7" }
      )
      expect(id.values).toEqual(["7"])
    }))

  it.effect("reports progress of a long call through onProgress", () =>
    Effect.gen(function*() {
      const registry = yield* ToolRegistry
      const seen: Array<{ progress: number; total?: number }> = []
      const { result } = yield* registry.call(
        "mcp__everything__trigger-long-running-operation",
        // Short steps on purpose: progress read in the same chunk as the answer arrives too
        // (Progress.test.ts has the deterministic case).
        { duration: 0.3, steps: 3 },
        { onProgress: (p) => seen.push(p) }
      )
      expect(result.isError).toBeFalsy()
      expect(seen.map((p) => [p.progress, p.total])).toEqual([[1, 3], [2, 3], [3, 3]])
    }))

  it.effect("sets the server's log level and receives log notifications at or above it", () =>
    Effect.gen(function*() {
      expect(yield* Resources.setLogLevel("everything", "debug")).toBe(true)
      const registry = yield* ToolRegistry
      logs.length = 0
      yield* registry.call("mcp__everything__toggle-simulated-logging", {})
      // The first message is sent at once; wait for it.
      for (let i = 0; i < 50 && logs.length === 0; i++) yield* Effect.sleep("50 millis")
      yield* registry.call("mcp__everything__toggle-simulated-logging", {})
      expect(logs.length).toBeGreaterThan(0)
      expect(logs[0]!.server).toBe("everything")
      expect(Resources.logLevels).toContain(logs[0]!.level)
    }))
})

/**
 * A fixture shaped like server-postgres and server-puppeteer: `resources` declared and
 * `resources/list` answered, while `resources/templates/list` and the prompts methods get the
 * SDK's own -32601 Method not found (no handler is registered for them).
 */
const withoutTemplates = () => {
  const server = new Server({ name: "pg", version: "1" }, { capabilities: { resources: {}, prompts: {} } })
  server.setRequestHandler("resources/list", () => ({
    resources: [{ uri: "postgres://db/users/schema", name: "users table schema" }]
  }))
  return server
}

layer(
  Host.layer({
    config: Fixtures.staticConfig({ servers: { pg: { command: "in-memory" } } }),
    transport: InMemory.layer({ pg: withoutTemplates })
  })
)("a server without resources/templates/list", (it) => {
  it.effect("keeps its resources: a method it does not implement is an empty list, not a failed server", () =>
    Effect.gen(function*() {
      const all = yield* Resources.listAllResources()
      expect(all.resources.map((r) => r.uri)).toEqual(["postgres://db/users/schema"])
      expect(all.templates).toEqual([])
      expect(all.errors).toEqual([])
      expect(yield* Resources.listAllPrompts()).toEqual({ prompts: [], errors: [] })
    }))
})
