// @ts-nocheck
import { describe, expect, it } from "@effect/vitest"
import {
  eraCacheFile,
  eraKey,
  LEGACY_VERDICT_TTL_MS,
  parseVerdicts,
  readVerdict,
  usableVerdict,
  writeVerdict
} from "@mcpctl/core/internal/pool/EraCache"
import { resolveCommand } from "../src/internal/config/ServerIdentity.js"
import { server } from "@mcpctl/testing/Fixtures"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/TestClock"
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"

const home = () => mkdtempSync(path.join(tmpdir(), "mcpctl-eracache-"))

describe("eraKey", () => {
  const env = { PATH: "/usr/bin:/bin", HOME: "/home/u" }
  const stdio = (config: Record<string, unknown>) => eraKey(server("s", { command: "node", ...config } as never), env)

  it("keys a stdio server by what is started: command, arguments, working directory and environment", () => {
    const base = stdio({ args: ["a.js"], cwd: "/tmp" })
    expect(base).toMatch(/^stdio:[0-9a-f]{64}$/)
    expect(stdio({ args: ["a.js"], cwd: "/tmp" })).toBe(base)
    expect(stdio({ args: ["b.js"], cwd: "/tmp" })).not.toBe(base)
    expect(stdio({ args: ["a.js"], cwd: "/var" })).not.toBe(base)
    expect(stdio({ args: ["a.js"], cwd: "/tmp", env: { X: "1" } })).not.toBe(base)
    // The name is not part of it: a server renamed in the settings keeps its verdict.
    expect(eraKey(server("other", { command: "node", args: ["a.js"], cwd: "/tmp" }), env)).toBe(base)
  })

  it("keys a remote server by its address, the query only as a hash", () => {
    expect(eraKey(server("r", { url: "https://mcp.example.com/mcp/" }))).toBe("url:https://mcp.example.com/mcp")
    const withQuery = eraKey(server("r", { url: "https://mcp.example.com/mcp?token=x" }))
    expect(withQuery).toMatch(/^url:https:\/\/mcp\.example\.com\/mcp\?sha256:[0-9a-f]{16}$/)
    expect(withQuery).not.toContain("token")
  })

  it("resolves a bare command on the child's PATH", () => {
    const dir = home()
    const bin = path.join(dir, "bin")
    mkdirSync(bin)
    writeFileSync(path.join(bin, "tool"), "#!/bin/sh\n")
    chmodSync(path.join(bin, "tool"), 0o755)
    expect(resolveCommand("tool", "/", `/nonexistent:${bin}`)).toBe(path.join(bin, "tool"))
    expect(resolveCommand("./x", "/srv", undefined)).toBe("/srv/x")
    expect(resolveCommand("missing-tool", "/", bin)).toBe("missing-tool")
  })
})

describe("verdicts", () => {
  it("keeps well-formed entries only", () => {
    expect(parseVerdicts({ a: { era: "modern", protocolVersion: "2026-07-28", at: 1 }, b: { era: "old", at: 1 }, c: null, d: { era: "legacy" } }))
      .toEqual({ a: { era: "modern", protocolVersion: "2026-07-28", at: 1 } })
    expect(parseVerdicts([1])).toEqual({})
  })

  it("trusts a legacy verdict for a week, a modern one until it fails", () => {
    const verdicts = parseVerdicts({ l: { era: "legacy", at: 0 }, m: { era: "modern", at: 0 } })
    expect(usableVerdict(verdicts, "l", LEGACY_VERDICT_TTL_MS - 1)?.era).toBe("legacy")
    expect(usableVerdict(verdicts, "l", LEGACY_VERDICT_TTL_MS)).toBeUndefined()
    expect(usableVerdict(verdicts, "m", LEGACY_VERDICT_TTL_MS * 10)?.era).toBe("modern")
  })

  it.effect("written, read back, and not rewritten when unchanged", () =>
    Effect.gen(function*() {
      const dir = home()
      yield* TestClock.setTime(1_000)
      yield* writeVerdict(dir, "k", "legacy", "2025-11-25")
      expect(yield* readVerdict(dir, "k")).toEqual({ era: "legacy", protocolVersion: "2025-11-25", at: 1_000 })
      const before = lstatSync(eraCacheFile(dir)).mtimeMs
      yield* TestClock.setTime(2_000)
      yield* writeVerdict(dir, "k", "legacy", "2025-11-25")
      expect(JSON.parse(readFileSync(eraCacheFile(dir), "utf8")).k.at).toBe(1_000)
      expect(lstatSync(eraCacheFile(dir)).mtimeMs).toBe(before)
      yield* writeVerdict(dir, "k", "modern", "2026-07-28")
      expect((yield* readVerdict(dir, "k"))?.era).toBe("modern")
    }))

  it.effect("a symbolic link at the cache's path is not followed: read as empty, replaced on write", () =>
    Effect.gen(function*() {
      const dir = home()
      const target = path.join(dir, "elsewhere.json")
      const original = JSON.stringify({ k: { era: "modern", at: 0 } })
      writeFileSync(target, original)
      symlinkSync(target, eraCacheFile(dir))
      expect(yield* readVerdict(dir, "k")).toBeUndefined()
      yield* writeVerdict(dir, "k", "legacy", undefined)
      expect(readFileSync(target, "utf8")).toBe(original)
      expect(lstatSync(eraCacheFile(dir)).isSymbolicLink()).toBe(false)
      expect((yield* readVerdict(dir, "k"))?.era).toBe("legacy")
    }))
})
