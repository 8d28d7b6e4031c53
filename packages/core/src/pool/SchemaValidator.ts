/**
 * The validator the SDK `Client` checks tools' `structuredContent` with, against the tool's own
 * `outputSchema`. The SDK's default (Ajv) compiles every `pattern` into a native `RegExp` and runs
 * it synchronously on the event loop: a server that sends `"pattern": "^(a+)+$"` and a 40-character
 * answer pins the CPU for minutes, and timeouts, Ctrl-C and every other client of `serve --http`
 * wait with it. Here the same Ajv runs `pattern` and `patternProperties` with re2js, a linear-time
 * engine (RE2's semantics: no backreferences or lookaround). A pattern re2js cannot compile is not
 * evaluated (it matches everything), and so is a schema Ajv cannot compile: checking a server's
 * answer against the server's own schema is a courtesy, never worth a hang or a failed listing.
 *
 * Dialects: a schema that names JSON Schema 2020-12 or 2019-09 in `$schema` (2026-07-28's
 * default dialect is 2020-12) is checked by Ajv's engine for that draft (`prefixItems`,
 * `$defs`, `unevaluated*`), others by draft-07's. No `$ref` is ever fetched: Ajv resolves only
 * references inside the schema (no `loadSchema`), so a network `$ref` fails the compile and the
 * schema goes unchecked.
 */
import type { JsonSchemaType, jsonSchemaValidator, JsonSchemaValidator } from "@modelcontextprotocol/client"
import { Ajv } from "ajv"
import { Ajv2019 } from "ajv/dist/2019.js"
import { Ajv2020 } from "ajv/dist/2020.js"
import _addFormats from "ajv-formats"
import { RE2JS } from "re2js"

/** What Ajv needs of a regular expression engine. */
interface RegExpLike {
  test: (text: string) => boolean
}

const matchesEverything: RegExpLike = { test: () => true }

/**
 * A pattern as a linear-time matcher (JSON Schema patterns are unanchored searches, like
 * `RegExp.test`); unsupported syntax matches everything rather than failing the schema.
 */
export const linearRegExp = (pattern: string): RegExpLike => {
  try {
    const compiled = RE2JS.compile(pattern)
    return { test: (text) => compiled.matcher(text).find() }
  } catch {
    return matchesEverything
  }
}

const engine = Object.assign((pattern: string) => linearRegExp(pattern), { code: "linearRegExp" })

// ajv-formats is CommonJS: its default export arrives wrapped under some module settings.
const addFormats = ((_addFormats as unknown as { default?: unknown }).default ?? _addFormats) as unknown as (ajv: Ajv) => Ajv

const accept: JsonSchemaValidator<unknown> = (input) => ({ valid: true, data: input, errorMessage: undefined })

/**
 * A fresh validator (one per client: Ajv caches schemas by `$id`, and two servers may use the
 * same one). Options as the SDK's default, plus the linear-time engine.
 */
/** The draft a schema declares in `$schema`: 2020-12, 2019-09, or anything else (draft-07). */
const dialectOf = (schema: unknown): "2020" | "2019" | "07" => {
  const declared = typeof schema === "object" && schema !== null ? (schema as { $schema?: unknown }).$schema : undefined
  if (typeof declared !== "string") return "07"
  return declared.includes("2020-12") ? "2020" : declared.includes("2019-09") ? "2019" : "07"
}

export const makeSchemaValidator = (): jsonSchemaValidator => {
  const options = { strict: false, validateFormats: true, validateSchema: false, allErrors: true, code: { regExp: engine } } as const
  // Made on first use: most servers send draft-07-style schemas only.
  const engines = new Map<string, Ajv>()
  const ajvFor = (schema: unknown): Ajv => {
    const dialect = dialectOf(schema)
    let ajv = engines.get(dialect)
    if (ajv === undefined) {
      ajv = dialect === "2020" ? new Ajv2020(options) : dialect === "2019" ? new Ajv2019(options) : new Ajv(options)
      addFormats(ajv)
      engines.set(dialect, ajv)
    }
    return ajv
  }
  // By schema object: the pool hands the SDK the catalogue's own tool definition on every call
  // (ToolRegistry), so a tool's schema is compiled once, not once per call.
  const compiled = new WeakMap<object, JsonSchemaValidator<unknown>>()
  const compile = (schema: JsonSchemaType): JsonSchemaValidator<unknown> => {
    let validate: ReturnType<Ajv["compile"]>
    const ajv = ajvFor(schema)
    try {
      const id = (schema as { $id?: unknown }).$id
      validate = (typeof id === "string" ? ajv.getSchema(id) : undefined) ?? ajv.compile(schema)
    } catch {
      return accept
    }
    return (input) =>
      validate(input)
        ? { valid: true, data: input, errorMessage: undefined }
        : { valid: false, data: undefined, errorMessage: ajv.errorsText(validate.errors) }
  }
  return {
    getValidator: <T>(schema: JsonSchemaType): JsonSchemaValidator<T> => {
      if (typeof schema !== "object" || schema === null) return compile(schema) as JsonSchemaValidator<T>
      let validator = compiled.get(schema)
      if (validator === undefined) compiled.set(schema, validator = compile(schema))
      return validator as JsonSchemaValidator<T>
    }
  }
}
