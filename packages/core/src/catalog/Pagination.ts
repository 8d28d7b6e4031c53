/**
 * Following `nextCursor` with bounds: a server whose list never ends (a cursor on every page, or
 * the same cursor again) must not grow memory forever, as one that answered 50 MB/s did. A list
 * stops with a clear error after `maxPages` pages, `maxItems` items or `timeoutMs` in all.
 */

/** Bounds of one listing (tools, resources, templates or prompts of one server). */
export interface PageLimits {
  readonly maxPages: number
  readonly maxItems: number
  readonly timeoutMs: number
}

/** Far beyond any real server (the largest known list a few thousand entries), far below harm. */
export const DEFAULT_PAGE_LIMITS: PageLimits = { maxPages: 1_000, maxItems: 100_000, timeoutMs: 120_000 }

/** A listing stopped by a bound; its message names the server, the list and the bound. */
export class ListTooLongError extends Error {
  override readonly name = "ListTooLongError"
}

const fmt = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",")

/**
 * Every page of a list, in order. `list` names it in messages (`tools/list`); `now` is for tests.
 */
export const collectPages = async <T>(
  server: string,
  list: string,
  page: (cursor: string | undefined) => Promise<{ readonly items: ReadonlyArray<T>; readonly nextCursor?: string | undefined }>,
  limits: PageLimits = DEFAULT_PAGE_LIMITS,
  now: () => number = Date.now
): Promise<Array<T>> => {
  const started = now()
  const all: Array<T> = []
  const seen = new Set<string>()
  let pages = 0
  const stop = (why: string) =>
    new ListTooLongError(
      `server "${server}" ${why} in ${list} (after ${fmt(pages)} page(s), ${fmt(all.length)} item(s)); ` +
        `the list was not used. The server's pagination is broken: report it to its authors.`
    )
  let cursor: string | undefined
  for (;;) {
    const result = await page(cursor)
    pages++
    if (all.length + result.items.length > limits.maxItems) throw stop(`returned more than ${fmt(limits.maxItems)} items`)
    for (const item of result.items) all.push(item)
    cursor = result.nextCursor
    if (!cursor) return all
    if (seen.has(cursor)) throw stop(`sent the cursor ${JSON.stringify(cursor.slice(0, 40))} twice`)
    seen.add(cursor)
    if (pages >= limits.maxPages) throw stop(`sent more than ${fmt(limits.maxPages)} pages`)
    if (now() - started > limits.timeoutMs) throw stop(`took more than ${fmt(limits.timeoutMs)} ms`)
  }
}
