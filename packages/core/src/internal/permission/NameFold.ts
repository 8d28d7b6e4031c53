/**
 * Look-alike names, folded for deny rules (pure). A server picks its tools' names: after the
 * user denies `write_file` under a wildcard allow, the server can rename it `write-file`,
 * `WRITE_FILE`, `wrіte_file` (Cyrillic і) or `write_file` + a zero-width space, and an exact
 * deny would let each run. Deny rules compare folded names instead: case, separators, marks,
 * invisible characters and common confusables (Cyrillic, Greek, `0`/`o`, `1`/`l`, `rn`/`m`)
 * are folded away, and any other non-ASCII letter is a wildcard for one character — a deny
 * errs on the side of denying.
 *
 * No confusables package: the targets are rule names (ASCII), so a table of the Latin look-alikes
 * plus the wildcard covers what a full Unicode skeleton would, in a few lines.
 */

/** Stands for one character the fold cannot place: it matches any character of a rule. */
export const WILDCARD = "?"

/** Non-ASCII letters that look like a Latin letter (after lowercasing). */
const LOOKALIKES: Readonly<Record<string, string>> = {
  // Cyrillic
  "а": "a", "в": "b", "с": "c", "ԁ": "d", "е": "e", "ё": "e", "һ": "h", "н": "h", "і": "i", "ї": "i",
  "ј": "j", "к": "k", "ӏ": "l", "м": "m", "п": "n", "о": "o", "р": "p", "ԛ": "q", "г": "r", "ѕ": "s",
  "т": "t", "ц": "u", "ѵ": "v", "ԝ": "w", "х": "x", "у": "y", "ү": "y", "з": "z",
  // Greek
  "α": "a", "β": "b", "ϲ": "c", "ε": "e", "η": "n", "ι": "i", "ϳ": "j", "κ": "k", "μ": "u", "ν": "v",
  "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "γ": "y", "ζ": "z", "ω": "w",
  // Latin letters outside ASCII
  "ı": "i", "ȷ": "j", "ɡ": "g", "ɑ": "a", "ʀ": "r", "ꜱ": "s", "ᴅ": "d", "ß": "ss", "ø": "o", "ł": "l", "đ": "d"
}

/** ASCII a reader cannot tell apart at a glance; both sides of a comparison fold the same way. */
const foldAscii = (s: string): string =>
  s.replace(/rn/g, "m").replace(/vv/g, "w").replace(/0/g, "o").replace(/[1i]/g, "l")

/**
 * The folded form of a name or a rule part: lowercase ASCII letters and digits, `?` for a letter
 * that could be anything. Separators, punctuation and spaces are dropped altogether: a server that
 * renames a denied `write_file` to `writefile` or `w_rite_file` renames nothing a reader would
 * notice, so the deny must still hold (a name that differs only in separators is denied).
 */
export const foldName = (text: string): string => {
  let out = ""
  for (const ch of text.normalize("NFKD")) {
    if (/\p{M}/u.test(ch)) continue // accents, combining marks
    if (/[\p{Cf}\u115f\u1160\u3164\uffa0\u180e]/u.test(ch)) continue // zero-width, bidi, fillers
    const lower = ch.toLowerCase()
    if (/[a-z0-9]/.test(lower)) out += lower
    else if (LOOKALIKES[lower] !== undefined) out += LOOKALIKES[lower]
    else if (/[\p{L}\p{N}]/u.test(lower)) out += WILDCARD
    // separators, punctuation and spaces: dropped
  }
  return foldAscii(out)
}

/** Whether two folded strings are equal, a `?` on the name's side matching any one character. */
const sameChars = (rule: string, name: string): boolean =>
  rule.length === name.length && [...name].every((c, i) => c === WILDCARD || c === rule[i])

/** Whether a folded name equals a folded rule part (the name's wildcards match anything). */
export const foldedEquals = (rulePart: string, namePart: string): boolean =>
  sameChars(foldName(rulePart), foldName(namePart))

/** Whether a folded name starts with a folded rule prefix (the prefix of `mcp__fs__write*`). */
export const foldedStartsWith = (namePart: string, rulePrefix: string): boolean => {
  const prefix = foldName(rulePrefix)
  const name = foldName(namePart)
  return name.length >= prefix.length && sameChars(prefix, name.slice(0, prefix.length))
}
