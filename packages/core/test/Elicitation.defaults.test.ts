/**
 * `--yes` (Elicitation.layerDefaults) against a server that asks again on a decline: a required
 * field with no default ends the call at the first round, with a message naming the field,
 * instead of declining until the round limit. Real SDK v2 server over stdio, both eras.
 */
import { describe, expect, it } from "@effect/vitest"
import { nodeServer, server, v2InsistServer } from "@mcpctl/testing/Fixtures"
import { Elicitation, requiredWithoutDefault, UnanswerableForm } from "@mcpctl/core/Elicitation"
import * as Effect from "effect/Effect"
import { call, hostWith, textOf } from "./support/sdkHost.js"

/**
 * What a call that could not finish said: the SDK reports a failed input round either as a
 * rejected request or as an `isError` result, depending on the path; both must end the call.
 */
const failureText = (name: string) =>
  Effect.map(Effect.either(call(name)), (outcome) => {
    if (outcome._tag === "Left") return outcome.left.message
    expect(outcome.right.result.isError).toBe(true)
    return textOf(outcome.right.result)
  })

describe("requiredWithoutDefault (pure)", () => {
  it("names the required fields that have no default", () => {
    expect(requiredWithoutDefault({
      properties: { a: { type: "string" }, b: { type: "string", default: "x" }, c: { type: "number" } },
      required: ["a", "b"]
    })).toEqual(["a"])
    expect(requiredWithoutDefault({ properties: { a: { type: "string" } } })).toEqual([])
  })

  it("the error message names the field and its title", () => {
    const e = new UnanswerableForm({
      server: "s",
      fields: ["name"],
      schema: { properties: { name: { type: "string", title: "Your name" } }, required: ["name"] }
    })
    expect(e._tag).toBe("UnanswerableForm")
    expect(e.message).toContain(`"name" (Your name)`)
    expect(e.message).toContain("--yes")
  })
})

describe("--yes and a required field without a default", () => {
  it.live("2026-07-28: the call ends at the first round, naming the field; the server ran greet once", () =>
    Effect.gen(function*() {
      const said = yield* failureText("mcp__insist__greet")
      expect(said).toContain(`"name" (Your name)`)
      expect(said).not.toMatch(/more times than allowed|after 8 rounds/)
      const { result } = yield* call("mcp__insist__rounds")
      expect(textOf(result)).toBe("1")
    }).pipe(Effect.provide(hostWith([nodeServer("insist", v2InsistServer)], Elicitation.layerDefaults))), 60_000)

  it.live("declining (no --yes, no terminal) is unchanged: the server asks again up to the round limit", () =>
    Effect.gen(function*() {
      const said = yield* failureText("mcp__insist__greet")
      expect(said).toMatch(/more times than allowed|after 8 rounds/)
      const { result } = yield* call("mcp__insist__rounds")
      expect(Number(textOf(result))).toBeGreaterThan(1)
    }).pipe(Effect.provide(hostWith([nodeServer("insist", v2InsistServer)], Elicitation.layerDecline))), 60_000)

  it.live("2025 era: the server's elicitation/create gets the error, and greet is not asked again", () =>
    Effect.gen(function*() {
      const said = yield* failureText("mcp__old__greet")
      expect(said).toContain("name")
      const { result } = yield* call("mcp__old__rounds")
      expect(textOf(result)).toBe("1")
    }).pipe(Effect.provide(hostWith(
      [server("old", { command: process.execPath, args: [v2InsistServer], protocol: "legacy" })],
      Elicitation.layerDefaults
    ))), 60_000)
})
