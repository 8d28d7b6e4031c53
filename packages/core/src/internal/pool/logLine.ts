/**
 * The level of a server log notification read from its raw line, without `JSON.parse` and (on
 * stdio) without decoding the line to a string: a flood of `notifications/message` below the
 * host's threshold is dropped for a scan of the line's bytes (no objects made, nothing for the
 * GC). The scan is exact where it answers: the line is one JSON object whose top-level `"method"`
 * is `"notifications/message"`, with no top-level `"id"`, and whose `"params"` object has a
 * string `"level"`. Anything it is not sure of (an escape in a key or in those values, a repeated
 * key, a line that does not end with the object, a value it cannot skip) answers undefined, and
 * the line takes the ordinary path (parse, SDK). JSON's structure is ASCII, and UTF-8 never uses
 * ASCII bytes inside a multi-byte character, so the bytes can be scanned as they arrive.
 */

const QUOTE = 0x22, BACKSLASH = 0x5c, OPEN_BRACE = 0x7b, CLOSE_BRACE = 0x7d, OPEN_BRACKET = 0x5b, CLOSE_BRACKET = 0x5d
const COMMA = 0x2c, COLON = 0x3a

const ascii = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0))
const METHOD_VALUE = ascii("\"notifications/message\"")
const KEY_ID = ascii("id"), KEY_METHOD = ascii("method"), KEY_PARAMS = ascii("params"), KEY_LEVEL = ascii("level")
// A response's keys: such a line is no notification, and its (maybe large) result is not walked.
const KEY_RESULT = ascii("result"), KEY_ERROR = ascii("error")

const skipSpace = (b: Uint8Array, i: number, end: number): number => {
  while (i < end) {
    const c = b[i]
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) i++
    else return i
  }
  return i
}

/** Set by {@link stringEnd}: whether the string it ended had an escape. */
let escaped = false

/** The index of the quote that ends the string opened at `i`, or -1. */
const stringEnd = (b: Uint8Array, i: number, end: number): number => {
  escaped = false
  for (let j = i + 1; j < end; j++) {
    const c = b[j]
    if (c === QUOTE) return j
    if (c === BACKSLASH) {
      escaped = true
      j++
    }
  }
  return -1
}

/** The index after the value starting at `i`, or -1 when it cannot be skipped. */
const skipValue = (b: Uint8Array, i: number, end: number): number => {
  const c = b[i]
  if (c === QUOTE) {
    const close = stringEnd(b, i, end)
    return close < 0 ? -1 : close + 1
  }
  if (c === OPEN_BRACE || c === OPEN_BRACKET) {
    let depth = 0
    for (let j = i; j < end; j++) {
      const d = b[j]
      if (d === QUOTE) {
        j = stringEnd(b, j, end)
        if (j < 0) return -1
      } else if (d === OPEN_BRACE || d === OPEN_BRACKET) depth++
      else if (d === CLOSE_BRACE || d === CLOSE_BRACKET) {
        if (--depth === 0) return j + 1
      }
    }
    return -1
  }
  // A number or a literal: up to the next delimiter.
  let j = i
  for (; j < end; j++) {
    const d = b[j]
    if (d === COMMA || d === CLOSE_BRACE || d === CLOSE_BRACKET || d === 0x20 || d === 0x09 || d === 0x0a || d === 0x0d) break
  }
  return j > i ? j : -1
}

/** Whether `b[at..]` starts with `text` (within `end`). */
const startsWith = (b: Uint8Array, at: number, end: number, text: Uint8Array): boolean => {
  if (at + text.length > end) return false
  for (let k = 0; k < text.length; k++) if (b[at + k] !== text[k]) return false
  return true
}

/** Whether the key between the quotes at `start` and `close` is `name`. */
const keyIs = (b: Uint8Array, start: number, close: number, name: Uint8Array): boolean =>
  close - start - 1 === name.length && startsWith(b, start + 1, close, name)

/** Where the level's string was found by the last {@link levelRange} that answered. */
let levelStart = 0, levelEnd = 0

/** After `{` of `params` at `i`: the index after the object, -1 to give up; sets the level. */
const walkParams = (b: Uint8Array, i: number, end: number): number => {
  let found = false
  if (b[i] !== OPEN_BRACE) return -1
  i = skipSpace(b, i + 1, end)
  if (b[i] === CLOSE_BRACE) return -1
  for (;;) {
    if (b[i] !== QUOTE) return -1
    const keyEnd = stringEnd(b, i, end)
    if (keyEnd < 0 || escaped) return -1
    let j = skipSpace(b, keyEnd + 1, end)
    if (b[j] !== COLON) return -1
    j = skipSpace(b, j + 1, end)
    if (keyIs(b, i, keyEnd, KEY_LEVEL)) {
      if (found || b[j] !== QUOTE) return -1
      const close = stringEnd(b, j, end)
      if (close < 0 || escaped) return -1
      found = true
      levelStart = j + 1
      levelEnd = close
      j = close + 1
    } else j = skipValue(b, j, end)
    if (j < 0) return -1
    j = skipSpace(b, j, end)
    const c = b[j]
    if (c === CLOSE_BRACE) return found ? j + 1 : -1
    if (c !== COMMA) return -1
    i = skipSpace(b, j + 1, end)
  }
}

/**
 * Whether `b[start..end)` is a `notifications/message` notification with a plain string level;
 * when true, the level's bytes are `b[levelStart..levelEnd)`.
 */
const levelRange = (b: Uint8Array, start: number, end: number): boolean => {
  let method = false
  let params = false
  let i = skipSpace(b, start, end)
  if (b[i] !== OPEN_BRACE) return false
  i = skipSpace(b, i + 1, end)
  for (;;) {
    if (b[i] !== QUOTE) return false
    const keyEnd = stringEnd(b, i, end)
    if (keyEnd < 0 || escaped) return false
    let j = skipSpace(b, keyEnd + 1, end)
    if (b[j] !== COLON) return false
    j = skipSpace(b, j + 1, end)
    if (keyIs(b, i, keyEnd, KEY_ID) || keyIs(b, i, keyEnd, KEY_RESULT) || keyIs(b, i, keyEnd, KEY_ERROR)) return false
    if (keyIs(b, i, keyEnd, KEY_METHOD)) {
      if (method || !startsWith(b, j, end, METHOD_VALUE)) return false
      method = true
      j += METHOD_VALUE.length
    } else if (keyIs(b, i, keyEnd, KEY_PARAMS)) {
      if (params) return false
      params = true
      j = walkParams(b, j, end)
    } else j = skipValue(b, j, end)
    if (j < 0) return false
    j = skipSpace(b, j, end)
    const c = b[j]
    if (c === CLOSE_BRACE) return method && params && skipSpace(b, j + 1, end) === end
    if (c !== COMMA) return false
    i = skipSpace(b, j + 1, end)
  }
}

/**
 * The index in `levels` (ASCII names) of the level of the notification in `bytes[start..end)`,
 * -1 for a level not in the list, or undefined when the line is anything else or the scan is
 * not sure. Nothing is allocated.
 */
export const logLevelIndexOfBytes = (
  bytes: Uint8Array,
  start: number,
  end: number,
  levels: ReadonlyArray<Uint8Array>
): number | undefined => {
  if (!levelRange(bytes, start, end)) return undefined
  for (let k = 0; k < levels.length; k++) {
    const name = levels[k]!
    if (levelEnd - levelStart === name.length && startsWith(bytes, levelStart, levelEnd, name)) return k
  }
  return -1
}

/**
 * The `params.level` of a line that is a `notifications/message` notification, or undefined
 * when the line is anything else or the scan is not sure.
 */
export const logLevelOfLine = (line: string): string | undefined => {
  const bytes = Buffer.from(line, "utf8")
  return levelRange(bytes, 0, bytes.length) ? bytes.toString("utf8", levelStart, levelEnd) : undefined
}
