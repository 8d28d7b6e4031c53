/**
 * Following `nextCursor` with bounds: a server whose list never ends (a cursor on every page, or
 * the same cursor again) must not grow memory forever, as one that answered 50 MB/s did. A list
 * stops with a clear error after `maxPages` pages, `maxItems` items or `timeoutMs` in all (the
 * page in flight then is cancelled on the server).
 */
// @ts-nocheck

import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { McpRequestError } from "../../Errors.js"

/** Bounds of one listing (tools, resources, templates or prompts of one server). */
export interface PageLimits {
  readonly maxPages: number
  readonly maxItems: number
  readonly timeoutMs: number
}

/** Far beyond any real server (the largest known list a few thousand entries), far below harm. */
export const DEFAULT_PAGE_LIMITS: PageLimits = { maxPages: 1_000, maxItems: 100_000, timeoutMs: 120_000 }

/** One page as the server sent it. */
export interface Page<T> {
  readonly items: ReadonlyArray<T>
  readonly nextCursor?: string | undefined
}

const fmt = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",")

/**
 * Every page of a list, in order. `list` names it in messages (`tools/list`). A bound fails the
 * listing with an `McpRequestError` (code -1) naming the server, the list and the bound.
 */
export const collectPages = <T, E>(
  server: string,
  list: string,
  page: (cursor: string | undefined) => Effect.Effect<Page<T>, E>,
  limits: PageLimits = DEFAULT_PAGE_LIMITS
): Effect.Effect<Array<T>, E | McpRequestError> =>
  Effect.suspend(() => {
    const all: Array<T> = []
    const seen = new Set<string>()
    let pages = 0
    const stop = (why: string) =>
      new McpRequestError({
        server,
        method: list,
        code: -1,
        message: `${server}: server "${server}" ${why} in ${list} (after ${fmt(pages)} page(s), ${fmt(all.length)} item(s)); ` +
          `the list was not used. The server's pagination is broken: report it to its authors.`
      })
    const next = (cursor: string | undefined): Effect.Effect<Array<T>, E | McpRequestError> =>
      Effect.flatMap(page(cursor), (result) => {
        pages++
        if (all.length + result.items.length > limits.maxItems) return Effect.fail(stop(`returned more than ${fmt(limits.maxItems)} items`))
        for (const item of result.items) all.push(item)
        const cursor = result.nextCursor
        if (!cursor) return Effect.succeed(all)
        if (seen.has(cursor)) return Effect.fail(stop(`sent the cursor ${JSON.stringify(cursor.slice(0, 40))} twice`))
        seen.add(cursor)
        if (pages >= limits.maxPages) return Effect.fail(stop(`sent more than ${fmt(limits.maxPages)} pages`))
        return next(cursor)
      })
    return Effect.timeoutFail(next(undefined), {
      duration: Duration.millis(limits.timeoutMs),
      onTimeout: () => stop(`took more than ${fmt(limits.timeoutMs)} ms`)
    })
  })
