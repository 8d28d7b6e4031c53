/**
 * Output for people and for scripts: aligned tables and text on stdout, one JSON document with
 * `--json`; messages and progress always on stderr so stdout stays parseable.
 *
 * Every line for a person goes through `Sanitize` (server text may carry escape sequences, a bare
 * `\r`, bidi or zero-width characters); the `--json` document carries the text exactly.
 */
// @ts-nocheck


import type { ContentItem } from "@mcpctl/core/ContentItem"
import { sanitize, sanitizeAndCut } from "@mcpctl/core/internal/Sanitize"
import { currentRun, type Run } from "./RunState.js"

// A reader that goes away early (`mcpctl tools | head`) is no error of ours: the rest of the
// output has nowhere to go, and Node would otherwise crash on the unhandled EPIPE.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") throw error
})

/** Writes one line to stdout, sanitized. */
export const out = (line = ""): void => {
  process.stdout.write(sanitize(line) + "\n")
}

/** Writes one line to stderr, sanitized. */
export const err = (line = ""): void => {
  process.stderr.write(sanitize(line) + "\n")
}

/** The one JSON document of a `--json` run (of the running fiber's run, unless `run` says which). */
export const json = (value: unknown, run: Run = currentRun()): void => {
  run.documentWritten = true
  process.stdout.write(JSON.stringify(value, null, 2) + "\n")
}

/** Whether the run's JSON document is out (a failure found later must not write a second one). */
export const jsonWritten = (run: Run = currentRun()): boolean => run.documentWritten

const visibleLength = (text: string): number => [...text].length

/**
 * Columns padded to their widest cell; the last column is never padded so long descriptions do
 * not leave trailing blanks (pure, tested).
 */
export const table = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>): string => {
  // Cells are one line each: a newline or `\r` inside one would redraw other rows.
  const all = [header, ...rows].map((row) => row.map((cell) => sanitize(cell, { multiline: false })))
  const widths = header.map((_, i) => Math.max(...all.map((r) => visibleLength(r[i] ?? ""))))
  return all
    .map((row) =>
      row.map((cell, i) => (i === row.length - 1 ? cell : cell + " ".repeat(widths[i]! - visibleLength(cell))))
        .join("  ")
        .trimEnd()
    )
    .join("\n")
}

/** First line of a text, sanitized and cut to `max` characters (never inside an escape), for table cells. */
export const oneLine = (text: string | undefined, max = 80): string => {
  const first = (text ?? "").split("\n").find((l) => l.trim() !== "")?.trim() ?? ""
  return sanitizeAndCut(first, max, { multiline: false })
}

/** One content item (of a call result, a read or a prompt message) as text for a person. */
export const renderContent = (item: ContentItem): string => {
  switch (item.type) {
    case "text":
      return item.text
    case "file":
      return `[${item.originalType} ${item.mimeType}, ${item.bytes} bytes saved to ${item.path}]`
    case "resource":
      return "text" in item.resource
        ? `[resource ${item.resource.uri}]\n${String(item.resource.text)}`
        : `[resource ${item.resource.uri}]`
    case "resource_link":
      return `[resource link ${item.uri}${item.name ? ` (${item.name})` : ""}]`
    default:
      return JSON.stringify(item)
  }
}
