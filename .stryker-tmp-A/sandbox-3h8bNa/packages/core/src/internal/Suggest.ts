/**
 * "Did you mean …?" for names typed by people: servers, tools, prompts, commands and flags. One
 * rule everywhere, so a typo is answered the same way whichever name it was. Pure, a leaf.
 */
// @ts-nocheck


/** Edit distance (insertions, deletions, substitutions, adjacent swaps), case-insensitive. */
export const distance = (a: string, b: string): number => {
  const s = a.toLowerCase()
  const t = b.toLowerCase()
  const rows: Array<Array<number>> = Array.from({ length: s.length + 1 }, (_, i) => [i, ...Array<number>(t.length).fill(0)])
  for (let j = 1; j <= t.length; j++) rows[0]![j] = j
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1)
      rows[i]![j] = d
    }
  }
  return rows[s.length]![t.length]!
}

/**
 * The candidates closest to `typed`, if close enough to be what was meant: within a third of the
 * name's length (at least 1, at most 3 edits), or containing it / contained in it.
 */
export const closest = (typed: string, candidates: Iterable<string>, max = 3): ReadonlyArray<string> => {
  const limit = Math.min(3, Math.max(1, Math.floor(typed.length / 3)))
  const lower = typed.toLowerCase()
  return [...new Set(candidates)]
    .filter((c) => c !== typed)
    .map((c) => {
      const d = distance(typed, c)
      const contains = lower.length >= 3 && (c.toLowerCase().includes(lower) || lower.includes(c.toLowerCase()))
      return { c, d: contains ? Math.min(d, limit) : d }
    })
    .filter(({ d }) => d <= limit)
    .sort((x, y) => x.d - y.d || x.c.localeCompare(y.c))
    // Only the closest: "get-sun" is "get-sum", not also "get-env" two edits away.
    .filter(({ d }, _, all) => d === all[0]!.d)
    .slice(0, max)
    .map(({ c }) => c)
}

/** ` Did you mean "x"?` (or `"x" or "y"`), or the empty string when nothing is close (pure). */
export const didYouMean = (typed: string, candidates: Iterable<string>): string => {
  const near = closest(typed, candidates)
  return near.length === 0 ? "" : ` Did you mean ${near.map((n) => `"${n}"`).join(" or ")}?`
}
