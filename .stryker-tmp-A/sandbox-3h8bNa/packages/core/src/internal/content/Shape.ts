/**
 * What comes back from a server must be safe to hand to a model or a terminal: bounded by the
 * output budget (`MAX_MCP_OUTPUT_TOKENS`, about 4 characters a token), valid JSON, and with
 * binaries as files instead of base64. This module is the pure shaping; writing binaries to files
 * is `Persist.ts`.
 */
// @ts-nocheck

import type { ContentItem, ShapeInput } from "../../content/ContentItem.js"


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
  /** Containers nested deeper than {@link MAX_DEPTH}, replaced by the placeholder. */
  deep: number
  /** A lower bound of the output's printed length so far; past `limit` the attempt stops early. */
  size: number
  readonly limit: number
  /** Counted as printed with a 2-space indent (what `--json` and the terminal show). */
  readonly pretty: boolean
  /** The depth the value is printed at inside its document (pretty only: its lines' indent). */
  readonly base: number
}

/**
 * Containers deeper than this are replaced by the placeholder: shaping, printing and the
 * reader all stay clear of a stack overflow, and pretty printing of 3,000 levels (18 MB of
 * indentation for 6 KB of JSON) cannot happen. Real results nest a few levels.
 */
export const MAX_DEPTH = 64

/** How values are printed, so the budget counts what is actually printed. */
export interface PrintOptions {
  /** Pretty JSON with a 2-space indent (the CLI), else compact JSON (MCP over the wire). Default false. */
  readonly pretty?: boolean | undefined
  /** With `pretty`: how deep in its document the value is printed (every line indented 2 × this). */
  readonly depth?: number | undefined
}

/**
 * The depth of a JSON value's deepest container (0 for a scalar), without recursion; past
 * `cap` (or on a cycle) it stops and says `cap + 1`.
 */
const depthOf = (value: unknown, cap: number): number => {
  if (value === null || typeof value !== "object") return 0
  const seen = new Set<object>()
  let deepest = 0
  const stack: Array<[unknown, number]> = [[value, 1]]
  while (stack.length > 0) {
    const [v, d] = stack.pop()!
    if (v === null || typeof v !== "object") continue
    if (d > cap || seen.has(v)) return cap + 1
    seen.add(v)
    if (d > deepest) deepest = d
    for (const x of Array.isArray(v) ? v : Object.values(v)) if (x !== null && typeof x === "object") stack.push([x, d + 1])
  }
  return deepest
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

/** What pretty printing adds per element of a container at `depth`: a newline and the indent. */
const elementCost = (stats: Stats, depth: number): number => (stats.pretty ? 1 + 2 * (stats.base + depth + 1) : 0)

const shapeValue = (v: unknown, lim: Limits, stats: Stats, seen: Set<object>, depth: number): unknown => {
  if (typeof v === "string") return shapeString(v, lim, stats)
  if (typeof v === "bigint") return shapeString(v.toString(), lim, stats)
  if (v === null || typeof v !== "object") {
    if (v === null || typeof v === "number" || typeof v === "boolean") grow(stats, 1)
    return v
  }
  if (seen.has(v)) return "[circular]"
  const toJSON = (v as { toJSON?: unknown }).toJSON
  if (typeof toJSON === "function") return shapeValue(toJSON.call(v), lim, stats, seen, depth)
  if (depth >= MAX_DEPTH) {
    stats.deep++
    return shapeString(PLACEHOLDER, lim, stats)
  }
  seen.add(v)
  grow(stats, 2)
  // The newline and indent before the closing bracket of a non-empty container.
  const closing = stats.pretty ? 1 + 2 * (stats.base + depth) : 0
  try {
    if (Array.isArray(v)) {
      if (v.length > 0) grow(stats, closing)
      if (lim.skeleton) {
        if (v.length === 0) return []
        stats.arrays++
        grow(stats, elementCost(stats, depth))
        return [PLACEHOLDER]
      }
      const each = elementCost(stats, depth)
      if (v.length <= lim.arr) return v.map((x, i) => (grow(stats, (i > 0 ? 1 : 0) + each), shapeValue(x, lim, stats, seen, depth + 1)))
      stats.arrays++
      const more = v.length - lim.arr
      return [
        ...v.slice(0, lim.arr).map((x) => (grow(stats, 1 + each), shapeValue(x, lim, stats, seen, depth + 1))), // each then a comma
        (grow(stats, each), shapeString(`… ${fmt(more)} more ${more === 1 ? "item" : "items"}`, { str: Infinity, arr: 0, skeleton: false }, stats))
      ]
    }
    const out: Record<string, unknown> = {}
    let first = true
    // Pretty: the newline and indent, and the space after the colon.
    const each = stats.pretty ? elementCost(stats, depth) + 1 : 0
    for (const key of Object.keys(v)) {
      const x = (v as Record<string, unknown>)[key]
      // JSON.stringify omits these keys, so they must not count towards the bound.
      const omitted = x === undefined || typeof x === "function" || typeof x === "symbol"
      if (!omitted) grow(stats, key.length + (first ? 3 : 4) + each + (first ? closing : 0))
      first &&= omitted
      setKey(out, key, shapeValue(x, lim, stats, seen, depth + 1))
    }
    return out
  } finally {
    seen.delete(v)
  }
}

/**
 * The printed length of a value (pretty: at `base` depth of its document); infinite when it
 * cannot be printed (bigint, a cycle, too deep).
 */
const printedLength = (v: unknown, pretty: boolean, base = 0): number => {
  if (depthOf(v, MAX_DEPTH) > MAX_DEPTH) return Number.POSITIVE_INFINITY
  try {
    const compact = JSON.stringify(v)?.length ?? 0
    if (!pretty || compact === 0) return compact
    // Pretty is never shorter; measured only when compact fits some budget, so never huge.
    const text = JSON.stringify(v, null, 2)
    let lines = 0
    if (base > 0) for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) lines++
    return text.length + lines * 2 * base
  } catch {
    return Number.POSITIVE_INFINITY // bigint or a cycle: must go through the shaper
  }
}

const attempt = (value: unknown, lim: Limits, pretty: boolean, base: number, limit = Number.POSITIVE_INFINITY) => {
  const stats: Stats = { strings: 0, arrays: 0, deep: 0, size: 0, limit, pretty, base }
  try {
    const shaped = shapeValue(value, lim, stats, new Set(), 0)
    return { shaped, stats, length: printedLength(shaped, pretty, base) }
  } catch (error) {
    if (error !== OVER) throw error
    return { shaped: undefined, stats, length: Number.POSITIVE_INFINITY }
  }
}

/**
 * Shapes a JSON value to fit `maxChars` (as `JSON.stringify` counts, or as it prints with
 * `pretty`) while keeping it valid JSON
 * with every object key, because a consumer that reads `structuredContent` against the tool's
 * output schema breaks on a blind cut. Strings get a tail marker (`… [+N chars]`), arrays a final
 * marker element (`"… N more items"`); one string limit and one array limit (a tenth of it) are
 * tightened together by binary search, so the result keeps as much as fits.
 *
 * The floor is the key skeleton: every key, numbers, booleans and null as they are, every longer
 * string as `"…"` and every non-empty array as `["…"]`. When even that exceeds `maxChars` (thousands
 * of keys), the skeleton is returned over budget, since dropping keys would break the schema.
 * Containers nested deeper than {@link MAX_DEPTH} become `"…"` too (a note says how many).
 */
export const shapeStructured = (value: unknown, maxChars: number, print: PrintOptions = {}): ShapedStructured => {
  const pretty = print.pretty === true
  const base = pretty ? print.depth ?? 0 : 0
  // Compact length first: pretty printing is never shorter, and a value over budget compactly
  // must not be pretty printed just to be measured.
  if (printedLength(value, false) <= maxChars && printedLength(value, pretty, base) <= maxChars) return { value, shaped: false, notes: [] }
  const budget = Math.max(0, Math.floor(maxChars))
  const limits = (str: number): Limits => ({ str, arr: Math.floor(str / 10), skeleton: false })
  const deepNote = (deep: number) =>
    deep > 0 ? [`${fmt(deep)} value(s) nested deeper than ${MAX_DEPTH} levels replaced by "${PLACEHOLDER}"`] : []
  // Deep values that fit once cut at MAX_DEPTH need no other shortening.
  const whole = attempt(value, { str: Number.POSITIVE_INFINITY, arr: Number.POSITIVE_INFINITY, skeleton: false }, pretty, base, budget)
  if (whole.length <= budget) return { value: whole.shaped, shaped: true, notes: deepNote(whole.stats.deep) }
  let best = attempt(value, limits(0), pretty, base, budget)
  let bestStr = 0
  if (best.length <= budget) {
    let lo = 0
    let hi = budget
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2)
      const next = attempt(value, limits(mid), pretty, base, budget)
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
    return { value: best.shaped, shaped: true, notes: [note, ...deepNote(best.stats.deep)] }
  }
  const skeleton = attempt(value, { str: 0, arr: 0, skeleton: true }, pretty, base)
  const notes = [
    `structuredContent reduced to its keys: ${fmt(skeleton.stats.strings)} string(s) and ` +
    `${fmt(skeleton.stats.arrays)} array(s) replaced by "${PLACEHOLDER}"`,
    ...deepNote(skeleton.stats.deep)
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
  /** Any JSON value (see `ShapeInput`). */
  readonly structuredContent: unknown
  readonly truncated: boolean
  readonly notes: ReadonlyArray<string>
}

/** The budgeted text of an item: text items and inline text resources. */
const textOf = (item: ContentItem): string | undefined =>
  item.type === "text" ? item.text : item.type === "resource" && "text" in item.resource ? item.resource.text : undefined

const withText = (item: ContentItem, text: string): ContentItem =>
  item.type === "text" ? { ...item, text } : item.type === "resource" ? { ...item, resource: { ...item.resource, text } } : item

/** Characters an item costs besides its budgeted text (base64 payloads do not count: they become files). */
const descriptorChars = (item: ContentItem, pretty: boolean): number => {
  if (item.type === "text") return 0
  if (item.type === "resource") {
    const { text: _t, blob: _b, ...rest } = item.resource as { text?: string; blob?: string }
    return printedLength({ ...item, resource: rest }, pretty, ITEM_DEPTH)
  }
  if (item.type === "image" || item.type === "audio") {
    const { data: _d, ...rest } = item
    return printedLength(rest, pretty, ITEM_DEPTH)
  }
  return printedLength(item, pretty, ITEM_DEPTH)
}

/** Where `call --json` prints them: items at `content[i]`, structured content one level down. */
const ITEM_DEPTH = 2
const STRUCTURED_DEPTH = 1

/** Pretty: the newline and indent before an item, and the comma after it. */
const PRETTY_ITEM_SEPARATOR = 2 + 2 * ITEM_DEPTH

const plainTextEnvelope = {
  compact: printedLength({ type: "text", text: "" }, false) + 1,
  pretty: printedLength({ type: "text", text: "" }, true, ITEM_DEPTH) + PRETTY_ITEM_SEPARATOR
}

/**
 * What a text item costs besides its text: `{"type":"text","text":""}` and a separator, as
 * printed. Without it 300,000 empty items cost nothing and printed 15 MB.
 */
const envelopeChars = (item: ContentItem, pretty: boolean): number => {
  if (item.type !== "text") return 0
  if (Object.keys(item).length === 2) return pretty ? plainTextEnvelope.pretty : plainTextEnvelope.compact
  return printedLength(withText(item, ""), pretty, ITEM_DEPTH) + (pretty ? PRETTY_ITEM_SEPARATOR : 1)
}

/** The budgeted cost of an item's text: the text and, for text items, their envelope. */
const textCost = (item: ContentItem, pretty: boolean): number => {
  const text = textOf(item)
  return text === undefined ? 0 : text.length + envelopeChars(item, pretty)
}

/**
 * How many characters a result costs against the budget, as printed (compact JSON unless
 * `pretty`): texts and their items' envelopes, descriptors of the other items, structured JSON.
 */
export const resultChars = (result: ShapeInput, print: PrintOptions = {}): number => {
  const pretty = print.pretty === true
  return (result.content ?? []).reduce((n, item) => n + textCost(item, pretty) + descriptorChars(item, pretty), 0) +
    (result.structuredContent === undefined ? 0 : printedLength(result.structuredContent, pretty, STRUCTURED_DEPTH))
}

/** Room the "items dropped" marker may take; numbers up to 10^15 still fit. */
const DROP_MARKER_RESERVE = 140
/** A text item gets cut rather than dropped only when this much of it can stay. */
const MIN_TEXT_KEEP = 200

/**
 * Holds a whole call result to `budget` characters (see {@link resultChars}), because the budget
 * protects the reader's context window, not any one item. Non-text items stay (they are files or
 * links; only their descriptor counts). `structuredContent` gets up to half when text needs the
 * rest, else what text leaves; text items get the remainder in order, the first that does not fit
 * is cut with a marker, and later ones are dropped behind one marker item. With `pretty`, sizes
 * are counted as the CLI prints them.
 */
export const shapeCallResult = (
  result: ShapeInput,
  budget: number,
  hint: string = DEFAULT_HINT,
  print: PrintOptions = {}
): ShapedResult => {
  const pretty = print.pretty === true
  const content = [...(result.content ?? [])]
  const structured = result.structuredContent
  const textTotal = content.reduce((n, item) => n + textCost(item, pretty), 0)
  const fixed = content.reduce((n, item) => n + descriptorChars(item, pretty), 0)
  const structuredLen = structured === undefined ? 0 : printedLength(structured, pretty, STRUCTURED_DEPTH)
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
      const shaped = shapeStructured(structured, share, { pretty, depth: STRUCTURED_DEPTH })
      structuredOut = shaped.value
      structuredUsed = printedLength(shaped.value, pretty, STRUCTURED_DEPTH)
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
      const envelope = envelopeChars(item, pretty)
      if (!dropping && text.length + envelope <= left) {
        out.push(item)
        left -= text.length + envelope
        continue
      }
      if (!dropping && (left - envelope >= MIN_TEXT_KEEP || textItems === 1)) {
        const cut = truncateText(text, Math.max(0, left - envelope), hint)
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
