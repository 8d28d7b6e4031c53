/**
 * Images a server returns are often far larger than a model can use (and than its API accepts).
 * Downsizing here, with `sharp`, is the alternative to writing them to files for library users who
 * hand images to a model. `sharp` is imported lazily so the CLI's cold start never loads libvips.
 */
// @ts-nocheck

import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"

/** Limits for a model-bound image; the defaults follow common vision-model guidance. */
export interface DownsizeOptions {
  /** Longest side in pixels after resizing (default 1568). */
  readonly maxSide?: number
  /** Encoded size budget in bytes (default 1 MiB); over it the image becomes JPEG of falling quality. */
  readonly maxBytes?: number
}

/** The image to hand on; `resized` is false when the input was already within limits and returned as is. */
export interface DownsizedImage {
  readonly data: Buffer
  readonly mimeType: string
  readonly width: number
  readonly height: number
  readonly resized: boolean
}

/** The image could not be decoded or encoded; callers usually fall back to persisting it as a file. */
export class ImageResizeError extends Schema.TaggedError<ImageResizeError>()("ImageResizeError", {
  message: Schema.String,
  mimeType: Schema.String
}) {}

/** 1568 px: the longest side vision models use without downscaling on their end. */
export const DEFAULT_MAX_SIDE = 1568
/** 1 MiB: well under common per-image API limits even after base64 growth (4/3). */
export const DEFAULT_MAX_BYTES = 1024 * 1024

type Sharp = typeof import("sharp")
let sharpModule: Promise<Sharp> | undefined
// sharp is an optional peer dependency: without it every downsize fails with this message (Persist
// then writes the image to a file as usual); importing this module never needs it.
const notInstalled = (error: unknown) =>
  /MODULE_NOT_FOUND/.test(String((error as { code?: unknown } | null)?.code)) && /["']sharp["']/.test(String(error))
const loadSharp = (): Promise<Sharp> => (sharpModule ??= import("sharp").then((m) => m.default, (error: unknown) => {
  throw notInstalled(error) ? new Error("the optional dependency sharp is not installed (npm install sharp)") : error
}))

/** Formats that models accept and that stay in their own format when re-encoded. */
const KEPT = new Set(["png", "jpeg", "webp"])
const MIME: Record<string, string> = { png: "image/png", jpeg: "image/jpeg", webp: "image/webp" }
const JPEG_QUALITIES = [85, 70, 55, 40]

const downsize = async (input: Uint8Array, mimeType: string, options: DownsizeOptions): Promise<DownsizedImage> => {
  const sharp = await loadSharp()
  const maxSide = Math.max(1, Math.floor(options.maxSide ?? DEFAULT_MAX_SIDE))
  const maxBytes = Math.max(1, Math.floor(options.maxBytes ?? DEFAULT_MAX_BYTES))
  const meta = await sharp(input).metadata()
  const width = meta.autoOrient?.width ?? meta.width ?? 0
  const height = meta.autoOrient?.height ?? meta.height ?? 0
  const format = meta.format ?? "unknown"
  const buffer = Buffer.from(input.buffer, input.byteOffset, input.byteLength)
  if (Math.max(width, height) <= maxSide && input.byteLength <= maxBytes && KEPT.has(format) &&
    MIME[format] === mimeType.toLowerCase()) {
    return { data: buffer, mimeType, width, height, resized: false }
  }
  const target = KEPT.has(format) ? format : "png"
  const encode = async (side: number, as: string, quality?: number) => {
    let img = sharp(input).autoOrient().resize({ width: side, height: side, fit: "inside", withoutEnlargement: true })
    if (as === "jpeg") img = img.flatten({ background: "#ffffff" }).jpeg({ quality: quality ?? 80, mozjpeg: true })
    else if (as === "webp") img = img.webp({ quality: quality ?? 80 })
    else img = img.png({ compressionLevel: 9 })
    const { data, info } = await img.toBuffer({ resolveWithObject: true })
    return { data, mimeType: MIME[as]!, width: info.width, height: info.height, resized: true }
  }
  let side = maxSide
  let best = await encode(side, target)
  if (best.data.length <= maxBytes) return best
  // Over the byte budget: JPEG of falling quality, then smaller sides, until it fits or gets silly.
  for (; side >= 64; side = Math.floor(side * 0.75)) {
    for (const quality of JPEG_QUALITIES) {
      best = await encode(side, "jpeg", quality)
      if (best.data.length <= maxBytes) return best
    }
  }
  return best
}

/**
 * Fits an image to `maxSide` (aspect ratio kept, never enlarged) and `maxBytes`, keeping PNG, JPEG
 * and WebP in their format while they fit and falling back to JPEG when they do not, because a
 * model needs a small, decodable image far more than the original's fidelity.
 */
export const downsizeImage = (
  input: Uint8Array,
  mimeType: string,
  options: DownsizeOptions = {}
): Effect.Effect<DownsizedImage, ImageResizeError> =>
  Effect.tryPromise({
    try: () => downsize(input, mimeType, options),
    catch: (error) =>
      new ImageResizeError({
        message: `could not downsize a ${mimeType} image: ${error instanceof Error ? error.message : String(error)}`,
        mimeType
      })
  }).pipe(Effect.withSpan("ImageResize.downsizeImage"))
