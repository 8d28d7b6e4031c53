/** The one server identity (pins, era verdicts, needs-auth): what counts as another server. */
// @ts-nocheck

import { describe, expect, it } from "@effect/vitest"
import type { ResolvedServer, ServerConfig } from "@mcpctl/core/ServerConfig"
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { legacyIdentity } from "../src/internal/catalog/PinFiles.js"
import { resolveCommand, serverIdentity, urlIdentity } from "../src/internal/config/ServerIdentity.js"

const resolved = (config: ServerConfig, rawConfig?: ServerConfig, name = "a"): ResolvedServer => ({
  name, originalName: name, scope: "flag", source: "x", transport: "url" in config ? "http" : "stdio", config,
  ...(rawConfig ? { rawConfig } : {})
})

describe("serverIdentity", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "mcpctl-identity-"))
  const bin = path.join(dir, "bin")
  mkdirSync(bin)
  writeFileSync(path.join(bin, "srv"), "#!/bin/sh\n")
  chmodSync(path.join(bin, "srv"), 0o755)
  const context = { projectDir: dir, pathVar: bin }
  const id = (config: Record<string, unknown>, raw?: Record<string, unknown>) =>
    serverIdentity(resolved({ command: "srv", ...config } as ServerConfig, raw ? { command: "srv", ...raw } as ServerConfig : undefined), context)

  it("is what is started: command as PATH finds it, arguments, working directory, the settings' env", () => {
    const base = id({ args: ["main.js"] })
    expect(base).toMatch(/^stdio:[0-9a-f]{64}$/)
    expect(id({ args: ["main.js"] })).toBe(base)
    expect(serverIdentity(resolved({ command: path.join(bin, "srv"), args: ["main.js"] }), context)).toBe(base)
    expect(id({ args: ["other.js"] })).not.toBe(base)
    expect(id({ args: ["main.js"], cwd: "sub" })).not.toBe(base)
    expect(id({ args: ["main.js"], cwd: "." })).toBe(base)
    // The bug this fixes: the same command with other variables is another server.
    expect(id({ args: ["main.js"], env: { MODE: "a" } })).not.toBe(id({ args: ["main.js"], env: { MODE: "b" } }))
    expect(id({ args: ["main.js"], env: { A: "1", B: "2" } })).toBe(id({ args: ["main.js"], env: { B: "2", A: "1" } }))
    // The name is not part of who a server is.
    expect(serverIdentity(resolved({ command: "srv", args: ["main.js"] }, undefined, "b"), context)).toBe(base)
  })

  it("takes env values and arguments as written: a rotated secret (${VAR}) is the same server", () => {
    const written = { env: { TOKEN: "${TOKEN}" } }
    expect(id({ env: { TOKEN: "old-secret" } }, written)).toBe(id({ env: { TOKEN: "new-secret" } }, written))
    expect(id({ env: { TOKEN: "old-secret" } })).not.toBe(id({ env: { TOKEN: "new-secret" } }))
    expect(id({ args: ["--key=s1"] }, { args: ["--key=${KEY}"] })).toBe(id({ args: ["--key=s2"] }, { args: ["--key=${KEY}"] }))
  })

  it("keys a remote server by its address: no user info, fragment or trailing slash, the query hashed; not by headers", () => {
    const u = urlIdentity("https://user:pw@mcp.example.com/mcp/?token=s3cret#frag")
    expect(u).toMatch(/^url:https:\/\/mcp\.example\.com\/mcp\?sha256:[0-9a-f]{16}$/)
    expect(u).not.toContain("s3cret")
    expect(urlIdentity("https://mcp.example.com/mcp?token=other")).not.toBe(u)
    expect(urlIdentity("https://mcp.example.com/")).toBe("url:https://mcp.example.com")
    const remote = (headers: Record<string, string>) => serverIdentity(resolved({ url: "https://mcp.example.com/mcp", headers } as ServerConfig), context)
    expect(remote({ Authorization: "Bearer a" })).toBe(remote({ Authorization: "Bearer b" }))
  })

  it("resolves a bare command on PATH, a path against the working directory", () => {
    expect(resolveCommand("srv", dir, bin)).toBe(path.join(bin, "srv"))
    expect(resolveCommand("./bin/srv", dir, "")).toBe(path.join(bin, "srv"))
    expect(resolveCommand("nowhere", dir, bin)).toBe("nowhere")
  })

  it("keeps version 1's key (the command line alone) for the upgrade", () => {
    writeFileSync(path.join(dir, "main.js"), "")
    const local = resolved({ command: "srv", args: ["./main.js", "--flag", "@scope/pkg"], env: { MODE: "a" } })
    expect(legacyIdentity(local, dir, bin)).toBe(`legacy:${JSON.stringify([path.join(bin, "srv"), path.join(dir, "main.js"), "--flag", "@scope/pkg"])}`)
    expect(legacyIdentity(resolved({ url: "https://u:p@mcp.example.com/mcp?t=1" } as ServerConfig), dir, bin))
      .toMatch(/^legacy:https:\/\/mcp\.example\.com\/mcp\?sha256:[0-9a-f]{16}$/)
  })
})
