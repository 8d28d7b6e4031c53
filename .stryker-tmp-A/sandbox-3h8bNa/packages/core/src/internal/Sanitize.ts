/**
 * The one sanitizer for text a server chose (descriptions, titles, outputs, resource names, log
 * lines, error messages, stderr tails) on its way to a terminal. A terminal obeys what it is sent:
 * OSC 52 writes the clipboard, CSI sequences clear and redraw the screen, a bare `\r` rewrites the
 * line a person is reading, bidi overrides reorder what they see and zero-width characters hide
 * differences. Here every such character is made visible instead (`\x1b`, `<U+202E>`), whole
 * escape sequences are kept together as one unit, and cutting to a width never splits a unit.
 *
 * Only for terminals: `--json` documents carry the server's text exactly (JSON escapes C0 itself).
 */
// @ts-nocheck


/** Options of {@link sanitize}. */
export interface SanitizeOptions {
  /** Keep `\n` and `\t` (outputs, messages); default true. False: they are shown as `\x0a`, `\x09`. */
  readonly multiline?: boolean | undefined
}

const hex2 = (code: number) => `\\x${code.toString(16).padStart(2, "0")}`
const codePoint = (code: number) => `<U+${code.toString(16).toUpperCase().padStart(4, "0")}>`

/** Bidi embeddings, overrides, isolates and marks: they reorder what a person reads. */
const isBidi = (c: number) =>
  c === 0x061c || c === 0x200e || c === 0x200f || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069)

/** Invisible characters that hide a difference (zero-width, fillers, tags, line separators). */
const isInvisible = (c: number) =>
  c === 0x00ad || c === 0x034f || c === 0x115f || c === 0x1160 || c === 0x17b4 || c === 0x17b5 ||
  c === 0x180e || (c >= 0x200b && c <= 0x200d) || c === 0x2028 || c === 0x2029 ||
  (c >= 0x2060 && c <= 0x2064) || c === 0x3164 || c === 0xfeff || c === 0xffa0 || (c >= 0xe0000 && c <= 0xe007f)

const ESC = 0x1b
/** C1 introducers: CSI, OSC, DCS, SOS, PM, APC, and the string terminator. */
const C1_CSI = 0x9b, C1_OSC = 0x9d, C1_ST = 0x9c
const isC1StringStart = (c: number) => c === C1_OSC || c === 0x90 || c === 0x98 || c === 0x9e || c === 0x9f

/** The visible form of one raw character inside an escape sequence. */
const visibleChar = (ch: string): string => {
  const c = ch.codePointAt(0)!
  if (c < 0x20 || c === 0x7f || (c >= 0x80 && c <= 0x9f)) return hex2(c)
  if (isBidi(c) || isInvisible(c)) return codePoint(c)
  return ch
}

/** Where a control string (OSC, DCS, …) that starts at `i` ends: after BEL or ST, else the end. */
const endOfString = (s: string, i: number): number => {
  for (let j = i; j < s.length; j++) {
    const c = s.charCodeAt(j)
    if (c === 0x07 || c === C1_ST) return j + 1
    if (c === ESC && s.charCodeAt(j + 1) === 0x5c) return j + 2
  }
  return s.length
}

/** Where a CSI sequence whose parameters start at `i` ends: after its final byte (0x40–0x7e). */
const endOfCsi = (s: string, i: number): number => {
  let j = i
  while (j < s.length) {
    const c = s.charCodeAt(j)
    if (c >= 0x40 && c <= 0x7e) return j + 1
    if (c < 0x20 || c > 0x3f) return j // malformed: the sequence stops before the odd character
    j++
  }
  return j
}

/**
 * The text as units: each is either text that is safe as it is, or the visible form of one
 * control character or one whole escape sequence. Cutting between units never splits a sequence
 * or a surrogate pair.
 */
export const units = (text: string, options: SanitizeOptions = {}): Array<string> => {
  const multiline = options.multiline ?? true
  const out: Array<string> = []
  let i = 0
  while (i < text.length) {
    const c = text.codePointAt(i)!
    const width = c > 0xffff ? 2 : 1
    let end = i + width
    if (c === ESC || c === C1_CSI || isC1StringStart(c)) {
      const next = text.charCodeAt(i + 1)
      if (c === C1_CSI) end = endOfCsi(text, i + 1)
      else if (isC1StringStart(c)) end = endOfString(text, i + 1)
      else if (next === 0x5b) end = endOfCsi(text, i + 2) // ESC [
      else if (next === 0x5d || next === 0x50 || next === 0x58 || next === 0x5e || next === 0x5f) end = endOfString(text, i + 2)
      else if (next >= 0x20 && next <= 0x7e) {
        // ESC, intermediates (0x20–0x2f), then one final character.
        let j = i + 1
        while (j < text.length && text.charCodeAt(j) >= 0x20 && text.charCodeAt(j) <= 0x2f) j++
        end = j < text.length && text.charCodeAt(j) >= 0x30 && text.charCodeAt(j) <= 0x7e ? j + 1 : j
      }
      out.push(Array.from(text.slice(i, end), visibleChar).join(""))
    } else if (c === 0x0d && text.charCodeAt(i + 1) === 0x0a && multiline) {
      out.push("\n") // CRLF is a line end; only a bare CR can redraw a line
      end = i + 2
    } else if ((c === 0x0a || c === 0x09) && multiline) {
      out.push(text[i]!)
    } else if (c < 0x20 || c === 0x7f || (c >= 0x80 && c <= 0x9f)) {
      out.push(hex2(c))
    } else if (isBidi(c) || isInvisible(c)) {
      out.push(codePoint(c))
    } else if (c >= 0xd800 && c <= 0xdfff) {
      out.push(codePoint(c)) // a lone surrogate (a pair is one code point above)
    } else {
      // A run of plain characters is one unit per code point, so cuts stay exact.
      out.push(text.slice(i, end))
    }
    i = end
  }
  return out
}

// Anything that may need escaping; astral characters (surrogates) take the slow path to find tags.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2069\u3164\ufeff\uffa0\ud800-\udfff]/

/** Server text fit for a terminal: every control, escape sequence, bidi and invisible character made visible. */
export const sanitize = (text: string, options: SanitizeOptions = {}): string => {
  // Fast path: nothing to escape in the common case (plain printable text).
  if (!UNSAFE.test(text) && ((options.multiline ?? true) || !/[\n\t]/.test(text))) return text
  return units(text, options).join("")
}

/** Marks text that was cut. */
export const CUT_MARKER = "…"

/**
 * Sanitized and cut to at most `max` characters (marker included), between units: never inside
 * an escape sequence's visible form, a surrogate pair or a `<U+…>` marker.
 */
export const sanitizeAndCut = (text: string, max: number, options: SanitizeOptions = {}): string => {
  const all = units(text, options)
  let length = 0
  for (const u of all) length += [...u].length
  if (length <= max) return all.join("")
  let kept = ""
  let used = 0
  for (const u of all) {
    const n = [...u].length
    if (used + n > max - CUT_MARKER.length) break
    kept += u
    used += n
  }
  return kept + CUT_MARKER
}
