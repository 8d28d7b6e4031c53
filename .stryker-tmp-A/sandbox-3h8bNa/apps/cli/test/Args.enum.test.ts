// @ts-nocheck
// key=value arguments against an `enum`: checked before the call, like numbers and booleans.
import { describe, expect, it } from "@effect/vitest"
import { UsageError } from "@mcpctl/core/Errors"
import * as Either from "effect/Either"
import { buildArguments, coerceValue } from "../src/Args.js"

const languages = { type: "string", enum: ["python", "typescript", "rust"] }

describe("enum arguments", () => {
  it("a listed value passes, typed as the schema says", () => {
    expect(coerceValue("languageId", "rust", languages)).toEqual(Either.right("rust"))
    expect(coerceValue("level", "2", { type: "integer", enum: [1, 2, 3] })).toEqual(Either.right(2))
    expect(coerceValue("mode", "1", { enum: ["1", "2"] })).toEqual(Either.right("1"))
    expect(coerceValue("n", "null", { enum: [null, 1] })).toEqual(Either.right(null))
  })

  it("a value not listed is a usage error (exit 2) naming the key and every allowed value", () => {
    const r = coerceValue("languageId", "cobol", languages)
    expect(Either.isLeft(r)).toBe(true)
    const error = (r as Either.Left<UsageError, unknown>).left
    expect(error).toBeInstanceOf(UsageError)
    expect(error.message).toBe(`Argument languageId=cobol: expected one of python, typescript, rust. Use --args '{"languageId": …}' for exact JSON.`)
    expect(Either.isLeft(coerceValue("level", "4", { type: "integer", enum: [1, 2, 3] }))).toBe(true)
  })

  it("through buildArguments, as a call's pairs go", () => {
    const schema = { type: "object", properties: { languageId: languages } }
    expect(Either.isLeft(buildArguments(undefined, ["languageId=cobol"], schema))).toBe(true)
    expect(buildArguments(undefined, ["languageId=python"], schema)).toEqual(Either.right({ languageId: "python" }))
  })

  it("a long list is cut short", () => {
    const many = { type: "integer", enum: Array.from({ length: 30 }, (_, i) => i) }
    const r = coerceValue("x", "99", many) as Either.Left<UsageError, unknown>
    expect(r.left.message).toContain("19, … (30 in all)")
  })
})
