// @ts-nocheck
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { createHash } from "node:crypto"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import sharp from "sharp"
import { type ContentItem, type FileContent } from "../src/content/ContentItem.js"
import { extensionFor, persistBinary, persistCallContent } from "../src/internal/content/Persist.js"
import { tempDir } from "./support/files.js"
import { int, mulberry32 } from "./support/random.js"

describe("persistence", () => {
  it("names files by MIME type", () => {
    expect(extensionFor("image/png")).toBe("png")
    expect(extensionFor("image/jpeg")).toBe("jpg")
    expect(extensionFor("audio/mpeg")).toBe("mp3")
    expect(extensionFor("text/plain; charset=utf-8")).toBe("txt")
    expect(extensionFor("application/vnd.api+json")).toBe("json")
    expect(extensionFor("application/x-unknown")).toBe("bin")
  })

  it.scoped("persists a 200 KB image with its exact bytes under a content-addressed name, once", () =>
    Effect.gen(function*() {
      const dir = path.join(yield* tempDir, "outputs")
      const rng = mulberry32(7)
      const bytes = Buffer.from(Array.from({ length: 200 * 1024 }, () => int(rng, 0, 255)))
      const result = { content: [{ type: "text" as const, text: "here" }, { type: "image" as const, data: bytes.toString("base64"), mimeType: "image/png" }] }

      const first = yield* persistCallContent(result, dir)
      expect(first.files).toHaveLength(1)
      const file = first.files[0]!
      const hash = createHash("sha256").update(bytes).digest("hex").slice(0, 16)
      expect(file).toEqual({ type: "file", path: path.join(dir, `${hash}.png`), mimeType: "image/png", bytes: bytes.length, originalType: "image" })
      expect(first.content).toEqual([result.content[0], file])
      const onDisk = yield* Effect.promise(() => fs.readFile(file.path))
      expect(onDisk.equals(bytes)).toBe(true)
      const before = yield* Effect.promise(() => fs.stat(file.path))

      const second = yield* persistCallContent(result, dir)
      expect(second.files).toEqual(first.files)
      const after = yield* Effect.promise(() => fs.stat(file.path))
      expect(after.ino).toBe(before.ino)
      expect(after.mtimeMs).toBe(before.mtimeMs)
      expect(yield* Effect.promise(() => fs.readdir(dir))).toEqual([`${hash}.png`])
    }))

  it.scoped("writes atomically: concurrent writers of one payload leave one file and no temp files", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const data = Buffer.from("x".repeat(300_000)).toString("base64")
      const files = yield* Effect.all(Array.from({ length: 8 }, () => persistBinary(dir, data, "text/plain")), { concurrency: "unbounded" })
      expect(new Set(files.map((f) => f.path)).size).toBe(1)
      expect(yield* Effect.promise(() => fs.readdir(dir))).toEqual([path.basename(files[0]!.path)])
    }))

  it.scoped("persists audio and blob resources, keeps text resources and links inline", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const content: Array<ContentItem> = [
        { type: "audio", data: Buffer.from("RIFF....WAVE").toString("base64"), mimeType: "audio/wav" },
        { type: "resource", resource: { uri: "file:///r.pdf", mimeType: "application/pdf", blob: Buffer.from("%PDF-1.7").toString("base64") } },
        { type: "resource", resource: { uri: "file:///n.txt", text: "inline" } },
        { type: "resource_link", uri: "file:///x", name: "x" }
      ]
      const out = yield* persistCallContent({ content }, dir)
      expect(out.files.map((f) => [f.originalType, path.extname(f.path), f.bytes])).toEqual([["audio", ".wav", 12], ["resource", ".pdf", 8]])
      expect((out.content[1] as FileContent).uri).toBe("file:///r.pdf")
      expect(out.content.slice(2)).toEqual(content.slice(2))
      expect(JSON.stringify(out.content)).not.toContain(Buffer.from("%PDF-1.7").toString("base64"))
    }))

  it.effect("fails with a named error when the directory cannot be written", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(persistBinary("/dev/null/outputs", "QUJD", "image/png"))
      expect(error._tag).toBe("OutputWriteError")
      expect(error.message).toContain("/dev/null/outputs")
    }))
})

describe("persistCallContent with shapeForModel", () => {
  const png = (width: number, height: number) =>
    sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } }).png().toBuffer()

  it.scoped("keeps images inline and downsized for a model when asked, persisting nothing", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const input = yield* Effect.promise(() => png(3000, 1000))
      const out = yield* persistCallContent({ content: [{ type: "image", data: input.toString("base64"), mimeType: "image/png" }] }, dir, {
        shapeForModel: { maxSide: 300 }
      })
      expect(out.files).toEqual([])
      const item = out.content[0] as { type: string; data: string }
      expect(item.type).toBe("image")
      const meta = yield* Effect.promise(() => sharp(Buffer.from(item.data, "base64")).metadata())
      expect([meta.width, meta.height]).toEqual([300, 100])
      expect(yield* Effect.promise(() => fs.readdir(dir))).toEqual([])
    }))
})
