// @ts-nocheck
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import sharp from "sharp"
import { downsizeImage } from "../src/internal/content/ImageResize.js"
import { int, mulberry32 } from "./support/random.js"

describe("downsizeImage", () => {
  const png = (width: number, height: number) =>
    sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } }).png().toBuffer()

  it.effect("fits a 4000x3000 PNG into the longest side, keeping PNG and the aspect ratio", () =>
    Effect.gen(function*() {
      const input = yield* Effect.promise(() => png(4000, 3000))
      const out = yield* downsizeImage(input, "image/png")
      expect(Math.max(out.width, out.height)).toBeLessThanOrEqual(1568)
      expect(out).toMatchObject({ mimeType: "image/png", width: 1568, height: 1176, resized: true })
      const meta = yield* Effect.promise(() => sharp(out.data).metadata())
      expect([meta.format, meta.width, meta.height]).toEqual(["png", 1568, 1176])
      const small = yield* downsizeImage(input, "image/png", { maxSide: 500 })
      expect([small.width, small.height]).toEqual([500, 375])
    }))

  it.effect("turns an image over the byte budget into a JPEG within it", () =>
    Effect.gen(function*() {
      const rng = mulberry32(3)
      const raw = Buffer.from(Array.from({ length: 800 * 600 * 3 }, () => int(rng, 0, 255)))
      const noisy = yield* Effect.promise(() => sharp(raw, { raw: { width: 800, height: 600, channels: 3 } }).png().toBuffer())
      expect(noisy.length).toBeGreaterThan(300_000)
      const out = yield* downsizeImage(noisy, "image/png", { maxBytes: 300_000 })
      expect(out.mimeType).toBe("image/jpeg")
      expect(out.data.length).toBeLessThanOrEqual(300_000)
    }))

  it.effect("returns a fitting image as is and fails cleanly on garbage", () =>
    Effect.gen(function*() {
      const input = yield* Effect.promise(() => png(64, 32))
      const out = yield* downsizeImage(input, "image/png")
      expect(out.resized).toBe(false)
      expect(out.data.equals(input)).toBe(true)
      const error = yield* Effect.flip(downsizeImage(Buffer.from("not an image"), "image/png"))
      expect(error._tag).toBe("ImageResizeError")
    }))
})
