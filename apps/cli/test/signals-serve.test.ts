/**
 * Which commands end their servers at the first signal (Signals.endsServersOnSignal): all but
 * `serve`, whose first SIGTERM is a drain during which its servers still answer calls in flight.
 */
import { describe, expect, it } from "@effect/vitest"
import { endsServersOnSignal } from "../src/Signals.js"

describe("endsServersOnSignal", () => {
  it("every command but serve ends its servers at the first signal", () => {
    expect(endsServersOnSignal(["servers", "--json"])).toBe(true)
    expect(endsServersOnSignal(["call", "mcp__a__b", "x=serve"])).toBe(true)
    expect(endsServersOnSignal(["tools", "serve"])).toBe(true)
    expect(endsServersOnSignal([])).toBe(true)
    expect(endsServersOnSignal(["serve", "--http", "0"])).toBe(false)
    expect(endsServersOnSignal(["--json", "serve"])).toBe(false)
  })
})
