// @ts-nocheck
// The JSON Schema engine that checks tools' `structuredContent` against their `outputSchema`, on
// the main thread (small results, `pool/SchemaValidator.ts`) and in the validation worker
// (`worker.mjs`): plain JavaScript so a worker thread loads it as it is, from the sources, the
// package's dist/ and the CLI bundle alike. Types: engine.d.mts.
//
// Ajv as the SDK's default, with what a server could make expensive taken out:
// - `pattern`/`patternProperties` run on re2js, a linear-time engine (RE2's semantics: no
//   backreferences or lookaround); a pattern re2js cannot compile matches everything.
// - `uniqueItems` compares canonical forms (keys sorted) through a Map: linear in the array's
//   size, where Ajv compares every pair with deepEqual (20,000 objects: ~30 s).
// - `enum` and `required` are loops past 200 entries (Ajv's default), not generated code.
// A schema Ajv cannot compile is not checked (checking a server's answer against the server's
// own schema is a courtesy, never worth a failed call). No `$ref` is fetched (no `loadSchema`).
import { Ajv } from "ajv"
import { Ajv2019 } from "ajv/dist/2019.js"
import { Ajv2020 } from "ajv/dist/2020.js"
import _addFormats from "ajv-formats"
import { RE2JS } from "re2js"

const matchesEverything = { test: () => true }

/** A pattern as a linear-time matcher (unanchored search, as `RegExp.test`). */
export const linearRegExp = (pattern) => {
  try {
    const compiled = RE2JS.compile(pattern)
    return { test: (text) => compiled.matcher(text).find() }
  } catch {
    return matchesEverything
  }
}

const regExpEngine = Object.assign((pattern) => linearRegExp(pattern), { code: "linearRegExp" })

// ajv-formats is CommonJS: its default export arrives wrapped under some module settings. Read
// when an engine is made, not at import: the CLI bundle loads these modules on first use.
const addFormats = (ajv) => (_addFormats.default ?? _addFormats)(ajv)

/** A value's canonical text: JSON with object keys sorted, so equal values (JSON Schema's equality) are equal texts. */
export const canonical = (value) => {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null"
  if (Array.isArray(value)) {
    let out = "["
    for (let i = 0; i < value.length; i++) out += (i > 0 ? "," : "") + canonical(value[i])
    return out + "]"
  }
  const keys = Object.keys(value).sort()
  let out = "{"
  for (let i = 0; i < keys.length; i++) out += (i > 0 ? "," : "") + JSON.stringify(keys[i]) + ":" + canonical(value[keys[i]])
  return out + "}"
}

/** `uniqueItems` in linear time; the error names the same pair Ajv's would (the later one first). */
const uniqueItems = {
  keyword: "uniqueItems",
  type: "array",
  schemaType: "boolean",
  errors: true,
  validate: function unique(schema, data) {
    if (!schema || data.length < 2) return true
    const seen = new Map()
    for (let i = data.length - 1; i >= 0; i--) {
      const key = canonical(data[i])
      const j = seen.get(key)
      if (j !== undefined) {
        unique.errors = [{
          keyword: "uniqueItems",
          message: `must NOT have duplicate items (items ## ${i} and ${j} are identical)`,
          params: { i: j, j: i }
        }]
        return false
      }
      seen.set(key, i)
    }
    return true
  }
}

/** The draft a schema declares in `$schema`: 2020-12, 2019-09, or anything else (draft-07). */
const dialectOf = (schema) => {
  const declared = typeof schema === "object" && schema !== null ? schema.$schema : undefined
  if (typeof declared !== "string") return "07"
  return declared.includes("2020-12") ? "2020" : declared.includes("2019-09") ? "2019" : "07"
}

const accept = () => ({ valid: true, errorMessage: undefined })

/**
 * A fresh engine (one per client: Ajv caches schemas by `$id`, and two servers may use the same
 * one). `compile(schema)` answers a check `(data) => { valid, errorMessage }`; a schema that
 * does not compile gives one that accepts everything.
 */
export const makeEngine = () => {
  const options = {
    strict: false,
    validateFormats: true,
    validateSchema: false,
    allErrors: true,
    loopEnum: 200,
    loopRequired: 200,
    code: { regExp: regExpEngine }
  }
  const engines = new Map()
  const ajvFor = (schema) => {
    const dialect = dialectOf(schema)
    let ajv = engines.get(dialect)
    if (ajv === undefined) {
      ajv = dialect === "2020" ? new Ajv2020(options) : dialect === "2019" ? new Ajv2019(options) : new Ajv(options)
      addFormats(ajv)
      ajv.removeKeyword("uniqueItems")
      ajv.addKeyword(uniqueItems)
      engines.set(dialect, ajv)
    }
    return ajv
  }
  return {
    compile: (schema) => {
      const ajv = ajvFor(schema)
      let validate
      try {
        const id = typeof schema === "object" && schema !== null ? schema.$id : undefined
        validate = (typeof id === "string" ? ajv.getSchema(id) : undefined) ?? ajv.compile(schema)
      } catch {
        return accept
      }
      return (data) =>
        validate(data) ? { valid: true, errorMessage: undefined } : { valid: false, errorMessage: ajv.errorsText(validate.errors) }
    }
  }
}
