/**
 * Binary outputs as files: image, audio and blob-resource items of a result are written under a
 * directory (the CLI's `$MCPCTL_HOME/outputs`) and replaced by a `FileContent` that names the
 * file, because base64 is useless to a terminal and ruinous to a model's context. Content-addressed
 * names make a repeated output free and its path stable. Re-exported from `Content.ts`, which
 * imports only values from here (this module takes types from it), so there is no import cycle.
 */
// @ts-nocheck

import type { CallToolResult } from "@modelcontextprotocol/client"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { createHash } from "node:crypto"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { realDir, writeFileAtomic } from "../files.js"
import { pruneOnce } from "./OutputRetention.js"
import type { ContentItem, FileContent, ShapeInput } from "../../content/ContentItem.js"
import { type DownsizeOptions, downsizeImage } from "./ImageResize.js"

/** Writing an output file failed; the message names the directory to check. */
export class OutputWriteError extends Schema.TaggedError<OutputWriteError>()("OutputWriteError", {
  message: Schema.String,
  path: Schema.String,
  cause: Schema.optional(Schema.Unknown)
}) {}

const EXTENSIONS: Record<string, string> = {
  "image/png": "png", "image/jpeg": "jpg", "image/jpg": "jpg", "image/pjpeg": "jpg", "image/gif": "gif",
  "image/webp": "webp", "image/svg+xml": "svg", "audio/wav": "wav", "audio/x-wav": "wav", "audio/wave": "wav",
  "audio/vnd.wave": "wav", "audio/mpeg": "mp3", "audio/mp3": "mp3", "audio/ogg": "ogg", "application/ogg": "ogg",
  "application/pdf": "pdf", "application/json": "json", "text/plain": "txt"
}

/** A file name's extension from a MIME type, so the OS opens the file with the right program. */
export const extensionFor = (mimeType: string): string => {
  const base = mimeType.split(";")[0]!.trim().toLowerCase()
  return EXTENSIONS[base] ?? (base.endsWith("+json") ? "json" : "bin")
}

const exists = async (file: string, size: number): Promise<boolean> => {
  try {
    // lstat: a symlink planted under the content's name is no saved output.
    const stat = await fs.lstat(file)
    return stat.isFile() && stat.size === size
  } catch {
    return false
  }
}

/** Saves `bytes` as `dir/name` atomically, unless the same content is there already (names are content hashes). */
const writeAtomic = async (dir: string, name: string, bytes: Uint8Array): Promise<string> => {
  // Outputs go into a real directory: a symlinked outputs/ would aim the writes elsewhere.
  await realDir(dir)
  await pruneOnce(dir)
  const target = path.join(dir, name)
  // Pruned before this run's first write, so a path handed out in this run is never removed in it.
  if (!(await exists(target, bytes.length))) await writeFileAtomic(target, bytes)
  return target
}

/** Where a persisted binary landed; `bytes` is the decoded size, not the base64 length. */
export interface PersistedFile {
  readonly path: string
  readonly mimeType: string
  readonly bytes: number
}

/**
 * Writes bytes under `dir` with a content-addressed name (sha256 prefix + extension), so the same
 * output is stored once, repeated calls are free, and the path is stable across runs.
 */
export const persistBytes = Effect.fn("Content.persistBytes")(function*(
  dir: string,
  bytes: Uint8Array,
  mimeType: string
) {
  const name = `${createHash("sha256").update(bytes).digest("hex").slice(0, 16)}.${extensionFor(mimeType)}`
  const file = yield* Effect.tryPromise({
    try: () => writeAtomic(dir, name, bytes),
    catch: (error) =>
      new OutputWriteError({
        message: `could not write output file ${path.join(dir, name)}: ${error instanceof Error ? error.message : String(error)}; check that ${dir} is writable`,
        path: path.join(dir, name),
        cause: error
      })
  })
  return { path: file, mimeType, bytes: bytes.length } satisfies PersistedFile
})

/** {@link persistBytes} for a base64 payload as MCP carries it. */
export const persistBinary = (dir: string, data: string, mimeType: string): Effect.Effect<PersistedFile, OutputWriteError> =>
  persistBytes(dir, Buffer.from(data, "base64"), mimeType)

/** Options of {@link persistCallContent}. */
export interface PersistOptions {
  /**
   * Library users who hand images straight to a model: keep images inline, downsized, instead of
   * writing them to files. An image that cannot be decoded is persisted as usual.
   */
  readonly shapeForModel?: boolean | DownsizeOptions
}

const toFile = (
  item: ContentItem,
  dir: string,
  data: string,
  mimeType: string,
  originalType: FileContent["originalType"],
  uri?: string
) =>
  persistBinary(dir, data, mimeType).pipe(Effect.map((file): FileContent => ({
    type: "file",
    ...file,
    originalType,
    ...(uri === undefined ? {} : { uri }),
    ...("annotations" in item && item.annotations !== undefined ? { annotations: item.annotations } : {})
  })))

const persistItem = (item: ContentItem, dir: string, options: PersistOptions): Effect.Effect<ContentItem, OutputWriteError> => {
  switch (item.type) {
    case "image": {
      const persist = toFile(item, dir, item.data, item.mimeType, "image")
      if (!options.shapeForModel) return persist
      const opts = options.shapeForModel === true ? {} : options.shapeForModel
      return downsizeImage(Buffer.from(item.data, "base64"), item.mimeType, opts).pipe(
        Effect.map((img): ContentItem => ({ ...item, data: img.data.toString("base64"), mimeType: img.mimeType })),
        Effect.catchTag("ImageResizeError", () => persist)
      )
    }
    case "audio":
      return toFile(item, dir, item.data, item.mimeType, "audio")
    case "resource": {
      const r = item.resource
      if (!("blob" in r) || typeof r.blob !== "string") return Effect.succeed(item)
      return toFile(item, dir, r.blob, r.mimeType ?? "application/octet-stream", "resource", r.uri)
    }
    default:
      return Effect.succeed(item)
  }
}

/**
 * Replaces every image, audio and blob-resource item by a {@link FileContent} under `dir` (the CLI
 * passes `$MCPCTL_HOME/outputs`), because base64 is useless to a terminal and ruinous to a model's
 * context. Text resources stay inline for {@link shapeCallResult}. `files` feeds `call --json`.
 */
export const persistCallContent = Effect.fn("Content.persistCallContent")(function*(
  result: Pick<CallToolResult, "content"> | ShapeInput,
  dir: string,
  options: PersistOptions = {}
) {
  const content = yield* Effect.forEach(result.content ?? [], (item) => persistItem(item, dir, options), {
    concurrency: 4
  })
  const files = content.filter((item): item is FileContent => item.type === "file")
  return { content, files }
})
