/**
 * What a cold start loads: the schema engine's Ajv and re2js, and the SDK's own Ajv copy, live in
 * bin/schema-deps.cjs, required on first use (build.mjs), not in the main bundle; an inline
 * output-schema check still loads and runs them.
 */
import { afterAll, describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import * as fixtures from "@mcpctl/testing/Fixtures"
import { cliBin, repoRoot, run, runCommand, slow, workspace } from "./support.js"

const ws = workspace()
afterAll(() => ws.cleanup())
const bin = (file: string) => readFileSync(join(repoRoot, "apps/cli/bin", file), "utf8")
// Texts from Ajv's code generator and re2js's parser that no other module has.
const ajvText = "CodeGen: name must be a valid identifier"
const re2Text = "missing closing )"

describe("the CLI bundle's lazy parts", () => {
  it("keeps Ajv and re2js out of the main bundle, in schema-deps.cjs", () => {
    const main = bin("mcpctl.cjs")
    const deps = bin("schema-deps.cjs")
    expect(deps).toContain(ajvText)
    expect(deps).toContain(re2Text)
    expect(main).not.toContain(ajvText)
    expect(main).not.toContain(re2Text)
  })

  it("a tools run on a stdio server loads none of Node's HTTP, worker or readline modules", async () => {
    const list = join(ws.dir, "modules.txt")
    const preload = ws.settings("modules.cjs", `process.on("exit", () => require("fs").writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.join("\\n")))`)
    const settings = ws.settings("echo.json", { mcpServers: { echo: { command: process.execPath, args: [fixtures.echoServer] } } })
    const r = await runCommand(process.execPath, ["-r", preload, cliBin, "tools", "--json", "--no-daemon", "--config", settings], {
      cwd: ws.project, env: { ...process.env, MCPCTL_HOME: ws.home }
    })
    expect(r.status, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout).tools.length).toBeGreaterThan(0)
    const loaded = readFileSync(list, "utf8").split("\n")
    expect(loaded).toContain("NativeModule child_process")
    for (const m of ["http", "https", "worker_threads", "readline"]) expect(loaded).not.toContain(`NativeModule ${m}`)
  }, slow(60_000))

  it("checks a small result inline against its output schema (loaded on first use)", async () => {
    const settings = ws.settings("bombs.json", {
      mcpServers: { b: { command: process.execPath, args: [join(repoRoot, "packages/core/test/support/schemaBombServer.mjs")] } },
      permissions: { allow: ["mcp__b__*"] }
    })
    const ok = await run(["call", "mcp__b__unique", "count=3", "--config", settings, "--json", "--no-daemon"], { home: ws.home, cwd: ws.project })
    expect(ok.code).toBe(0)
    expect(JSON.parse(ok.stdout).structuredContent.items).toHaveLength(3)
    const dup = await run(["call", "mcp__b__unique", "count=3", "duplicate=true", "--config", settings, "--json", "--no-daemon"], { home: ws.home, cwd: ws.project })
    expect(dup.code).toBe(4)
    expect(JSON.parse(dup.stdout).error.message).toMatch(/must NOT have duplicate items/)
  }, slow(60_000))
})
