/**
 * What serve passes between its client and its servers (pool/InputRelay.ts, gateway/GatewayRelay.ts):
 * the relay chosen from the client's capabilities, the params a relayed request adds, results
 * cleaned of the server's own envelope, the names of `--names upstream`, and what a refused call
 * tells the client. The whole path runs in conformance-serve.test.ts (the protocol's server suite).
 */
import { describe, expect, it } from "@effect/vitest"
import { CLIENT_CAPABILITIES_KEY, isInputRequired, relayFor, relayParams, requestCapabilities } from "../src/internal/pool/InputRelay.js"
import { TASKS_EXTENSION } from "../src/internal/pool/hostClient.js"
import { askerOf, asOurs, refusalMessage, relayOf } from "../src/internal/gateway/GatewayRelay.js"
import { servesUpstreamNames } from "../src/gateway/Gateway.js"
import { indexPrompts, upstreamPromptName } from "../src/internal/gateway/GatewayCatalog.js"

describe("relay", () => {
  it("relays only for a client that can answer something, with its capabilities as declared", () => {
    expect(relayFor(undefined)).toBeUndefined()
    expect(relayFor({ experimental: {} })).toBeUndefined()
    expect(relayFor({ sampling: {}, experimental: {} })).toEqual({ capabilities: { sampling: {} } })
    expect(relayFor({ elicitation: { form: {} } }, { inputResponses: { q: { action: "accept" } }, requestState: " s " })).toEqual({
      capabilities: { elicitation: { form: {} } },
      inputResponses: { q: { action: "accept" } },
      requestState: " s "
    })
  })

  it("sends the round on as it came, and the request's capabilities in the modern envelope only", () => {
    const state = ` {"step":"two","note":"\\u0000 \u2028 𝄞"} `
    const relay = relayFor({ roots: {} }, { inputResponses: { r: { roots: [] } }, requestState: state })
    const capabilities = requestCapabilities({}, relay, undefined)
    expect(relayParams("modern", relay, capabilities)).toEqual({
      inputResponses: { r: { roots: [] } },
      requestState: state,
      _meta: { [CLIENT_CAPABILITIES_KEY]: { roots: {} } }
    })
    expect(relayParams("legacy", relay, capabilities)).toEqual({ inputResponses: { r: { roots: [] } }, requestState: state })
    expect((relayParams("legacy", relay, capabilities) as { requestState: string }).requestState).toBe(state)
    expect(relayParams("modern", undefined, undefined)).toEqual({})
    // No relay, but the client's own tasks negotiation: the envelope alone.
    expect(relayParams("modern", undefined, { elicitation: {} })).toEqual({ _meta: { [CLIENT_CAPABILITIES_KEY]: { elicitation: {} } } })
    expect(relayParams("legacy", undefined, { elicitation: {} })).toEqual({})
  })

  it("declares per request the connection's capabilities, with the client's answering and tasks negotiation in place of the pool's", () => {
    const pool = { elicitation: { form: {}, url: {} }, extensions: { [TASKS_EXTENSION]: {}, "x/other": { a: 1 } } }
    // Nothing of the request's own: the SDK sends the connection's.
    expect(requestCapabilities(pool, undefined, undefined)).toBeUndefined()
    // A client that did not negotiate tasks: the server must not see the pool's declaration.
    expect(requestCapabilities(pool, undefined, false)).toEqual({ elicitation: { form: {}, url: {} }, extensions: { "x/other": { a: 1 } } })
    expect(requestCapabilities({ extensions: { [TASKS_EXTENSION]: {} } }, undefined, false)).toEqual({})
    // One that did: declared even where the pool did not.
    expect(requestCapabilities({}, undefined, true)).toEqual({ extensions: { [TASKS_EXTENSION]: {} } })
    expect(requestCapabilities(pool, undefined, true)).toEqual(pool)
    // A relay: the client's ways of answering replace the host's; the extensions stay the connection's.
    const relay = relayFor({ sampling: {} })
    expect(requestCapabilities(pool, relay, undefined)).toEqual({ sampling: {}, extensions: pool.extensions })
    expect(requestCapabilities(pool, relay, false)).toEqual({ sampling: {}, extensions: { "x/other": { a: 1 } } })
    expect(requestCapabilities({ elicitation: {} }, relay, true)).toEqual({ sampling: {}, extensions: { [TASKS_EXTENSION]: {} } })
  })

  it("reads the capabilities from the request's envelope (2026-07-28), else from initialize", () => {
    const modern = { envelope: { [CLIENT_CAPABILITIES_KEY]: { sampling: {} } }, requestState: () => "x", elicitInput: () => Promise.reject() }
    expect(relayOf(modern, { elicitation: {} })).toEqual({ capabilities: { sampling: {} }, requestState: "x" })
    const legacy = { requestState: () => undefined, elicitInput: () => Promise.reject() }
    expect(relayOf(legacy, { elicitation: {} })).toEqual({ capabilities: { elicitation: {} } })
    expect(relayOf(legacy, {})).toBeUndefined()
  })

  it("asks a 2025-era client that declared elicitation, in the modes it declared; never a 2026-07-28 one", async () => {
    const asked: Array<unknown> = []
    const legacy = { requestState: () => undefined, elicitInput: (p: never) => (asked.push(p), Promise.resolve({ action: "accept" as const })) }
    expect(askerOf(legacy, {})).toBeUndefined()
    expect(askerOf({ ...legacy, envelope: { [CLIENT_CAPABILITIES_KEY]: { elicitation: {} } } }, { elicitation: {} })).toBeUndefined()
    const formOnly = askerOf(legacy, { elicitation: {} })!
    expect(await formOnly({ message: "m", requestedSchema: { type: "object", properties: {} } })).toEqual({ action: "accept" })
    expect(await formOnly({ mode: "url", message: "m", url: "https://x.test", elicitationId: "1" })).toEqual({ action: "decline" })
    expect(asked).toHaveLength(1)
  })

  it("tells an input_required answer from a result", () => {
    expect(isInputRequired({ resultType: "input_required", inputRequests: {} })).toBe(true)
    expect(isInputRequired({ resultType: "complete", content: [] })).toBe(false)
    expect(isInputRequired({ content: [] })).toBe(false)
  })
})

describe("results as serve's own", () => {
  it("drops the server's serverInfo and the default resultType, keeps every other _meta key and field", () => {
    const theirs = {
      content: [{ type: "text", text: "t" }],
      resultType: "complete",
      icons: [{ src: "https://x.test/i.png" }],
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "upstream", version: "1" }, "vendor/key": 1 }
    }
    expect(asOurs(theirs)).toEqual({ content: [{ type: "text", text: "t" }], icons: [{ src: "https://x.test/i.png" }], _meta: { "vendor/key": 1 } })
    expect(asOurs({ resultType: "input_required", requestState: "s", _meta: { "io.modelcontextprotocol/serverInfo": {} } }))
      .toEqual({ resultType: "input_required", requestState: "s" })
  })
})

describe("--names upstream", () => {
  it("applies with exactly one enabled server; with several the prefixed names stay", () => {
    expect(servesUpstreamNames({ names: "upstream" }, 1)).toBe(true)
    expect(servesUpstreamNames({ names: "upstream" }, 2)).toBe(false)
    expect(servesUpstreamNames({}, 1)).toBe(false)
  })

  it("indexes prompts under the server's own names", () => {
    const prompts = [{ server: "ref", name: "greet" }]
    expect([...indexPrompts(prompts, () => false).keys()]).toEqual(["ref__greet"])
    expect([...indexPrompts(prompts, () => false, upstreamPromptName).keys()]).toEqual(["greet"])
  })
})

describe("what a refused call tells serve's client", () => {
  const local = "/home/u/project/.mcpctl/settings.local.json"
  it("a hidden or unknown tool: only that it is not offered", () => {
    const hidden = { _tag: "UsageError", message: "mcp__a__secret is hidden by excludeTools (\"secret*\") in /home/u/.mcpctl/settings.json." }
    const message = refusalMessage("secret", hidden, local)
    expect(message).toBe("secret is not offered by this server.")
    expect(message).not.toMatch(/excludeTools|settings\.json|secret\*/)
  })

  it("an ask nobody can answer: serve --yes or an allow rule in the local settings file, by absolute path", () => {
    const ask = { _tag: "PermissionDenied", behavior: "ask", rule: "mcp__a__edit", message: "mcp__a__edit needs approval: run on a terminal, pass --yes, or …" }
    const message = refusalMessage("mcp__a__edit", ask, local)
    expect(message).toContain("start serve with --yes")
    expect(message).toContain(`"mcp__a__edit" to permissions.allow in ${local}`)
    expect(message).not.toContain("run on a terminal")
    // --names upstream: the client's name is the server's, the rule to add the qualified one.
    expect(refusalMessage("edit", ask, local)).toContain(`"mcp__a__edit" to permissions.allow in ${local}`)
  })

  it("an ask rule that asked is told by the error's askRule, whatever its message says", () => {
    const rule = { _tag: "PermissionDenied", behavior: "ask", rule: "mcp__a", askRule: "mcp__a", message: "anything" }
    expect(refusalMessage("mcp__a__edit", rule, local)).toBe(
      `mcp__a__edit needs approval (an ask rule "mcp__a" asks for it), and mcpctl serve cannot ask anyone: start serve with --yes, or remove that ask rule`
    )
    // An ask rule naming exactly the tool: an allow rule would not help either.
    const exact = { ...rule, rule: "mcp__a__edit", askRule: "mcp__a__edit" }
    expect(refusalMessage("mcp__a__edit", exact, local)).toContain("remove that ask rule")
    expect(refusalMessage("mcp__a__edit", exact, local)).not.toContain("permissions.allow")
    // Our own message text no longer decides: one that names permissions.ask but has no askRule.
    const worded = { _tag: "PermissionDenied", behavior: "ask", rule: "mcp__a", message: "… in permissions.ask of x" }
    expect(refusalMessage("mcp__a__edit", worded, local)).toContain(`"mcp__a" to permissions.allow in ${local}`)
  })

  it("a denial keeps its message", () => {
    expect(refusalMessage("t", { _tag: "PermissionDenied", behavior: "deny", message: "t is denied" }, local)).toBe("t is denied")
  })
})
