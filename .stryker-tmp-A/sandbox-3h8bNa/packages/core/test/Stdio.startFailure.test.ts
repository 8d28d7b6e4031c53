/**
 * A stdio server that dies at start: the connect error names its exit (code or signal) and shows
 * its last stderr lines, whether we learn it from a write into the closed pipe (EPIPE) or from
 * the connection closing; the message is the one the pool builds (`classifyConnectError`).
 */
// @ts-nocheck

import { describe, expect, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/client"
import { Fixtures } from "@mcpctl/testing"
import * as Effect from "effect/Effect"
import type { StdioServerConfig } from "../src/config/ServerConfig.js"
import { classifyConnectError } from "../src/internal/pool/RequestErrors.js"
import { openStdio } from "../src/internal/transport/Stdio.js"

const connectFailure = (name: string, config: StdioServerConfig) =>
  Effect.gen(function* () {
    const server = Fixtures.server(name, config)
    const opened = yield* openStdio(server, config)
    const client = new Client({ name: "mcpctl-test", version: "0.0.0" })
    const cause = yield* Effect.promise(() => client.connect(opened.transport).then(() => undefined, (e: unknown) => e))
    expect(cause).toBeDefined()
    return classifyConnectError(server, { cause, diagnostics: opened.diagnostics() }).error.message
  })

describe("a stdio server that dies at start", () => {
  it.scoped("exits at once: its stderr and its exit code, not a bare EPIPE", () =>
    Effect.gen(function* () {
      const message = yield* connectFailure("dies", {
        command: "sh",
        args: ["-c", "echo 'fatal: cannot open /nowhere/db' >&2; echo 'giving up' >&2; exit 3"]
      })
      expect(message).toContain("fatal: cannot open /nowhere/db")
      expect(message).toContain("giving up")
      expect(message).toContain("exit code 3")
      expect(message).not.toMatch(/failed to connect: write EPIPE$/m)
    }))

  it.scoped("exits a little later (after reading the first message): the same", () =>
    Effect.gen(function* () {
      const message = yield* connectFailure("late", {
        command: "sh",
        args: ["-c", "read -r line; echo 'fatal: bad handshake' >&2; exit 4"]
      })
      expect(message).toContain("fatal: bad handshake")
      expect(message).toContain("exit code 4")
    }))

  it.scoped("killed by a signal: the signal is named", () =>
    Effect.gen(function* () {
      const message = yield* connectFailure("killed", {
        command: process.execPath,
        args: ["-e", "console.error('about to die'); process.kill(process.pid, 'SIGKILL')"]
      })
      expect(message).toContain("about to die")
      expect(message).toContain("killed by SIGKILL")
    }))
})
