/**
 * Server-chosen URLs (issue 12): only safe ones are ever opened, always after a person said yes
 * on a terminal, never under `--yes` alone, and the wait for a step never outlives the call's
 * timeout.
 */
import { describe, expect, it } from "@effect/vitest"
import { checkUrlToOpen } from "@mcpctl/core/internal/auth/OAuthFlow"
import { Elicitation, onTerminal } from "@mcpctl/core/Elicitation"
import * as Host from "@mcpctl/core/Host"
import { ToolRegistry } from "@mcpctl/core/ToolRegistry"
import { Fixtures, InMemory } from "@mcpctl/testing"
import { Server, UrlElicitationRequiredError } from "@modelcontextprotocol/server"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { PassThrough } from "node:stream"

const OPTION_URL = "--renderer-cmd-prefix=touch /tmp/x"

describe("checkUrlToOpen (pure)", () => {
  it("opens https:, and http: only on loopback", () => {
    expect(checkUrlToOpen("https://pay.test/link?a=1")).toEqual({ ok: true, url: "https://pay.test/link?a=1" })
    expect(checkUrlToOpen("http://127.0.0.1:4000/cb")).toMatchObject({ ok: true })
    expect(checkUrlToOpen("http://localhost:4000/cb")).toMatchObject({ ok: true })
    expect(checkUrlToOpen("http://[::1]:4000/cb")).toMatchObject({ ok: true })
  })

  it("refuses options, script and file URLs, other schemes and remote plain http", () => {
    for (const url of [OPTION_URL, " -x", "javascript:alert(1)", "file:///etc/passwd", "vscode://x", "http://evil.test/", "data:text/html,x"]) {
      expect(checkUrlToOpen(url)).toMatchObject({ ok: false })
    }
    expect(checkUrlToOpen("https://ok.test/a b")).toMatchObject({ ok: false })
    expect(checkUrlToOpen("javascript:alert(1)")).toMatchObject({ reason: expect.stringContaining("javascript:") })
  })
})

/** A server whose `pay` tool refuses with -32042 naming `url` until the step completes. */
const payServer = (url: string) => {
  const state = { calls: 0, instance: undefined as Server | undefined }
  const factory: InMemory.ServerFactory = () => {
    const s = new Server({ name: "shop", version: "1" }, { capabilities: { tools: {} } })
    state.instance = s
    s.setRequestHandler("tools/list", () => ({ tools: [{ name: "pay", inputSchema: { type: "object", properties: {} } }] }))
    s.setRequestHandler("tools/call", async () => {
      state.calls++
      if (state.calls === 1) throw new UrlElicitationRequiredError([{ mode: "url", message: "Link", url, elicitationId: "e1" }])
      return { content: [{ type: "text", text: "paid" }] }
    })
    return s
  }
  return { state, factory }
}

const registryOf = (factory: InMemory.ServerFactory, elicitation: Layer.Layer<Elicitation>) =>
  Layer.build(Host.layer({
    config: Fixtures.staticConfig({ servers: { shop: { command: "in-memory" } }, permissions: { allow: ["mcp__shop__*"] } }),
    transport: InMemory.layer({ shop: factory }),
    elicitation
  })).pipe(Effect.map(Context.get(ToolRegistry)))

/** A terminal whose person types `answer`; what was written to it is in `written()`. */
const terminal = (answer: string) => {
  const input = new PassThrough()
  const output = new PassThrough()
  let written = ""
  let answered = false
  output.on("data", (d) => {
    written += String(d)
    // Typed once, when the question shows (the terminal echoes what is typed).
    if (!answered && written.includes("[y/N]")) {
      answered = true
      input.write(`${answer}\n`)
    }
  })
  return { input, output, written: () => written }
}

describe("URL steps of a refused call (-32042)", () => {
  it.scoped("a URL that is a browser option is never handed to the opener", () =>
    Effect.gen(function*() {
      const { factory, state } = payServer(OPTION_URL)
      const opened: Array<string> = []
      const layer = Elicitation.layerWith({
        opensRequiredUrls: true,
        answer: () => Effect.succeed({ action: "decline" }),
        openUrl: (url) => Effect.sync(() => void opened.push(url))
      })
      const registry = yield* registryOf(factory, layer)
      const error = yield* Effect.flip(registry.call("mcp__shop__pay", {}))
      expect(error).toMatchObject({ _tag: "McpRequestError" })
      expect(opened).toEqual([])
      expect(state.calls).toBe(1)
    }))

  it.scoped("on a terminal the URL is shown and opened only after an explicit yes", () =>
    Effect.gen(function*() {
      for (const [answer, opens] of [["", false], ["n", false], ["y", true]] as const) {
        const { factory, state } = payServer("https://pay.test/link")
        const tty = terminal(answer)
        const opened: Array<string> = []
        const layer = Elicitation.layerWith({
          ...onTerminal(tty.input, tty.output),
          openUrl: (url) =>
            Effect.promise(async () => {
              opened.push(url)
              await state.instance!.createElicitationCompletionNotifier("e1")()
            })
        })
        const registry = yield* registryOf(factory, layer)
        const result = yield* Effect.either(registry.call("mcp__shop__pay", {}))
        expect(tty.written()).toContain("https://pay.test/link")
        expect(opened).toEqual(opens ? ["https://pay.test/link"] : [])
        expect(result._tag).toBe(opens ? "Right" : "Left")
      }
    }))

  it.scoped("--yes without a terminal opens nothing: the refusal stands", () =>
    Effect.gen(function*() {
      const { factory, state } = payServer("https://pay.test/link")
      const registry = yield* registryOf(factory, Elicitation.layerDefaults)
      const error = yield* Effect.flip(registry.call("mcp__shop__pay", {}))
      expect(error).toMatchObject({ _tag: "McpRequestError" })
      expect(state.calls).toBe(1)
    }))

  it.live("the wait for the step ends with the call's timeout, not 120 s later", () =>
    Effect.gen(function*() {
      const { factory } = payServer("https://pay.test/link")
      // The step is opened but the server never reports it complete.
      const layer = Elicitation.layerWith({ opensRequiredUrls: true, answer: () => Effect.succeed({ action: "decline" }), openUrl: () => Effect.void })
      const registry = yield* Effect.scoped(Effect.gen(function*() {
        const registry = yield* registryOf(factory, layer)
        const started = Date.now()
        const result = yield* Effect.either(registry.call("mcp__shop__pay", {}, { timeoutMs: 300 }))
        expect(result._tag).toBe("Left")
        return Date.now() - started
      }))
      expect(registry).toBeLessThan(10_000)
    }), 20_000)
})

describe("elicitation/create in url mode", () => {
  it.effect("--yes without a terminal declines: javascript:, file: and https: alike", () =>
    Effect.gen(function*() {
      const elicitation = yield* Effect.provide(Elicitation, Elicitation.layerDefaults)
      for (const url of ["javascript:alert(1)", "file:///etc/passwd", "https://ok.test/"]) {
        const answer = yield* elicitation.answer({ mode: "url", server: "s", message: "Visit", url, elicitationId: "e" })
        expect(answer).toEqual({ action: "decline" })
      }
    }))

  it.effect("on a terminal an unsafe URL is declined without asking", () =>
    Effect.gen(function*() {
      const tty = terminal("y")
      const answer = yield* onTerminal(tty.input, tty.output).answer({
        mode: "url",
        server: "s",
        message: "Visit",
        url: "javascript:alert(1)",
        elicitationId: "e"
      })
      expect(answer).toEqual({ action: "decline" })
      expect(tty.written()).not.toContain("[y/N]")
    }))
})
