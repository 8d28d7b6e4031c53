/**
 * Permission's ports and edges that the rule tests leave out: the "always" answer written to the
 * project's local settings file (real files), Ctrl-C at the terminal prompt, the terminal
 * prompter's layer, and deny rules that are not tool rules at all.
 */
import { describe, expect, it, vi } from "@effect/vitest"
import * as Fixtures from "@mcpctl/testing/Fixtures"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as path from "node:path"
import { PassThrough } from "node:stream"
import { type PermissionRules } from "../src/config/ServerConfig.js"
import {
  askOnTerminal,
  decide,
  LOCAL_SETTINGS_FILE,
  type PermissionRequest,
  Prompter,
  RuleWriter,
  serverDenyRule
} from "../src/permission/Permission.js"
import { readJson, withDirs } from "./support/files.js"

const rules = (r: Partial<PermissionRules>): PermissionRules => ({ allow: [], ask: [], deny: [], ...r })
const request: PermissionRequest = { tool: "mcp__fs__write", server: "fs", toolName: "write", annotations: {}, args: {} }

describe("RuleWriter.layerLocalSettings", () => {
  it.effect("an 'always' answer becomes an allow rule in the project's local settings file, once", () =>
    withDirs(({ home, project }) =>
      Effect.gen(function*() {
        const writer = yield* RuleWriter
        yield* writer.allowAlways("mcp__fs__read")
        yield* writer.allowAlways("mcp__fs__list")
        yield* writer.allowAlways("mcp__fs__read")
        const file = path.join(project, LOCAL_SETTINGS_FILE)
        expect(yield* readJson(file)).toEqual({ permissions: { allow: ["mcp__fs__read", "mcp__fs__list"] } })
      }).pipe(Effect.provide(RuleWriter.layerLocalSettings.pipe(Layer.provide(Fixtures.config({ home, projectDir: project })))))
    ))
})

describe("Prompter.layerTerminal", () => {
  it.effect("asks on the terminal: an effect per request, started only when run", () =>
    Effect.gen(function*() {
      const prompter = yield* Prompter
      expect(Effect.isEffect(prompter.ask(request))).toBe(true)
    }).pipe(Effect.provide(Prompter.layerTerminal)))
})

describe("askOnTerminal and Ctrl-C", () => {
  it.live("Ctrl-C is re-raised as SIGINT on the process; the prompt closes and gives no answer", () =>
    Effect.gen(function*() {
      const killed = yield* Deferred.make<ReadonlyArray<unknown>>()
      // The process would end on a real SIGINT: the signal is recorded instead.
      const kill = vi.spyOn(process, "kill").mockImplementation(((...args: ReadonlyArray<unknown>) => {
        Deferred.unsafeDone(killed, Exit.succeed(args))
        return true
      }) as typeof process.kill)
      yield* Effect.addFinalizer(() => Effect.sync(() => kill.mockRestore()))
      const input = new PassThrough()
      const output = new PassThrough()
      const asked = yield* Deferred.make<void>()
      let shown = ""
      output.on("data", (chunk) => {
        shown += String(chunk)
        if (shown.includes("[y] once")) Deferred.unsafeDone(asked, Exit.void)
      })
      const fiber = yield* Effect.fork(askOnTerminal(request, input, output))
      yield* Deferred.await(asked)
      input.write("\x03")
      expect(yield* Deferred.await(killed)).toEqual([process.pid, "SIGINT"])
      expect(input.listenerCount("keypress")).toBe(0)
      // Closing the prompt is no "unavailable": the runtime's own shutdown ends the call.
      yield* Effect.yieldNow()
      expect(Option.isNone(yield* Fiber.poll(fiber))).toBe(true)
      yield* Fiber.interrupt(fiber)
    }).pipe(Effect.scoped))
})

describe("rules that name no tool", () => {
  it("a deny rule without the mcp__ prefix denies no tool, even with the tool's identity", () => {
    const identity = { server: "fs", tool: "write" }
    // "Read:fs" would name the server fs if its first five characters were taken for the prefix.
    expect(decide(rules({ deny: ["fs", "fs__write", "Bash", "Read:fs"] }), "mcp__fs__write", identity)).toEqual({ behavior: "ask", rule: undefined })
  })

  it("folded deny rules: a whole server, servers by prefix, a trailing separator; another server's rule is not this one's", () => {
    const identity = { server: "fs", tool: "write" }
    const deny = (rule: string) => decide(rules({ deny: [rule] }), "mcp__fs__write", identity).behavior
    expect(deny("mcp__FS")).toBe("deny")
    expect(deny("mcp__F*")).toBe("deny")
    expect(deny("mcp__FS__")).toBe("deny")
    expect(deny("mcp__FS__WR*")).toBe("deny")
    expect(deny("mcp__G*")).toBe("ask")
    // A prefix is compared whole, not by its first character; a rule with an empty server part names none.
    expect(deny("mcp__fx*")).toBe("ask")
    expect(deny("mcp__fs__r*")).toBe("ask")
    expect(deny("mcp____*")).toBe("ask")
    expect(deny("mcp__fsx")).toBe("ask")
    expect(deny("mcp__other__write")).toBe("ask")
    expect(deny("mcp__other__")).toBe("ask")
  })

  it("a server is covered by its rule, folded, by a prefix wildcard, and by its tools' wildcard; not by one tool's rule", () => {
    const covers = (rule: string) => serverDenyRule(rules({ deny: [rule] }), "fs")
    for (const rule of ["mcp__FS", "mcp__f*", "mcp__*", "mcp__fs__*", "mcp__Fs__"]) expect(covers(rule)).toBe(rule)
    for (const rule of ["mcp__fs__read", "mcp__fs__r*", "mcp__g*", "mcp__other", "mcp__fsx", "mcp__other__*"]) expect(covers(rule)).toBeUndefined()
  })

  it("nor does it cover a server; '*' covers every one", () => {
    expect(serverDenyRule(rules({ deny: ["fs", "Bash", "fs__*", "Read:fs"] }), "fs")).toBeUndefined()
    expect(serverDenyRule(rules({ deny: ["Bash", "*"] }), "fs")).toBe("*")
  })
})
