// @ts-nocheck
import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import { buildArguments, coerceValue } from "../src/Args.js"

const schema = {
  type: "object",
  properties: {
    count: { type: "integer" },
    ratio: { type: "number" },
    flag: { type: "boolean" },
    name: { type: "string" },
    tags: { type: "array" },
    maybe: { type: ["string", "null"] }
  }
}

describe("key=value arguments", () => {
  it("coerce by the tool's input schema", () => {
    const args = buildArguments(undefined, ["count=3", "ratio=0.5", "flag=true", "name=42", 'tags=["a"]', "free=7"], schema)
    expect(args).toEqual(Either.right({ count: 3, ratio: 0.5, flag: true, name: "42", tags: ["a"], free: 7 }))
  })

  it("keep everything after the first = in the value", () => {
    expect(buildArguments(undefined, ["name=a=b"], schema)).toEqual(Either.right({ name: "a=b" }))
  })

  it("win over --args, which must be a JSON object", () => {
    expect(buildArguments('{"count": 1, "name": "x"}', ["count=2"], schema)).toEqual(Either.right({ count: 2, name: "x" }))
    expect(Either.isLeft(buildArguments("[1]", [], schema))).toBe(true)
    expect(Either.isLeft(buildArguments("{nope", [], schema))).toBe(true)
  })

  it("name the argument when a value does not fit", () => {
    const bad = buildArguments(undefined, ["count=1.5"], schema)
    expect(Either.isLeft(bad) && bad.left.message).toContain("count=1.5")
    expect(Either.isLeft(coerceValue("flag", "yes", { type: "boolean" }))).toBe(true)
    expect(Either.isLeft(buildArguments(undefined, ["novalue"], schema))).toBe(true)
  })

  it("take text for a key without a schema when it is not JSON", () => {
    expect(coerceValue("x", "hello world", undefined)).toEqual(Either.right("hello world"))
  })
})
