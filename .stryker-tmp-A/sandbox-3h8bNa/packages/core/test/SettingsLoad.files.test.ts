/** SettingsLoad on what is not an ordinary settings file or value: size limits, FIFOs, devices. */
// @ts-nocheck

import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { execFileSync } from "node:child_process"
import { mkdtemp } from "node:fs/promises"
import { tmpdir } from "node:os"
import * as Path from "node:path"
import * as SettingsLoad from "../src/internal/config/SettingsLoad.js"
import { removeServerEntry } from "../src/internal/config/SettingsFile.js"

const left = <A, E>(e: Either.Either<A, E>): E => {
  if (Either.isRight(e)) throw new Error(`expected Left, got ${JSON.stringify(e.right)}`)
  return e.left
}
const right = <A, E>(e: Either.Either<A, E>): A => {
  if (Either.isLeft(e)) throw new Error(`expected Right, got ${String((e.left as { message?: string }).message ?? e.left)}`)
  return e.right
}

describe("limitsFromEnv: the response size limit", () => {
  it("defaults to 32 MiB and reads MCPCTL_MAX_RESPONSE_BYTES", () => {
    expect(right(SettingsLoad.limitsFromEnv({})).maxResponseBytes).toBe(33_554_432)
    expect(right(SettingsLoad.limitsFromEnv({ MCPCTL_MAX_RESPONSE_BYTES: "1048576" })).maxResponseBytes).toBe(1_048_576)
    expect(left(SettingsLoad.limitsFromEnv({ MCPCTL_MAX_RESPONSE_BYTES: "32MiB" })).message).toContain("MCPCTL_MAX_RESPONSE_BYTES")
  })
})

describe("settings that are not regular files", () => {
  it.effect("a FIFO given with --config is refused at once, naming it; so is one in a scope's place", () =>
    Effect.gen(function*() {
      const dir = yield* Effect.promise(() => mkdtemp(Path.join(tmpdir(), "mcpctl-fifo-")))
      const fifo = Path.join(dir, "settings.json")
      execFileSync("mkfifo", [fifo])
      const started = Date.now()
      const flag = yield* Effect.flip(SettingsLoad.load({ cwd: dir, home: Path.join(dir, "home"), env: {}, configFiles: [fifo] }))
      expect(flag.message).toBe(
        `${fifo}: cannot read settings: ${fifo} is a FIFO (named pipe), not a regular file. ` +
          "Settings must be a regular JSON file; check the --config path."
      )
      const project = Path.join(dir, ".mcp.json")
      execFileSync("mkfifo", [project])
      const scoped = yield* Effect.flip(SettingsLoad.load({ cwd: dir, home: Path.join(dir, "home"), env: {} }))
      expect(scoped.message).toMatch(/\.mcp\.json is a FIFO \(named pipe\), not a regular file\. Settings must be a regular JSON file; remove or replace it\./)
      const edit = yield* Effect.flip(removeServerEntry(project, "x"))
      expect(edit.message).toMatch(/is a FIFO \(named pipe\), not a regular file/)
      expect(Date.now() - started).toBeLessThan(2_000)
    }))

  it.effect("a device is refused too (reading /dev/zero would never end)", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(SettingsLoad.load({ home: "/nonexistent-home", env: {}, configFiles: ["/dev/zero"] }))
      expect(error.message).toMatch(/\/dev\/zero is a character device, not a regular file/)
    }))
})
