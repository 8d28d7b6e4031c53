/**
 * What checking a result against a schema will cost, estimated before it runs, so small work runs
 * on the main thread (no worker round trip per call) and anything a server could make expensive
 * runs in the validation worker (`workers.ts`). Both estimates are bounded walks: they stop at
 * the budget, so estimating never costs more than the inline check would.
 */
// @ts-nocheck


/** Above this many schema nodes (unfolded through `$ref`), the check goes to the worker. */
export const MAX_INLINE_SCHEMA = 2_000

/** Schema nodes × data units a check may take on the main thread (a few ms of Ajv at most). */
export const INLINE_WORK = 200_000

/** Characters of a string that count as one data unit. */
const CHARS_PER_UNIT = 64

const weights = new WeakMap<object, number>()

/** A local JSON pointer (`#/$defs/a`) resolved in `root`, or undefined. */
const resolvePointer = (root: unknown, ref: string): unknown => {
  if (ref === "#") return root
  if (!ref.startsWith("#/")) return undefined
  let at: unknown = root
  for (const raw of ref.slice(2).split("/")) {
    const part = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~")
    if (typeof at !== "object" || at === null || !Object.hasOwn(at, part)) return undefined
    at = (at as Record<string, unknown>)[part]
  }
  return at
}

/**
 * The schema's size as Ajv will walk it: nodes unfolded through local `$ref`s, plus the entries
 * of `enum`, `const` and `required`. Infinity when it passes {@link MAX_INLINE_SCHEMA}, when a
 * `$ref` is recursive (work then grows with the data's depth, and with `anyOf`/`oneOf` branches
 * exponentially), or when a reference is one this walk does not follow (`$dynamicRef`,
 * `$recursiveRef`, anchors, `$id`-relative): all of those are checked in the worker.
 */
export const schemaWeight = (schema: unknown): number => {
  if (typeof schema !== "object" || schema === null) return 1
  const known = weights.get(schema)
  if (known !== undefined) return known
  let weight = 0
  const active = new Set<unknown>()
  const walk = (node: unknown, inSchema: boolean): boolean => {
    if (++weight > MAX_INLINE_SCHEMA) return false
    if (typeof node !== "object" || node === null) return true
    if (Array.isArray(node)) {
      for (const item of node) if (!walk(item, inSchema)) return false
      return true
    }
    const record = node as Record<string, unknown>
    for (const key of Object.keys(record)) {
      const value = record[key]
      if (key === "$dynamicRef" || key === "$recursiveRef") return false
      if (key === "$ref" && inSchema) {
        if (typeof value !== "string") return false
        const target = resolvePointer(schema, value)
        if (target === undefined || active.has(target)) return false
        active.add(target)
        const ok = walk(target, true)
        active.delete(target)
        if (!ok) return false
        continue
      }
      // Values, not schemas: counted by size, their `$ref` keys are data.
      const data = key === "enum" || key === "const" || key === "examples" || key === "default"
      if (!walk(value, inSchema && !data)) return false
    }
    return true
  }
  active.add(schema)
  const result = walk(schema, true) ? weight : Infinity
  weights.set(schema, result)
  return result
}

/**
 * The data's size in units (one per value, plus one per {@link CHARS_PER_UNIT} characters of a
 * string or key), counted up to `cap`: the answer is at most `cap + 1`.
 */
export const dataUnits = (data: unknown, cap: number): number => {
  let units = 0
  const stack: Array<unknown> = [data]
  while (stack.length > 0) {
    const value = stack.pop()
    units++
    if (typeof value === "string") units += Math.floor(value.length / CHARS_PER_UNIT)
    else if (Array.isArray(value)) {
      // Every item pushed is at least one unit more: past the cap, stop before pushing.
      if (units + stack.length + value.length > cap) return cap + 1
      for (let i = 0; i < value.length; i++) stack.push(value[i])
    } else if (typeof value === "object" && value !== null) {
      const keys = Object.keys(value)
      if (units + stack.length + keys.length > cap) return cap + 1
      for (const key of keys) {
        units += Math.floor(key.length / CHARS_PER_UNIT)
        stack.push((value as Record<string, unknown>)[key])
      }
    }
    if (units > cap) return cap + 1
  }
  return units
}

/** Whether checking `data` against `schema` is small enough for the main thread. */
export const runsInline = (schema: unknown, data: unknown): boolean => {
  const weight = schemaWeight(schema)
  if (!Number.isFinite(weight)) return false
  const cap = Math.floor(INLINE_WORK / Math.max(weight, 1))
  return dataUnits(data, cap) <= cap
}
