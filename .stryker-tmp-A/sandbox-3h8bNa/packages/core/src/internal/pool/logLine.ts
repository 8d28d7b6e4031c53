/**
 * The level of a server log notification read from its raw line, without `JSON.parse`: a flood of
 * `notifications/message` below the host's threshold is dropped for a scan of the line's top
 * level (no objects made, nothing for the GC). The scan is exact where it answers: the line is one
 * JSON object whose top-level `"method"` is `"notifications/message"`, with no top-level `"id"`,
 * and whose `"params"` object has a string `"level"`. Anything it is not sure of (an escape in a
 * key or in those values, a repeated key, a line that does not end with the object, a value it
 * cannot skip) answers undefined, and the line takes the ordinary path (parse, SDK).
 */
// @ts-nocheck


const QUOTE = 0x22, BACKSLASH = 0x5c, OPEN_BRACE = 0x7b, CLOSE_BRACE = 0x7d, OPEN_BRACKET = 0x5b, CLOSE_BRACKET = 0x5d
const COMMA = 0x2c, COLON = 0x3a

const METHOD = "notifications/message"

const skipSpace = (line: string, i: number): number => {
  for (;;) {
    const c = line.charCodeAt(i)
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) i++
    else return i
  }
}

/** The index of the quote that ends the string opened at `i`, or -1; `escapes[0]` says whether it has any. */
const stringEnd = (line: string, i: number, escapes?: Array<boolean>): number => {
  for (let j = i + 1; j < line.length; j++) {
    const c = line.charCodeAt(j)
    if (c === QUOTE) return j
    if (c === BACKSLASH) {
      if (escapes) escapes[0] = true
      j++
    }
  }
  return -1
}

/** The index after the value starting at `i`, or -1 when it cannot be skipped. */
const skipValue = (line: string, i: number): number => {
  const c = line.charCodeAt(i)
  if (c === QUOTE) {
    const end = stringEnd(line, i)
    return end < 0 ? -1 : end + 1
  }
  if (c === OPEN_BRACE || c === OPEN_BRACKET) {
    let depth = 0
    for (let j = i; j < line.length; j++) {
      const d = line.charCodeAt(j)
      if (d === QUOTE) {
        j = stringEnd(line, j)
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
  for (; j < line.length; j++) {
    const d = line.charCodeAt(j)
    if (d === COMMA || d === CLOSE_BRACE || d === CLOSE_BRACKET || d === 0x20 || d === 0x09 || d === 0x0a || d === 0x0d) break
  }
  return j > i ? j : -1
}

/** Whether the key in `line` between quotes at `start` and `end` is `name`. */
const keyIs = (line: string, start: number, end: number, name: string): boolean =>
  end - start - 1 === name.length && line.startsWith(name, start + 1)

/**
 * Walks the object at `i`, calling `onKey(keyStart, keyEnd, valueStart)` for each key; `onKey`
 * returns the index after the value, or -1 to give up. The index after the object, or -1.
 */
const walkObject = (line: string, i: number, onKey: (keyStart: number, keyEnd: number, valueStart: number) => number): number => {
  if (line.charCodeAt(i) !== OPEN_BRACE) return -1
  i = skipSpace(line, i + 1)
  if (line.charCodeAt(i) === CLOSE_BRACE) return i + 1
  const escapes = [false]
  for (;;) {
    if (line.charCodeAt(i) !== QUOTE) return -1
    const keyEnd = stringEnd(line, i, escapes)
    if (keyEnd < 0 || escapes[0]) return -1
    let j = skipSpace(line, keyEnd + 1)
    if (line.charCodeAt(j) !== COLON) return -1
    j = onKey(i, keyEnd, skipSpace(line, j + 1))
    if (j < 0) return -1
    j = skipSpace(line, j)
    const c = line.charCodeAt(j)
    if (c === CLOSE_BRACE) return j + 1
    if (c !== COMMA) return -1
    i = skipSpace(line, j + 1)
  }
}

/** The string value at `i` when it has no escapes, else undefined. */
const plainString = (line: string, i: number): { readonly value: string; readonly end: number } | undefined => {
  if (line.charCodeAt(i) !== QUOTE) return undefined
  const escapes = [false]
  const end = stringEnd(line, i, escapes)
  return end < 0 || escapes[0] ? undefined : { value: line.slice(i + 1, end), end: end + 1 }
}

/**
 * The `params.level` of a line that is a `notifications/message` notification, or undefined
 * when the line is anything else or the scan is not sure.
 */
export const logLevelOfLine = (line: string): string | undefined => {
  let method = false
  let level: string | undefined
  let params = false
  const end = walkObject(line, skipSpace(line, 0), (keyStart, keyEnd, at) => {
    if (keyIs(line, keyStart, keyEnd, "id")) return -1
    if (keyIs(line, keyStart, keyEnd, "method")) {
      if (method || !line.startsWith(`"${METHOD}"`, at)) return -1
      method = true
      return at + METHOD.length + 2
    }
    if (keyIs(line, keyStart, keyEnd, "params")) {
      if (params) return -1
      params = true
      return walkObject(line, at, (k0, k1, v) => {
        if (!keyIs(line, k0, k1, "level")) return skipValue(line, v)
        if (level !== undefined) return -1
        const s = plainString(line, v)
        if (s === undefined) return -1
        level = s.value
        return s.end
      })
    }
    return skipValue(line, at)
  })
  if (end < 0 || !method || skipSpace(line, end) !== line.length) return undefined
  return level
}
