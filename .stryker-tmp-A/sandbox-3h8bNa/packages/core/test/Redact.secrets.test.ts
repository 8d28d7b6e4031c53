/** Secrets and files (issue 12): what is printed is built from the settings as written, and mcpctl's files stay its own. */
// @ts-nocheck

import { describe, expect, it } from "@effect/vitest"
import { updateStored } from "@mcpctl/core/internal/auth/TokenStore"
import { ConnectionPool } from "@mcpctl/core/ConnectionPool"
import { McpConfig } from "@mcpctl/core/McpConfig"
import { pruneOnce, toPrune } from "@mcpctl/core/internal/content/OutputRetention"
import { persistBytes } from "@mcpctl/core/internal/content/Persist"
import { displayUrl, redactArgs, redactServerConfig } from "@mcpctl/core/internal/config/Redact"
import { unsafeSettingsMode } from "@mcpctl/core/internal/config/SettingsLoad"
import { Transport } from "@mcpctl/core/Transport"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs"
import * as http from "node:http"
import { tmpdir } from "node:os"
import * as Path from "node:path"

const tmp = () => mkdtempSync(Path.join(tmpdir(), "mcpctl-secrets-"))

const staticServer = (name: string, config: Record<string, unknown>, env: Record<string, string> = {}) =>
  Effect.map(Effect.provide(McpConfig, McpConfig.layerStatic({ servers: { [name]: config as never }, env })), (c) => c.servers[0]!)

describe("messages are built from the settings as written", () => {
  it.effect("a URL that does not parse shows only its scheme, never the expanded ${TOKEN}", () =>
    Effect.gen(function*() {
      const server = yield* staticServer("api", { url: "https://exa mple.com/mcp?key=${TOKEN}" }, { TOKEN: "supersecret123" })
      expect(displayUrl(server)).toBe("https://REDACTED")
      const ok = yield* staticServer("api", { url: "https://x.example/mcp?key=${TOKEN}" }, { TOKEN: "supersecret123" })
      expect(displayUrl(ok)).not.toContain("supersecret123")
    }))

  it.effect("get masks secret-looking arguments", () =>
    Effect.gen(function*() {
      expect(redactArgs(["--api-key=abc123", "--token", "abc123", "--port", "8080", "ghp_0123456789abcdefghijklmn", "--key=${KEY}", "https://u:p@h.example/?t=1"]))
        .toEqual(["--api-key=REDACTED", "--token", "REDACTED", "--port", "8080", "REDACTED", "--key=${KEY}", "https://REDACTED:REDACTED@h.example/?t=REDACTED"])
      const server = yield* staticServer("s", { command: "node", args: ["srv.js", "--password=hunter2"] })
      expect(JSON.stringify(redactServerConfig(server))).not.toContain("hunter2")
    }))
})

describe("settings files others could write are refused, like ssh", () => {
  it("world-writable, or owned by another user", () => {
    expect(unsafeSettingsMode("/p/s.json", { mode: 0o100666, uid: 1000 }, 1000)).toContain("chmod o-w /p/s.json")
    expect(unsafeSettingsMode("/p/s.json", { mode: 0o100644, uid: 1001 }, 1000)).toContain("belongs to another user")
    expect(unsafeSettingsMode("/p/s.json", { mode: 0o100644, uid: 1000 }, 1000)).toBeUndefined()
    expect(unsafeSettingsMode("/p/s.json", { mode: 0o100644, uid: 0 }, 1000)).toBeUndefined()
  })
})

describe("the needs-auth cache is keyed by the server's URL", () => {
  it.scoped("a 401 from one --url server does not block another one of the same name", () =>
    Effect.gen(function*() {
      const home = tmp()
      // A server that refuses everyone with 401.
      const refusing = yield* Effect.acquireRelease(
        Effect.promise(() =>
          new Promise<http.Server>((resolve) => {
            const s = http.createServer((_req, res) => void res.writeHead(401, { "www-authenticate": "Bearer" }).end())
            s.listen(0, "127.0.0.1", () => resolve(s))
          })
        ),
        (s) => Effect.promise(() => new Promise((resolve) => s.close(resolve)))
      )
      const port = (refusing.address() as { port: number }).port
      const stateOf = (url: string) =>
        Effect.scoped(Effect.gen(function*() {
          const config = McpConfig.layerStatic({ servers: { adhoc: { url, type: "http" } }, home })
          const pool = Context.get(yield* Layer.build(ConnectionPool.layer.pipe(Layer.provide(Layer.merge(config, Transport.layer)))), ConnectionPool)
          return (yield* pool.connectAll())[0]!.status
        }))
      expect(yield* stateOf(`http://127.0.0.1:${port}/mcp`)).toBe("needs-auth")
      // Another server of the same name: contacted (and refused by the closed port), not
      // reported needs-auth from the first one's entry.
      expect(yield* stateOf("http://127.0.0.1:9/mcp")).toBe("failed")
      expect(yield* stateOf(`http://127.0.0.1:${port}/mcp`)).toBe("needs-auth")
    }))
})

describe("no symlink is followed inside $MCPCTL_HOME", () => {
  it.effect("a symlinked oauth/ is refused: its target is neither chmod'ed nor written", () =>
    Effect.gen(function*() {
      const home = tmp(), elsewhere = tmp()
      symlinkSync(elsewhere, Path.join(home, "oauth"))
      const before = statSync(elsewhere).mode
      const error = yield* Effect.flip(Effect.tryPromise(() =>
        updateStored(home, "https://api.example/mcp", (s) => ({ ...s, tokens: { access_token: "at", token_type: "bearer" } }))
      ))
      expect(String(error.error)).toContain("is a symbolic link")
      expect(statSync(elsewhere).mode).toBe(before)
      expect(readdirSync(elsewhere)).toEqual([])
    }))

  it.effect("a symlinked outputs/ is refused", () =>
    Effect.gen(function*() {
      const home = tmp(), elsewhere = tmp()
      symlinkSync(elsewhere, Path.join(home, "outputs"))
      const error = yield* Effect.flip(persistBytes(Path.join(home, "outputs"), Buffer.from("png"), "image/png"))
      expect(error.message).toContain("is a symbolic link")
      expect(readdirSync(elsewhere)).toEqual([])
    }))
})

describe("outputs/ has a retention limit", () => {
  it("expired files go first, then the oldest beyond the count or size", () => {
    const day = 24 * 60 * 60 * 1000, now = 100 * day
    const entries = [
      { name: "old", bytes: 1, mtimeMs: now - 40 * day },
      { name: "a", bytes: 1, mtimeMs: now - 3 * day },
      { name: "b", bytes: 1, mtimeMs: now - 2 * day },
      { name: "c", bytes: 1, mtimeMs: now - day }
    ]
    expect(toPrune(entries, now, { maxAgeDays: 30, maxFiles: 2, maxBytes: 100 })).toEqual(["old", "a"])
    expect(toPrune(entries, now, { maxAgeDays: 30, maxFiles: 10, maxBytes: 2 })).toEqual(["old", "a"])
    expect(toPrune(entries.slice(1), now, { maxAgeDays: 30, maxFiles: 10, maxBytes: 100 })).toEqual([])
  })

  it("pruning removes what is past the limit on disk", async () => {
    const dir = Path.join(tmp(), "outputs")
    mkdirSync(dir)
    for (const name of ["1.png", "2.png", "3.png"]) writeFileSync(Path.join(dir, name), "x")
    const old = new Date(Date.now() - 60 * 24 * 60 * 60 * 1000)
    utimesSync(Path.join(dir, "1.png"), old, old)
    await pruneOnce(dir, { maxAgeDays: 30, maxFiles: 1, maxBytes: 100 })
    expect(existsSync(Path.join(dir, "1.png"))).toBe(false)
    expect(readdirSync(dir)).toHaveLength(1)
  })
})
