/**
 * What comes back from a server must be safe to hand to a model or a terminal: bounded by the
 * output budget (`MAX_MCP_OUTPUT_TOKENS`, about 4 characters a token), valid JSON, and with
 * binaries as files instead of base64. This module is the pure shaping; writing binaries to files
 * is `Persist.ts`.
 */
import type { ContentItem, ShapeInput } from "./ContentItem.js"


// ---------------------------------------------------------------------------------------------
// Budget and text
// ---------------------------------------------------------------------------------------------

/** The one place that turns tokens into characters, so every caller agrees on "about 4 a token". */
export const budgetChars = (maxOutputTokens: number): number => Math.max(0, Math.floor(maxOutputTokens)) * 4

/** The default advice in every marker: the budget is a setting, and the user should know which. */
export const DEFAULT_HINT = "raise MAX_MCP_OUTPUT_TOKENS to see more"

/** Thousands separators without `toLocaleString`, which is slow enough to matter per string. */
const fmt = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",")

/** Cuts at `n` code units without splitting a surrogate pair (a lone half is not valid text). */
const safeSlice = (s: string, n: number): string => {
  if (n <= 0) return ""
  if (n >= s.length) return s
  const code = s.charCodeAt(n - 1)
  return code >= 0xd800 && code <= 0xdbff ? s.slice(0, n - 1) : s.slice(0, n)
}

/** A cut text; `dropped` is how many characters the marker says were left out. */
export interface TruncatedText {
  readonly text: string
  readonly truncated: boolean
  readonly dropped: number
}

/**
 * Cuts text to `maxChars` *including* the marker, and the marker says how much was dropped, so a
 * reader (human or model) knows the answer is partial and how to get the rest.
 */
export const truncateText = (text: string, maxChars: number, hint: string = DEFAULT_HINT): TruncatedText => {
  if (text.length <= maxChars) return { text, truncated: false, dropped: 0 }
  const marker = (dropped: number) => `\n… [truncated: ${fmt(dropped)} more characters; ${hint}]`
  // The marker's length depends on the dropped count's digits: settle it in two rounds.
  let keep = Math.max(0, maxChars - marker(text.length).length)
  keep = Math.max(0, maxChars - marker(text.length - keep).length)
  const kept = safeSlice(text, keep)
  const dropped = text.length - kept.length
  const out = kept + marker(dropped)
  if (out.length <= maxChars) return { text: out, truncated: true, dropped }
  // Too small for any marker: a lone ellipsis still says "there was more".
  return { text: maxChars > 0 ? "…" : "", truncated: true, dropped: text.length }
}

// ---------------------------------------------------------------------------------------------
// Structured content
// ---------------------------------------------------------------------------------------------

/** A shaped JSON value; `notes` say what was shortened, so the result admits it is partial. */
export interface ShapedStructured {
  readonly value: unknown
  readonly shaped: boolean
  readonly notes: ReadonlyArray<string>
}

interface Limits {
  readonly str: number
  readonly arr: number
  readonly skeleton: boolean
}

interface Stats {
  strings: number
  arrays: number
  /** A lower bound of the output's JSON length so far; past `limit` the attempt stops early. */
  size: number
  readonly limit: number
}

/** Thrown inside an attempt that already cannot fit, so a huge input costs O(budget) per attempt. */
const OVER = Symbol("over budget")
const grow = (stats: Stats, n: number) => {
  stats.size += n
  if (stats.size > stats.limit) throw OVER
}

/** The placeholder of the floor: a JSON string of 3 characters. */
const PLACEHOLDER = "…"

const setKey = (out: Record<string, unknown>, key: string, value: unknown) => {
  // A plain assignment to "__proto__" would set the prototype instead of keeping the key.
  if (key === "__proto__") {
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true })
  } else out[key] = value
}

const shapeString = (s: string, lim: Limits, stats: Stats): string => {
  const out = cutString(s, lim, stats)
  grow(stats, out.length + 2)
  return out
}

const cutString = (s: string, lim: Limits, stats: Stats): string => {
  if (lim.skeleton) {
    if (JSON.stringify(s).length <= PLACEHOLDER.length + 2) return s
    stats.strings++
    return PLACEHOLDER
  }
  if (s.length <= lim.str) return s
  const kept = safeSlice(s, lim.str)
  const cut = `${kept}… [+${fmt(s.length - kept.length)} chars]`
  if (cut.length >= s.length) return s
  stats.strings++
  return cut
}

const shapeValue = (v: unknown, lim: Limits, stats: Stats, seen: Set<object>): unknown => {
  if (typeof v === "string") return shapeString(v, lim, stats)
  if (typeof v === "bigint") return shapeString(v.toString(), lim, stats)
  if (v === null || typeof v !== "object") {
    if (v === null || typeof v === "number" || typeof v === "boolean") grow(stats, 1)
    return v
  }
  if (seen.has(v)) return "[circular]"
  const toJSON = (v as { toJSON?: unknown }).toJSON
  if (typeof toJSON === "function") return shapeValue(toJSON.call(v), lim, stats, seen)
  seen.add(v)
  grow(stats, 2)
  try {
    if (Array.isArray(v)) {
      if (lim.skeleton) {
        if (v.length === 0) return []
        stats.arrays++
        return [PLACEHOLDER]
      }
      if (v.length <= lim.arr) return v.map((x, i) => (grow(stats, i > 0 ? 1 : 0), shapeValue(x, lim, stats, seen)))
      stats.arrays++
      const more = v.length - lim.arr
      return [
        ...v.slice(0, lim.arr).map((x) => (grow(stats, 1), shapeValue(x, lim, stats, seen))), // each then a comma
        shapeString(`… ${fmt(more)} more ${more === 1 ? "item" : "items"}`, { str: Infinity, arr: 0, skeleton: false }, stats)
      ]
    }
    const out: Record<string, unknown> = {}
    let first = true
    for (const key of Object.keys(v)) {
      const x = (v as Record<string, unknown>)[key]
      // JSON.stringify omits these keys, so they must not count towards the bound.
      const omitted = x === undefined || typeof x === "function" || typeof x === "symbol"
      if (!omitted) grow(stats, key.length + (first ? 3 : 4))
      first &&= omitted
      setKey(out, key, shapeValue(x, lim, stats, seen))
    }
    return out
  } finally {
    seen.delete(v)
  }
}

const jsonLength = (v: unknown): number => {
  try {
    return JSON.stringify(v)?.length ?? 0
  } catch {
    return Number.POSITIVE_INFINITY // bigint or a cycle: must go through the shaper
  }
}

const attempt = (value: unknown, lim: Limits, limit = Number.POSITIVE_INFINITY) => {
  const stats: Stats = { strings: 0, arrays: 0, size: 0, limit }
  try {
    const shaped = shapeValue(value, lim, stats, new Set())
    return { shaped, stats, length: jsonLength(shaped) }
  } catch (error) {
    if (error !== OVER) throw error
    return { shaped: undefined, stats, length: Number.POSITIVE_INFINITY }
  }
}

/**
 * Shapes a JSON value to fit `maxChars` (as `JSON.stringify` counts) while keeping it valid JSON
 * with every object key, because a consumer that reads `structuredContent` against the tool's
 * output schema breaks on a blind cut. Strings get a tail marker (`… [+N chars]`), arrays a final
 * marker element (`"… N more items"`); one string limit and one array limit (a tenth of it) are
 * tightened together by binary search, so the result keeps as much as fits.
 *
 * The floor is the key skeleton: every key, numbers, booleans and null as they are, every longer
 * string as `"…"` and every non-empty array as `["…"]`. When even that exceeds `maxChars` (thousands
 * of keys), the skeleton is returned over budget, since dropping keys would break the schema.
 */
export const shapeStructured = (value: unknown, maxChars: number): ShapedStructured => {
  if (jsonLength(value) <= maxChars) return { value, shaped: false, notes: [] }
  const budget = Math.max(0, Math.floor(maxChars))
  const limits = (str: number): Limits => ({ str, arr: Math.floor(str / 10), skeleton: false })
  let best = attempt(value, limits(0), budget)
  let bestStr = 0
  if (best.length <= budget) {
    let lo = 0
    let hi = budget
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2)
      const next = attempt(value, limits(mid), budget)
      if (next.length <= budget) {
        lo = mid
        best = next
        bestStr = mid
      } else hi = mid - 1
    }
    const { strings, arrays } = best.stats
    const parts = [
      strings > 0 ? `${fmt(strings)} string(s) cut to ${fmt(bestStr)} characters` : undefined,
      arrays > 0 ? `${fmt(arrays)} array(s) cut to ${fmt(Math.floor(bestStr / 10))} items` : undefined
    ].filter((p) => p !== undefined)
    const note = `structuredContent shaped to fit ${fmt(budget)} characters: ${parts.join(", ")}`
    return { value: best.shaped, shaped: true, notes: [note] }
  }
  const skeleton = attempt(value, { str: 0, arr: 0, skeleton: true })
  const notes = [
    `structuredContent reduced to its keys: ${fmt(skeleton.stats.strings)} string(s) and ` +
    `${fmt(skeleton.stats.arrays)} array(s) replaced by "${PLACEHOLDER}"`
  ]
  if (skeleton.length > budget) {
    notes.push(`structuredContent keys alone take ${fmt(skeleton.length)} characters, over the budget of ${fmt(budget)}; all kept`)
  }
  return { value: skeleton.shaped, shaped: true, notes }
}

// ---------------------------------------------------------------------------------------------
// Whole call results
// ---------------------------------------------------------------------------------------------

/** A result within budget; `notes` explain every cut so `truncated: true` is never a mystery. */
export interface ShapedResult {
  readonly content: Array<ContentItem>
  readonly structuredContent: Record<string, unknown> | undefined
  readonly truncated: boolean
  readonly notes: ReadonlyArray<string>
}

/** The budgeted text of an item: text items and inline text resources. */
const textOf = (item: ContentItem): string | undefined =>
  item.type === "text" ? item.text : item.type === "resource" && "text" in item.resource ? item.resource.text : undefined

const withText = (item: ContentItem, text: string): ContentItem =>
  item.type === "text" ? { ...item, text } : item.type === "resource" ? { ...item, resource: { ...item.resource, text } } : item

/** Characters an item costs besides its budgeted text (base64 payloads do not count: they become files). */
const descriptorChars = (item: ContentItem): number => {
  if (item.type === "text") return 0
  if (item.type === "resource") {
    const { text: _t, blob: _b, ...rest } = item.resource as { text?: string; blob?: string }
    return jsonLength({ ...item, resource: rest })
  }
  if (item.type === "image" || item.type === "audio") {
    const { data: _d, ...rest } = item
    return jsonLength(rest)
  }
  return jsonLength(item)
}

/** How many characters a result costs against the budget: texts, descriptors, structured JSON. */
export const resultChars = (result: ShapeInput): number =>
  (result.content ?? []).reduce((n, item) => n + (textOf(item)?.length ?? 0) + descriptorChars(item), 0) +
  (result.structuredContent === undefined ? 0 : jsonLength(result.structuredContent))

/** Room the "items dropped" marker may take; numbers up to 10^15 still fit. */
const DROP_MARKER_RESERVE = 140
/** A text item gets cut rather than dropped only when this much of it can stay. */
const MIN_TEXT_KEEP = 200

/**
 * Holds a whole call result to `budget` characters (see {@link resultChars}), because the budget
 * protects the reader's context window, not any one item. Non-text items stay (they are files or
 * links; only their descriptor counts). `structuredContent` gets up to half when text needs the
 * rest, else what text leaves; text items get the remainder in order, the first that does not fit
 * is cut with a marker, and later ones are dropped behind one marker item.
 */
export const shapeCallResult = (result: ShapeInput, budget: number, hint: string = DEFAULT_HINT): ShapedResult => {
  const content = [...(result.content ?? [])]
  const structured = result.structuredContent
  const textTotal = content.reduce((n, item) => n + (textOf(item)?.length ?? 0), 0)
  const fixed = content.reduce((n, item) => n + descriptorChars(item), 0)
  const structuredLen = structured === undefined ? 0 : jsonLength(structured)
  const available = Math.max(0, budget - fixed)
  if (textTotal + structuredLen <= available) {
    return { content, structuredContent: structured, truncated: false, notes: [] }
  }
  const notes: Array<string> = []
  if (fixed > budget) notes.push(`non-text items alone take ${fmt(fixed)} characters, over the budget of ${fmt(budget)}`)

  let structuredOut = structured
  let structuredUsed = structuredLen
  if (structured !== undefined) {
    const half = Math.floor(available / 2)
    const share = structuredLen <= half ? structuredLen : Math.max(half, available - textTotal)
    if (structuredLen > share) {
      const shaped = shapeStructured(structured, share)
      structuredOut = shaped.value as Record<string, unknown>
      structuredUsed = jsonLength(shaped.value)
      notes.push(...shaped.notes)
    }
  }

  const textShare = Math.max(0, available - structuredUsed)
  const textItems = content.filter((item) => textOf(item) !== undefined).length
  const out: Array<ContentItem> = []
  if (textTotal <= textShare) out.push(...content)
  else {
    let left = textItems > 1 ? Math.max(0, textShare - DROP_MARKER_RESERVE) : textShare
    let dropping = false
    let dropped = 0
    let droppedChars = 0
    let dropAt = -1
    for (const item of content) {
      const text = textOf(item)
      if (text === undefined) {
        out.push(item)
        continue
      }
      if (!dropping && text.length <= left) {
        out.push(item)
        left -= text.length
        continue
      }
      if (!dropping && (left >= MIN_TEXT_KEEP || textItems === 1)) {
        const cut = truncateText(text, left, hint)
        out.push(withText(item, cut.text))
        notes.push(`text cut to fit the output budget of ${fmt(budget)} characters: ${fmt(cut.dropped)} characters dropped`)
        dropping = true
        continue
      }
      dropping = true
      dropped++
      droppedChars += text.length
      if (dropAt < 0) dropAt = out.length
    }
    if (dropped > 0) {
      const what = `${fmt(dropped)} more content ${dropped === 1 ? "item" : "items"} (${fmt(droppedChars)} characters)`
      out.splice(dropAt, 0, { type: "text", text: `… [dropped: ${what}; ${hint}]` })
      notes.push(`dropped ${what} over the output budget`)
    }
  }
  return { content: out, structuredContent: structuredOut, truncated: true, notes }
}
