/**
 * Tool arguments from the command line: `--args JSON` and `key=value` pairs, each value coerced
 * by the tool's input schema so `count=3` sends a number and `tags=["a"]` an array.
 */
// @ts-nocheck

import { UsageError } from "@mcpctl/core/Errors"
import * as Either from "effect/Either"

type JsonSchema = {
  readonly type?: unknown
  readonly properties?: Record<string, JsonSchema>
  readonly required?: unknown
} & Record<string, unknown>

const typesOf = (schema: JsonSchema | undefined): ReadonlyArray<string> =>
  schema === undefined
    ? []
    : Array.isArray(schema.type)
    ? schema.type.filter((t): t is string => typeof t === "string")
    : typeof schema.type === "string"
    ? [schema.type]
    : []

const tryJson = (text: string): Either.Either<unknown, string> => {
  try {
    return Either.right(JSON.parse(text))
  } catch (e) {
    return Either.left((e as Error).message)
  }
}

const failure = (key: string, raw: string, what: string) =>
  Either.left(new UsageError({ message: `Argument ${key}=${raw}: ${what}. Use --args '{"${key}": …}' for exact JSON.` }))

/** Enum values as a user types them: strings bare, the rest as JSON; a long list cut short. */
const showValues = (values: ReadonlyArray<unknown>): string => {
  const shown = values.slice(0, 20).map((v) => (typeof v === "string" ? v : JSON.stringify(v))).join(", ")
  return values.length > 20 ? `${shown}, … (${values.length} in all)` : shown
}

/**
 * One value by its property schema: its type, then its `enum` when it has one (a value not listed
 * is a usage error before anything reaches the server); a value the schema cannot take is a usage
 * error naming the key.
 */
export const coerceValue = (key: string, raw: string, schema: JsonSchema | undefined): Either.Either<unknown, UsageError> =>
  Either.flatMap(coerceByType(key, raw, schema), (value) => {
    const values = schema?.enum
    if (!Array.isArray(values)) return Either.right(value)
    const same = (v: unknown) => JSON.stringify(v) === JSON.stringify(value)
    if (values.some(same)) return Either.right(value)
    // No type, and the text itself is listed (`enum: ["1", "2"]` with `x=1`).
    if (typesOf(schema).length === 0 && values.includes(raw)) return Either.right(raw)
    return failure(key, raw, `expected one of ${showValues(values)}`)
  })

const coerceByType = (key: string, raw: string, schema: JsonSchema | undefined): Either.Either<unknown, UsageError> => {
  const types = typesOf(schema)
  const fail = (what: string) => failure(key, raw, what)
  if (types.length === 0) {
    // No schema for this key: JSON when it parses (numbers, true, objects), else the text itself.
    return Either.orElse(tryJson(raw), () => Either.right(raw))
  }
  if (types.includes("string")) return Either.right(raw)
  if (types.includes("integer") || types.includes("number")) {
    const n = Number(raw)
    if (raw.trim() === "" || Number.isNaN(n)) return fail(`expected a number`)
    if (!types.includes("number") && !Number.isInteger(n)) return fail(`expected an integer`)
    return Either.right(n)
  }
  if (types.includes("boolean")) {
    if (raw === "true" || raw === "false") return Either.right(raw === "true")
    return fail(`expected true or false`)
  }
  if (types.includes("null") && raw === "null") return Either.right(null)
  return Either.mapLeft(tryJson(raw), (why) => new UsageError({ message: `Argument ${key}: expected JSON (${why}).` }))
}

/** `--args` merged with `key=value` pairs (pairs win), checked against the input schema's types. */
export const buildArguments = (
  argsJson: string | undefined,
  pairs: ReadonlyArray<string>,
  inputSchema: JsonSchema | undefined
): Either.Either<Record<string, unknown>, UsageError> => {
  let base: Record<string, unknown> = {}
  if (argsJson !== undefined) {
    const parsed = tryJson(argsJson)
    if (Either.isLeft(parsed)) {
      return Either.left(new UsageError({ message: `--args is not valid JSON: ${parsed.left}` }))
    }
    if (typeof parsed.right !== "object" || parsed.right === null || Array.isArray(parsed.right)) {
      return Either.left(new UsageError({ message: `--args must be a JSON object, like '{"path": "README.md"}'.` }))
    }
    base = { ...(parsed.right as Record<string, unknown>) }
  }
  for (const pair of pairs) {
    const eq = pair.indexOf("=")
    if (eq <= 0) {
      return Either.left(new UsageError({ message: `"${pair}" is not key=value. Example: path=README.md` }))
    }
    const key = pair.slice(0, eq)
    const value = coerceValue(key, pair.slice(eq + 1), inputSchema?.properties?.[key])
    if (Either.isLeft(value)) return Either.left(value.left)
    base[key] = value.right
  }
  return Either.right(base)
}

/** `name (type)` of one property, for messages that list arguments. */
const describeProperty = (name: string, schema: JsonSchema | undefined) => {
  const types = typesOf(schema)
  return types.length > 0 ? `${name} (${types.join(" or ")})` : name
}

/**
 * The tool's required arguments (its input schema's `required`) are all there; the error names
 * the missing ones as `key=…` to add and lists every argument the tool takes.
 */
export const checkRequired = (
  tool: string,
  args: Record<string, unknown>,
  inputSchema: JsonSchema | undefined
): Either.Either<Record<string, unknown>, UsageError> => {
  const required = Array.isArray(inputSchema?.required)
    ? inputSchema.required.filter((k): k is string => typeof k === "string")
    : []
  const missing = required.filter((k) => !(k in args))
  if (missing.length === 0) return Either.right(args)
  const properties = inputSchema?.properties ?? {}
  const all = Object.keys(properties).map((k) => `${describeProperty(k, properties[k])}${required.includes(k) ? " required" : ""}`)
  return Either.left(
    new UsageError({
      message: `${tool} needs ${missing.map((k) => `${k}=…`).join(" ")} (missing required argument${
        missing.length > 1 ? "s" : ""
      } ${missing.map((k) => describeProperty(k, properties[k])).join(", ")}). It takes: ${all.join(", ") || "no arguments"}.`
    })
  )
}
