/**
 * Tool search without a network or a model: BM25F over four fields of each tool (name, title,
 * description, parameter names), weighted by how much each says about what a tool does, with a
 * coordination factor so a tool that matches more of the query's words ranks above one that
 * matches a single word many times ("add two numbers" → a `get-sum` "of two numbers" before
 * `add_observations`). Words are split at case changes, `_`, `-` and punctuation, lower-cased,
 * stripped of common English endings and stop words. Pure: the registry feeds it its catalogue.
 */
// @ts-nocheck


/** What is searched of a tool. */
export interface Searchable {
  readonly name: string
  readonly title?: string | undefined
  readonly description?: string | undefined
  /** Parameter names (`inputSchema.properties`). */
  readonly parameters?: ReadonlyArray<string> | undefined
}

/** One ranked tool. */
export interface Hit<A> {
  readonly item: A
  /** BM25F score times coordination; higher is better, comparable within one query only. */
  readonly score: number
}

/** How much one occurrence of a word counts per field: names and titles say most. */
export const FIELD_WEIGHTS = { name: 3, title: 2, parameters: 1.5, description: 1 } as const
type Field = keyof typeof FIELD_WEIGHTS
const FIELDS = Object.keys(FIELD_WEIGHTS) as ReadonlyArray<Field>

/** BM25 term-frequency saturation and length normalization. */
const K1 = 1.2
const B = 0.75

const STOP_WORDS = new Set(
  ("a an and are as at be by can do does for from has have how i in into is it its me my of on or " +
    "that the their them then there these this those to was were what when which will with you your")
    .split(" ")
)

/**
 * A word's stem: plural and verb endings off (`numbers` → `number`, `directories` → `directory`,
 * `listing` → `list`, `created` → `creat`, `create` → `creat`), so a query and a description
 * meet whatever form each uses. Deliberately small; both sides go through the same rules.
 */
export const stem = (word: string): string => {
  let w = word
  if (w.length > 4 && w.endsWith("ies")) w = w.slice(0, -3) + "y"
  else if (w.length > 4 && w.endsWith("sses")) w = w.slice(0, -2)
  else if (w.length > 3 && w.endsWith("s") && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1)
  if (w.length > 5 && w.endsWith("ing")) w = w.slice(0, -3)
  else if (w.length > 4 && w.endsWith("ed")) w = w.slice(0, -2)
  if (w.length > 3 && w.endsWith("e")) w = w.slice(0, -1)
  return w
}

/** The words of a text as search terms: split, lower-cased, stop words out, stemmed (pure). */
export const tokenize = (text: string): Array<string> =>
  text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0 && !STOP_WORDS.has(w))
    .map(stem)

interface Doc<A> {
  readonly item: A
  readonly terms: Readonly<Record<Field, ReadonlyMap<string, number>>>
  readonly lengths: Readonly<Record<Field, number>>
}

const counts = (words: ReadonlyArray<string>): Map<string, number> => {
  const m = new Map<string, number>()
  for (const w of words) m.set(w, (m.get(w) ?? 0) + 1)
  return m
}

/**
 * Ranks `items` for `query`, best first, leaving out those that match no query word. Ties keep
 * the catalogue's order. `limit` caps the result (default: all matches).
 */
export const rank = <A>(
  items: ReadonlyArray<A>,
  fields: (item: A) => Searchable,
  query: string,
  limit = Number.POSITIVE_INFINITY
): Array<Hit<A>> => {
  const q = [...new Set(tokenize(query))]
  if (q.length === 0 || items.length === 0) return []
  const docs: Array<Doc<A>> = items.map((item) => {
    const f = fields(item)
    const words: Record<Field, Array<string>> = {
      name: tokenize(f.name),
      title: tokenize(f.title ?? ""),
      description: tokenize(f.description ?? ""),
      parameters: (f.parameters ?? []).flatMap(tokenize)
    }
    return {
      item,
      terms: { name: counts(words.name), title: counts(words.title), description: counts(words.description), parameters: counts(words.parameters) },
      lengths: { name: words.name.length, title: words.title.length, description: words.description.length, parameters: words.parameters.length }
    }
  })
  const n = docs.length
  const average = Object.fromEntries(FIELDS.map((f) => [f, docs.reduce((s, d) => s + d.lengths[f], 0) / n || 1])) as Record<Field, number>
  const idf = new Map(q.map((t) => {
    const df = docs.filter((d) => FIELDS.some((f) => d.terms[f].has(t))).length
    return [t, Math.log(1 + (n - df + 0.5) / (df + 0.5))] as const
  }))
  const hits: Array<Hit<A> & { readonly index: number }> = []
  docs.forEach((d, index) => {
    let score = 0
    let matched = 0
    for (const t of q) {
      // BM25F: the weighted, length-normalized frequencies of all fields, saturated once.
      let tf = 0
      for (const f of FIELDS) {
        const c = d.terms[f].get(t)
        if (c) tf += (FIELD_WEIGHTS[f] * c) / (1 - B + B * (d.lengths[f] / average[f]))
      }
      if (tf === 0) continue
      matched++
      score += idf.get(t)! * ((tf * (K1 + 1)) / (tf + K1))
    }
    if (matched > 0) hits.push({ item: d.item, score: score * (matched / q.length), index })
  })
  hits.sort((a, b) => b.score - a.score || a.index - b.index)
  return hits.slice(0, limit).map(({ item, score }) => ({ item, score: Math.round(score * 1000) / 1000 }))
}
