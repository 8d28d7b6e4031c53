import { describe, expect, it } from "@effect/vitest"
import * as Fixtures from "@mcpctl/testing/Fixtures"
import * as Effect from "effect/Effect"
import * as Deferred from "effect/Deferred"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Queue from "effect/Queue"
import { PassThrough } from "node:stream"
import { type PermissionRules } from "../src/config/ServerConfig.js"
import { ConfigError, PermissionDenied } from "../src/Errors.js"
import {
  askOnTerminal,
  decide,
  Permission,
  type PermissionRequest,
  type PromptAnswer,
  Prompter,
  renderRequest,
  RuleWriter,
  ruleMatches
} from "../src/permission/Permission.js"

const rules = (r: Partial<PermissionRules>): PermissionRules => ({ allow: [], ask: [], deny: [], ...r })

const configLayer = (permissions: Partial<PermissionRules>) =>
  Fixtures.config({ permissions, home: Fixtures.UNUSED_HOME, projectDir: "/tmp/project" })

const request = (tool: string, args: unknown = { path: "/tmp/x" }): PermissionRequest => {
  const [, server = "", toolName = ""] = /^mcp__([^_]+)__(.*)$/.exec(tool) ?? []
  return { tool, server, toolName, annotations: { destructive: true }, args }
}

/** A Prompter that replays answers and records what it was asked. */
const scripted = (answers: ReadonlyArray<PromptAnswer>) => {
  const asked: Array<string> = []
  const queue = [...answers]
  const layer = Layer.succeed(Prompter, {
    ask: (req) =>
      Effect.sync(() => {
        asked.push(req.tool)
        const next = queue.shift()
        if (next === undefined) throw new Error(`unexpected prompt for ${req.tool}`)
        return next
      })
  })
  return { asked, layer }
}

const recordingWriter = () => {
  const written: Array<string> = []
  const layer = Layer.succeed(RuleWriter, { allowAlways: (rule) => Effect.sync(() => void written.push(rule)) })
  return { written, layer }
}

const permissionWith = (
  permissions: Partial<PermissionRules>,
  prompter: Layer.Layer<Prompter>,
  writer: Layer.Layer<RuleWriter> = RuleWriter.layerNoop
) => Permission.layer.pipe(Layer.provide(Layer.mergeAll(configLayer(permissions), prompter, writer)))

const allSuspended = (fibers: ReadonlyArray<Fiber.RuntimeFiber<unknown, unknown>>) =>
  Effect.map(Effect.forEach(fibers, (f) => f.status), (statuses) => statuses.every((s) => s._tag === "Suspended"))

const denied = (exit: Exit.Exit<void, unknown>): PermissionDenied => {
  if (Exit.isSuccess(exit)) throw new Error("expected a failure")
  const error = exit.cause._tag === "Fail" ? exit.cause.error : undefined
  expect(error).toBeInstanceOf(PermissionDenied)
  return error as PermissionDenied
}

describe("ruleMatches", () => {
  it("matches exact tool rules only exactly", () => {
    expect(ruleMatches("mcp__fs__read_file", "mcp__fs__read_file")).toBe(true)
    expect(ruleMatches("mcp__fs__read_file", "mcp__fs__read_file_2")).toBe(false)
    expect(ruleMatches("mcp__fs__read_file", "mcp__fs__read")).toBe(false)
  })

  it("server-level rule mcp__<server> matches every tool of that server and no other server", () => {
    expect(ruleMatches("mcp__fs", "mcp__fs__read_file")).toBe(true)
    expect(ruleMatches("mcp__fs", "mcp__fs__a__b")).toBe(true)
    expect(ruleMatches("mcp__fs", "mcp__fsx__read_file")).toBe(false)
    expect(ruleMatches("mcp__fs", "mcp__f__s")).toBe(false)
  })

  it("mcp__<server>__* matches every tool of that server", () => {
    expect(ruleMatches("mcp__fs__*", "mcp__fs__write_file")).toBe(true)
    expect(ruleMatches("mcp__fs__*", "mcp__fsx__write_file")).toBe(false)
  })

  it("a trailing * matches any rest of the tool name", () => {
    expect(ruleMatches("mcp__fs__read*", "mcp__fs__read_file")).toBe(true)
    expect(ruleMatches("mcp__fs__read*", "mcp__fs__read")).toBe(true)
    expect(ruleMatches("mcp__fs__read*", "mcp__fs__write_file")).toBe(false)
  })

  it("a server-level rule is a rule of the form mcp__<server> only", () => {
    expect(ruleMatches("fs", "fs__x")).toBe(false)
    expect(ruleMatches("mcp__", "mcp____x")).toBe(false)
    expect(ruleMatches("mcp__fs__read", "mcp__fs__read__x")).toBe(false)
    expect(ruleMatches("mcp__f", "mcp__f__x")).toBe(true)
  })

  it("does not treat other characters as patterns", () => {
    expect(ruleMatches("mcp__fs__read.file", "mcp__fs__read_file")).toBe(false)
    expect(ruleMatches("mcp__", "mcp__fs__x")).toBe(false)
    expect(ruleMatches("", "mcp__fs__x")).toBe(false)
  })
})

describe("decide", () => {
  const tool = "mcp__fs__write_file"
  // [allow, ask, deny] → expected behavior
  const table: ReadonlyArray<[boolean, boolean, boolean, string]> = [
    [false, false, false, "ask"],
    [true, false, false, "allow"],
    [false, true, false, "ask"],
    [false, false, true, "deny"],
    [true, true, false, "ask"],
    [true, false, true, "deny"],
    [false, true, true, "deny"],
    [true, true, true, "deny"]
  ]
  for (const [allow, ask, deny, expected] of table) {
    it(`allow=${allow} ask=${ask} deny=${deny} → ${expected}`, () => {
      const r = rules({ allow: allow ? [tool] : [], ask: ask ? ["mcp__fs"] : [], deny: deny ? ["mcp__fs__*"] : [] })
      expect(decide(r, tool).behavior).toBe(expected)
    })
  }

  it("names the deciding rule, or undefined by default", () => {
    expect(decide(rules({}), tool)).toEqual({ behavior: "ask", rule: undefined })
    expect(decide(rules({ allow: ["mcp__other", "mcp__fs"] }), tool)).toEqual({ behavior: "allow", rule: "mcp__fs" })
    expect(decide(rules({ allow: ["mcp__fs"], deny: ["mcp__fs__write*"] }), tool)).toEqual({
      behavior: "deny",
      rule: "mcp__fs__write*"
    })
    expect(decide(rules({ allow: ["mcp__fs__read_file"] }), tool)).toEqual({ behavior: "ask", rule: undefined })
  })
})

describe("Permission", () => {
  it.effect("allow rule: no prompt", () => {
    const p = scripted([])
    return Effect.gen(function*() {
      const permission = yield* Permission
      yield* permission.authorize(request("mcp__fs__read_file"))
      expect(p.asked).toEqual([])
      expect(permission.decide("mcp__fs__read_file")).toEqual({ behavior: "allow", rule: "mcp__fs__read*" })
    }).pipe(Effect.provide(permissionWith({ allow: ["mcp__fs__read*"] }, p.layer)))
  })

  it.effect("deny rule: fails naming the rule, without prompting", () => {
    const p = scripted([])
    return Effect.gen(function*() {
      const exit = yield* Effect.exit((yield* Permission).authorize(request("mcp__fs__write_file")))
      const error = denied(exit)
      expect(error.behavior).toBe("deny")
      expect(error.rule).toBe("mcp__fs__write_file")
      expect(error.tool).toBe("mcp__fs__write_file")
      expect(error.message).toBe(
        `mcp__fs__write_file is denied by rule "mcp__fs__write_file" in permissions.deny of your settings; remove that rule to allow it`
      )
      expect(p.asked).toEqual([])
    }).pipe(Effect.provide(permissionWith({ allow: ["mcp__fs"], deny: ["mcp__fs__write_file"] }, p.layer)))
  })

  it.effect("ask → once: runs, and asks again next time", () => {
    const p = scripted(["once", "once"])
    const w = recordingWriter()
    return Effect.gen(function*() {
      const permission = yield* Permission
      yield* permission.authorize(request("mcp__fs__write_file"))
      yield* permission.authorize(request("mcp__fs__write_file"))
      expect(p.asked).toEqual(["mcp__fs__write_file", "mcp__fs__write_file"])
      expect(w.written).toEqual([])
    }).pipe(Effect.provide(permissionWith({}, p.layer, w.layer)))
  })

  it.effect("ask → always: writes the exact name once, and does not ask again", () => {
    const p = scripted(["always"])
    const w = recordingWriter()
    return Effect.gen(function*() {
      const permission = yield* Permission
      expect(permission.decide("mcp__fs__write_file").behavior).toBe("ask")
      yield* permission.authorize(request("mcp__fs__write_file"))
      yield* permission.authorize(request("mcp__fs__write_file"))
      yield* permission.authorize(request("mcp__fs__write_file"))
      expect(w.written).toEqual(["mcp__fs__write_file"])
      expect(p.asked).toEqual(["mcp__fs__write_file"])
      expect(permission.decide("mcp__fs__write_file").behavior).toBe("allow")
    }).pipe(Effect.provide(permissionWith({}, p.layer, w.layer)))
  })

  it.effect("always under an explicit ask rule approves for the session without writing a rule that could not win", () => {
    const p = scripted(["always"])
    const w = recordingWriter()
    return Effect.gen(function*() {
      const permission = yield* Permission
      yield* permission.authorize(request("mcp__fs__write_file"))
      yield* permission.authorize(request("mcp__fs__write_file"))
      expect(p.asked).toEqual(["mcp__fs__write_file"])
      expect(w.written).toEqual([])
    }).pipe(Effect.provide(permissionWith({ ask: ["mcp__fs__write_*"] }, p.layer, w.layer)))
  })

  it.effect("always only covers the tool approved, not its siblings", () => {
    const p = scripted(["always", "no"])
    return Effect.gen(function*() {
      const permission = yield* Permission
      yield* permission.authorize(request("mcp__fs__write_file"))
      const exit = yield* Effect.exit(permission.authorize(request("mcp__fs__delete_file")))
      expect(denied(exit).behavior).toBe("ask")
      expect(p.asked).toEqual(["mcp__fs__write_file", "mcp__fs__delete_file"])
    }).pipe(Effect.provide(permissionWith({}, p.layer)))
  })

  it.effect("concurrent asks for one tool prompt once when the answer is always", () => {
    const p = scripted(["always"])
    const w = recordingWriter()
    return Effect.gen(function*() {
      const permission = yield* Permission
      yield* Effect.all(
        Array.from({ length: 5 }, () => permission.authorize(request("mcp__fs__write_file"))),
        { concurrency: "unbounded" }
      )
      expect(p.asked).toEqual(["mcp__fs__write_file"])
      expect(w.written).toEqual(["mcp__fs__write_file"])
    }).pipe(Effect.provide(permissionWith({}, p.layer, w.layer)))
  })

  it.effect("calls waiting for the prompt see the first one's always and are not asked again", () => {
    const asked: Array<string> = []
    return Effect.gen(function*() {
      const gate = yield* Deferred.make<void>()
      const prompter = Layer.succeed(Prompter, {
        ask: (req) => Effect.sync(() => void asked.push(req.tool)).pipe(Effect.zipRight(Deferred.await(gate)), Effect.as("always" as const))
      })
      yield* Effect.gen(function*() {
        const permission = yield* Permission
        const fibers = yield* Effect.forEach(
          Array.from({ length: 4 }, () => request("mcp__fs__write_file")),
          (r) => Effect.fork(permission.authorize(r))
        )
        // Every call has decided "ask" and waits: the first on the person, the others on the prompt lock.
        for (let i = 0; i < 1_000 && !(yield* allSuspended(fibers)); i++) yield* Effect.yieldNow()
        expect(asked).toEqual(["mcp__fs__write_file"])
        yield* Deferred.succeed(gate, undefined)
        yield* Fiber.joinAll(fibers)
        expect(asked).toEqual(["mcp__fs__write_file"])
      }).pipe(Effect.provide(permissionWith({}, prompter)))
    })
  })

  it.effect("an answer the port does not know denies, it never approves", () => {
    const p = scripted(["" as PromptAnswer])
    return Effect.gen(function*() {
      const permission = yield* Permission
      const exit = yield* Effect.exit(permission.authorize(request("mcp__fs__write_file")))
      expect(exit).toStrictEqual(Exit.fail(expect.any(PermissionDenied)))
    }).pipe(Effect.provide(permissionWith({}, p.layer)))
  })

  it.effect("a failing RuleWriter fails the call with ConfigError and does not remember", () => {
    const p = scripted(["always", "once"])
    const failing = Layer.succeed(RuleWriter, {
      allowAlways: () => new ConfigError({ message: "cannot write", file: ".mcpctl/settings.local.json" })
    })
    return Effect.gen(function*() {
      const permission = yield* Permission
      const exit = yield* Effect.exit(permission.authorize(request("mcp__fs__write_file")))
      expect(Exit.isFailure(exit) && exit.cause._tag === "Fail" && exit.cause.error._tag).toBe("ConfigError")
      yield* permission.authorize(request("mcp__fs__write_file"))
      expect(p.asked.length).toBe(2)
    }).pipe(Effect.provide(permissionWith({}, p.layer, failing)))
  })

  it.effect("ask → no: PermissionDenied with behavior ask", () => {
    const p = scripted(["no"])
    return Effect.gen(function*() {
      const exit = yield* Effect.exit((yield* Permission).authorize(request("mcp__fs__write_file")))
      const error = denied(exit)
      expect(error.behavior).toBe("ask")
      expect(error.tool).toBe("mcp__fs__write_file")
      expect(error.rule).toBe("mcp__fs__write_file")
      expect(error.askRule).toBeUndefined()
      expect(error.message).toBe(
        `mcp__fs__write_file was not approved. To allow it without asking, add "mcp__fs__write_file" to permissions.allow in .mcpctl/settings.local.json`
      )
    }).pipe(Effect.provide(permissionWith({}, p.layer)))
  })

  it.effect("ask → no under an explicit ask rule: the message names that rule, not an allow rule that could not help", () => {
    const p = scripted(["no"])
    return Effect.gen(function*() {
      const error = denied(yield* Effect.exit((yield* Permission).authorize(request("mcp__fs__write_file"))))
      expect(error).toMatchObject({ behavior: "ask", tool: "mcp__fs__write_file", askRule: "mcp__fs__write*" })
      expect(error.message).toBe(
        `mcp__fs__write_file was not approved. Rule "mcp__fs__write*" in permissions.ask of your settings asks for it; ` +
          `remove that rule to run it without asking`
      )
    }).pipe(Effect.provide(permissionWith({ ask: ["mcp__fs__write*"] }, p.layer)))
  })

  it.effect("explicit ask rule beats allow: prompts even though an allow rule matches", () => {
    const p = scripted(["once"])
    return Effect.gen(function*() {
      yield* (yield* Permission).authorize(request("mcp__fs__write_file"))
      expect(p.asked).toEqual(["mcp__fs__write_file"])
    }).pipe(Effect.provide(permissionWith({ allow: ["mcp__fs__write_file"], ask: ["mcp__fs__write*"] }, p.layer)))
  })

  it.effect("layerYes approves asks", () =>
    Effect.gen(function*() {
      yield* (yield* Permission).authorize(request("mcp__fs__write_file"))
    }).pipe(Effect.provide(permissionWith({ ask: ["mcp__fs"] }, Prompter.layerYes))))

  it.effect("layerYes cannot override deny", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit((yield* Permission).authorize(request("mcp__fs__write_file")))
      const error = denied(exit)
      expect(error.behavior).toBe("deny")
      expect(error.rule).toBe("mcp__fs")
    }).pipe(Effect.provide(permissionWith({ allow: ["mcp__fs__write_file"], deny: ["mcp__fs"] }, Prompter.layerYes))))

  it.effect("layerNone: fails naming the rule to add", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit((yield* Permission).authorize(request("mcp__x__y")))
      const error = denied(exit)
      expect(error.behavior).toBe("ask")
      expect(error.rule).toBe("mcp__x__y")
      // No ask rule asked: the tool is simply not allowed (serve reads this field, not the message).
      expect(error.askRule).toBeUndefined()
      expect(error.message).toBe(
        `mcp__x__y needs approval: run on a terminal, pass --yes, or add "mcp__x__y" to permissions.allow in .mcpctl/settings.local.json`
      )
    }).pipe(Effect.provide(permissionWith({}, Prompter.layerNone))))

  it.effect("layerNone with an explicit ask rule names that rule (an allow rule would not help)", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit((yield* Permission).authorize(request("mcp__x__y")))
      const error = denied(exit)
      expect(error.behavior).toBe("ask")
      expect(error.rule).toBe("mcp__x")
      expect(error.askRule).toBe("mcp__x")
      expect(error.message).toBe(
        `mcp__x__y needs approval (rule "mcp__x" in permissions.ask of your settings): run on a terminal or pass --yes, or remove that ask rule`
      )
      expect(error.tool).toBe("mcp__x__y")
    }).pipe(Effect.provide(permissionWith({ ask: ["mcp__x"] }, Prompter.layerNone))))

  it.effect("layerAllowAll allows without any config", () =>
    Effect.gen(function*() {
      const permission = yield* Permission
      yield* permission.authorize(request("mcp__x__y"))
      expect(permission.decide("mcp__x__y").behavior).toBe("allow")
    }).pipe(Effect.provide(Permission.layerAllowAll)))
})

describe("renderRequest", () => {
  it("shows tool, server, annotations and arguments, escaping control characters", () => {
    const text = renderRequest({
      tool: "mcp__fs__write_file",
      server: "fs",
      toolName: "write_file",
      annotations: { destructive: true, openWorld: true, title: "Write\u001b[2J a file" },
      args: { path: "/tmp/x", content: "hi" }
    })
    expect(text).toContain("mcp__fs__write_file")
    expect(text).toContain("server:      fs")
    expect(text).toContain("destructive, open-world")
    expect(text).toContain(`"path": "/tmp/x"`)
    expect(text).not.toContain("\u001b")
    expect(text).toContain("\\x1b[2J")
  })

  it("cuts huge arguments with a note", () => {
    const text = renderRequest({
      tool: "mcp__fs__write_file",
      server: "fs",
      toolName: "write_file",
      annotations: {},
      args: { content: "x".repeat(100_000) }
    })
    expect(text.length).toBeLessThan(6000)
    expect(text).toMatch(/more characters not shown/)
    expect(text).toContain("annotations: none")
  })
})

describe("renderRequest, exactly", () => {
  const base = { tool: "mcp__fs__read_file", server: "fs", toolName: "read_file" }

  it("lays out tool, server, title, traits and indented arguments", () => {
    expect(renderRequest({ ...base, annotations: { readOnly: true, title: "Read a file" }, args: { path: "/x", n: 1 } })).toBe(
      [
        "Allow mcp__fs__read_file?",
        "  server:      fs",
        "  tool:        read_file (Read a file)",
        "  annotations: read-only",
        "  arguments:",
        "    {",
        `      "path": "/x",`,
        `      "n": 1`,
        "    }"
      ].join("\n")
    )
    expect(renderRequest({ ...base, annotations: { readOnly: true, destructive: true, openWorld: true }, args: undefined }))
      .toBe(
        [
          "Allow mcp__fs__read_file?",
          "  server:      fs",
          "  tool:        read_file",
          "  annotations: read-only, destructive, open-world",
          "  arguments:",
          "    {}"
        ].join("\n")
      )
  })

  it("shows only traits that are true", () => {
    const text = renderRequest({ ...base, annotations: { readOnly: false, destructive: false, openWorld: false }, args: {} })
    expect(text).toContain("  annotations: none\n")
  })

  it("escapes control characters but keeps tabs and newlines", () => {
    const shown = (s: string) => renderRequest({ ...base, annotations: {}, args: s }).split("\n").slice(5).join("\n")
    // JSON.stringify escapes control characters in strings, so feed them through the tool name instead.
    const name = (s: string) => renderRequest({ ...base, toolName: s, annotations: {}, args: {} }).split("\n")[2]
    expect(name("a\u0000b\u0008c")).toBe("  tool:        a\\x00b\\x08c")
    expect(name("a\tb")).toBe("  tool:        a\tb")
    expect(name("a\u000bb\u001fc d~")).toBe("  tool:        a\\x0bb\\x1fc d~")
    expect(name("\u007f\u0080\u009f\u00a0é")).toBe("  tool:        \\x7f\\x80\\x9f\u00a0é")
    expect(renderRequest({ ...base, server: "f\u001bs", annotations: { title: "t\u001b" }, args: {} })).toContain(
      "  server:      f\\x1bs"
    )
    expect(renderRequest({ ...base, tool: "x\u001by", annotations: {}, args: {} }).split("\n")[0]).toBe("Allow x\\x1by?")
    expect(shown("plain")).toBe(`    "plain"`)
  })

  it("shows arguments JSON cannot show as their string form", () => {
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    const text = (args: unknown) => renderRequest({ ...base, annotations: {}, args }).split("\n").slice(5).join("\n")
    expect(text(cyclic)).toBe("    [object Object]")
    expect(text(10n)).toBe("    10")
    expect(text(() => 1)).toBe("    () => 1")
  })

  it("cuts arguments past 60 lines or 4,000 characters, saying how many characters are hidden", () => {
    const text = (args: unknown) => renderRequest({ ...base, annotations: {}, args }).split("\n").slice(5)
    const sixty = Array.from({ length: 58 }, (_, i) => i)
    // [ + 58 items + ] = 60 lines: shown whole.
    expect(text(sixty)).toHaveLength(60)
    expect(text(sixty).join("\n")).not.toContain("not shown")
    const json = JSON.stringify([...sixty, 58], null, 2)
    const cut = text([...sixty, 58])
    expect(cut).toHaveLength(61)
    const kept = json.split("\n").slice(0, 60).join("\n")
    expect(cut.at(-1)).toBe(`    … (${json.length - kept.length} more characters not shown)`)
    const long = "y".repeat(3_990)
    expect(text(long).join("\n")).toBe(`    ${JSON.stringify(long)}`)
    const longer = "y".repeat(4_100)
    expect(text(longer)).toEqual([`    ${JSON.stringify(longer).slice(0, 4_000)}`, `    … (${4_102 - 4_000} more characters not shown)`])
  })
})

describe("askOnTerminal", () => {
  const PROMPT = "[y] once  [a] always  [n] no > "
  const run = (typed: ReadonlyArray<string>, end: boolean) =>
    Effect.gen(function*() {
      const input = new PassThrough()
      const output = new PassThrough()
      let shown = ""
      // Each prompt the terminal shows is an event: a line is typed only once it is asked for.
      const prompts = yield* Queue.unbounded<void>()
      let seen = 0
      output.on("data", (chunk) => {
        shown += String(chunk)
        for (const asked = shown.split(PROMPT).length - 1; seen < asked; seen++) Queue.unsafeOffer(prompts, undefined)
      })
      const fiber = yield* Effect.fork(askOnTerminal(request("mcp__fs__write_file"), input, output))
      for (const line of typed) {
        yield* Queue.take(prompts)
        input.write(`${line}\n`)
      }
      if (end) {
        yield* Queue.take(prompts)
        input.end()
      }
      const answer = yield* Fiber.join(fiber)
      return { answer, shown }
    })

  it.live("maps y / a / n and asks again on nonsense", () =>
    Effect.gen(function*() {
      expect((yield* run(["y"], false)).answer).toBe("once")
      expect((yield* run(["always"], false)).answer).toBe("always")
      expect((yield* run(["n"], false)).answer).toBe("no")
      expect((yield* run([""], false)).answer).toBe("no")
      for (const [typed, answer] of [["yes", "once"], ["once", "once"], [" Y ", "once"], ["A", "always"], ["NO", "no"], ["no", "no"]]) {
        expect((yield* run([typed!], false)).answer).toBe(answer)
      }
      const retried = yield* run(["maybe", "a"], false)
      expect(retried.answer).toBe("always")
      expect(retried.shown).toContain("Please answer")
      expect(retried.shown).toContain("mcp__fs__write_file")
    }))

  it.live("an interrupted prompt closes its readline, letting go of the input", () =>
    Effect.gen(function*() {
      const input = new PassThrough()
      const output = new PassThrough()
      let shown = ""
      const asked = yield* Deferred.make<void>()
      output.on("data", (chunk) => {
        shown += String(chunk)
        if (shown.includes(PROMPT)) Deferred.unsafeDone(asked, Exit.void)
      })
      const before = input.listenerCount("keypress") + input.listenerCount("data")
      const fiber = yield* Effect.fork(askOnTerminal(request("mcp__fs__write_file"), input, output))
      yield* Deferred.await(asked)
      expect(input.listenerCount("keypress") + input.listenerCount("data")).toBeGreaterThan(before)
      yield* Fiber.interrupt(fiber)
      expect(input.listenerCount("keypress")).toBe(0)
    }))

  it.live("end of input answers unavailable", () =>
    Effect.gen(function*() {
      expect((yield* run([], true)).answer).toBe("unavailable")
    }))
})

describe("denials name the settings file that holds the rule", () => {
  const settings = (sources: PermissionRules["sources"]) =>
    Permission.layer.pipe(
      Layer.provide(Layer.mergeAll(configLayer({ deny: ["mcp__fs__write_file"], ask: ["mcp__fs__move*"], sources }), Prompter.layerNone, RuleWriter.layerNoop))
    )

  it.effect("a deny rule says which file to edit; an ask rule too", () =>
    Effect.gen(function*() {
      const permission = yield* Permission
      const denied = yield* Effect.flip(permission.authorize(request("mcp__fs__write_file")))
      expect(denied.message).toBe(
        'mcp__fs__write_file is denied by rule "mcp__fs__write_file" in permissions.deny of /p/.mcp.json; remove that rule to allow it'
      )
      const asked = yield* Effect.flip(permission.authorize(request("mcp__fs__move_file")))
      expect(asked.message).toContain('rule "mcp__fs__move*" in permissions.ask of /home/u/.mcpctl/settings.json and /p/.mcp.json')
    }).pipe(Effect.provide(settings({
      deny: { mcp__fs__write_file: ["/p/.mcp.json"] },
      ask: { "mcp__fs__move*": ["/home/u/.mcpctl/settings.json", "/p/.mcp.json"] }
    }))))

  it.effect("rules written in code have no file to name", () =>
    Effect.gen(function*() {
      const denied = yield* Effect.flip((yield* Permission).authorize(request("mcp__fs__write_file")))
      expect(denied.message).toContain("in permissions.deny of your settings")
    }).pipe(Effect.provide(settings(undefined))))
})
