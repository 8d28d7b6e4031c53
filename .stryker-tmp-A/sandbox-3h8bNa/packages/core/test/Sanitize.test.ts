// @ts-nocheck
import { describe, expect, it } from "@effect/vitest"
import { sanitize, sanitizeAndCut, units } from "@mcpctl/core/internal/Sanitize"

const ESC = "\x1b"

describe("sanitize: terminal injection made visible", () => {
  it("OSC 52 (clipboard write) is shown whole, never sent raw", () => {
    const text = `before ${ESC}]52;c;ZWNobyBwd25lZA==\x07 after`
    const shown = sanitize(text)
    expect(shown).toBe("before \\x1b]52;c;ZWNobyBwd25lZA==\\x07 after")
    expect(shown).not.toContain(ESC)
    expect(shown).not.toContain("\x07")
  })

  it("screen clears, cursor moves, hyperlinks and BEL", () => {
    expect(sanitize(`${ESC}[2J${ESC}[H${ESC}[1A`)).toBe("\\x1b[2J\\x1b[H\\x1b[1A")
    expect(sanitize(`${ESC}]8;;https://evil.test${ESC}\\click${ESC}]8;;${ESC}\\`)).toBe(
      "\\x1b]8;;https://evil.test\\x1b\\click\\x1b]8;;\\x1b\\"
    )
    expect(sanitize("ding\x07")).toBe("ding\\x07")
    // C1 controls: CSI and OSC as single bytes.
    expect(sanitize("\u009b2J and \u009d0;title\u009c")).toBe("\\x9b2J and \\x9d0;title\\x9c")
  })

  it("a bare \\r is visible (it would redraw the line); CRLF is a line end", () => {
    expect(sanitize("deny\rallow  read-only")).toBe("deny\\x0dallow  read-only")
    expect(sanitize("a\r\nb")).toBe("a\nb")
    expect(sanitize("line1\nline2\tcol")).toBe("line1\nline2\tcol")
    expect(sanitize("line1\nline2\tcol", { multiline: false })).toBe("line1\\x0aline2\\x09col")
  })

  it("bidi overrides and zero-width characters are named", () => {
    expect(sanitize("evil\u202Etxt.exe")).toBe("evil<U+202E>txt.exe")
    expect(sanitize("write_file\u200B")).toBe("write_file<U+200B>")
    expect(sanitize("a\u2066b\u2069c\uFEFF")).toBe("a<U+2066>b<U+2069>c<U+FEFF>")
    expect(sanitize("tag\u{E0041}")).toBe("tag<U+E0041>")
  })

  it("leaves ordinary text alone, including non-Latin scripts and emoji", () => {
    for (const text of ["plain text", "Grüße, 世界", "👍 ok", "naïve café"]) expect(sanitize(text)).toBe(text)
  })

  it("is idempotent: sanitized text sanitizes to itself", () => {
    const once = sanitize(`${ESC}[31mred\u202E\r`)
    expect(sanitize(once)).toBe(once)
  })
})

describe("sanitizeAndCut: never inside a sequence", () => {
  it("keeps an escape sequence whole or drops it whole", () => {
    const text = `ab${ESC}[31mcd`
    for (let max = 1; max <= 14; max++) {
      const cut = sanitizeAndCut(text, max)
      expect([...cut].length).toBeLessThanOrEqual(max)
      // Either the whole visible sequence is there, or none of it.
      expect(cut.includes("\\x1b") === cut.includes("\\x1b[31m")).toBe(true)
      expect(cut).not.toContain(ESC)
    }
  })

  it("never splits a surrogate pair or a <U+…> marker", () => {
    expect(sanitizeAndCut("😀😀😀", 2)).toBe("😀…")
    expect(sanitizeAndCut("ab\u202Ecd", 5)).toBe("ab…")
    expect(sanitizeAndCut("short", 10)).toBe("short")
  })

  it("an unterminated OSC swallows to the end as one unit (nothing raw leaks)", () => {
    expect(units(`x${ESC}]52;c;AAAA`)).toEqual(["x", "\\x1b]52;c;AAAA"])
  })
})
