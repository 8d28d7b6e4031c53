/**
 * The packages as a user gets them: `npm pack` core, testing and the CLI (built by
 * package.globalSetup.ts), install the tarballs into fresh temp dirs from the registry or npm's
 * cache, then
 * - type-check the README's Library code block, copied verbatim, as a consumer would (strict,
 *   NodeNext, no custom conditions) and run it with plain node;
 * - check that only public modules resolve, all from dist/, and that a missing sharp is a clear error;
 * - install the CLI globally into a temp prefix: its size, `--version`, and `tools` on the echo
 *   fixture server shipped in the installed @mcpctl/testing.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { execFile, spawn } from "node:child_process"
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { figureHolds, packageFigures } from "./figures.js"

const root = fileURLToPath(new URL("..", import.meta.url))
const tsc = join(root, "node_modules/typescript/bin/tsc")
const MAX_CLI_INSTALL_BYTES = 40 * 1024 * 1024

interface PackedFile {
  readonly path: string
}
interface Packed {
  readonly name: string
  readonly filename: string
  readonly size: number
  readonly unpackedSize: number
  readonly files: ReadonlyArray<PackedFile>
}
interface ExportEntry {
  readonly "@mcpctl/source": string
  readonly types: string
  readonly default: string
}

// Nothing of the outer `npm test` (npm_config_*, npm_package_*) leaks into the npm runs here.
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)))

const run = (
  command: string,
  args: ReadonlyArray<string>,
  options: { readonly cwd: string; readonly env?: Record<string, string> }
) =>
  new Promise<{ readonly code: number; readonly stdout: string; readonly stderr: string }>((resolve) => {
    execFile(
      command,
      args,
      { cwd: options.cwd, env: { ...cleanEnv, ...options.env }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) || 1 : 0, stdout, stderr })
    )
  })

const ok = async (command: string, args: ReadonlyArray<string>, options: { readonly cwd: string; readonly env?: Record<string, string> }) => {
  const result = await run(command, args, options)
  if (result.code !== 0) {
    throw new Error(`${command} ${args.join(" ")} exited ${result.code}\n${result.stdout}\n${result.stderr}`)
  }
  return result.stdout
}

const npm = (args: ReadonlyArray<string>, cwd: string) =>
  ok("npm", [...args, "--prefer-offline", "--no-audit", "--no-fund"], { cwd })

/** The first ```ts block between the `## Library` heading and the next heading of README.md. */
const readmeLibraryBlock = (): string => {
  const lines = readFileSync(join(root, "README.md"), "utf8").split("\n")
  const start = lines.indexOf("## Library")
  expect(start, "README.md has a `## Library` heading").toBeGreaterThanOrEqual(0)
  const blocks: Array<string> = []
  let block: Array<string> | undefined
  for (const line of lines.slice(start + 1)) {
    if (block === undefined && /^#{1,6} /.test(line)) break
    if (block === undefined && line.startsWith("```")) block = line === "```ts" ? [] : ["not ts"]
    else if (block !== undefined && line.startsWith("```")) {
      if (block[0] !== "not ts") blocks.push(block.join("\n") + "\n")
      block = undefined
    } else block?.push(line)
  }
  expect(blocks, "one ```ts block in the Library section").toHaveLength(1)
  return blocks[0]!
}

/** Bytes of every file under `dir` (apparent sizes, symlinks not followed). */
const treeSize = (dir: string): number =>
  readdirSync(dir, { recursive: true, encoding: "utf8" }).reduce((sum, file) => {
    const stat = lstatSync(join(dir, file))
    return stat.isFile() ? sum + stat.size : sum
  }, 0)

const exportsOf = (dir: string) =>
  Object.entries((JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
    readonly exports: Record<string, ExportEntry | string>
  }).exports)

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1)

describe("the packed packages, installed as a user installs them", () => {
  let tmp: string
  let consumer: string // a project with @mcpctl/core and @mcpctl/testing installed (no sharp)
  let prefix: string // `npm install -g --prefix` of the CLI
  let packed: Record<string, Packed>

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), "mcpctl-package-"))
    consumer = join(tmp, "consumer")
    prefix = join(tmp, "global")
    for (const dir of [consumer, prefix, join(tmp, "tarballs"), join(tmp, "home"), join(tmp, "work")]) mkdirSync(dir)
    // --ignore-scripts: the setup built everything already, and a prepack would rebuild the CLI
    // bundle while the cli project's tests are running it.
    const list = JSON.parse(
      await npm(
        ["pack", "-w", "packages/core", "-w", "packages/testing", "-w", "apps/cli", "--ignore-scripts", "--json",
          "--pack-destination", join(tmp, "tarballs")],
        root
      )
    ) as ReadonlyArray<Packed>
    packed = Object.fromEntries(list.map((p) => [p.name, p]))
    const tarball = (name: string) => join(tmp, "tarballs", packed[name]!.filename)
    writeFileSync(join(consumer, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }))
    await Promise.all([
      npm(["install", tarball("@mcpctl/core"), tarball("@mcpctl/testing")], consumer),
      npm(["install", "-g", "--prefix", prefix, tarball("mcpctl")], tmp)
    ])
  })

  afterAll(() => {
    if (tmp) rmSync(tmp, { recursive: true, force: true })
  })

  it("ships dist/ only (the CLI: its bin and bundle), with every exports target", () => {
    console.log(
      Object.values(packed).map((p) => `${p.name}: ${mb(p.size)} MB packed, ${mb(p.unpackedSize)} MB unpacked, ${p.files.length} files`)
        .join("; ")
    )
    for (const [name, dir] of [["@mcpctl/core", "packages/core"], ["@mcpctl/testing", "packages/testing"]] as const) {
      const files = new Set(packed[name]!.files.map((f) => f.path))
      expect([...files].filter((f) => f !== "package.json" && !f.startsWith("dist/")), name).toEqual([])
      for (const [key, entry] of exportsOf(join(root, dir))) {
        // `./internal/*` has only the repository's condition: nothing of it ships.
        if (typeof entry === "string" || key.includes("*")) continue
        expect(files.has(entry.types.slice(2)), `${name} ${key} types ${entry.types}`).toBe(true)
        expect(files.has(entry.default.slice(2)), `${name} ${key} default ${entry.default}`).toBe(true)
        expect(files.has(entry["@mcpctl/source"].slice(2)), `${name} ${key} source`).toBe(false)
      }
    }
    const testingFiles = packed["@mcpctl/testing"]!.files.map((f) => f.path)
    for (const fixture of ["echo-server.mjs", "stubborn-server.mjs", "stubborn-wrapper.sh", "v2-catalog.mjs", "v2-http-server.mjs", "v2-stdio-server.mjs"]) {
      expect(testingFiles).toContain(`dist/fixtures/${fixture}`)
    }
    expect(packed["mcpctl"]!.files.map((f) => f.path).sort()).toEqual(
      ["bin/complete.cjs", "bin/mcpctl.cjs", "bin/mcpctl.cjs.cache", "bin/mcpctl.mjs", "bin/metrics.cjs", "bin/relay.mjs", "bin/schema-deps.cjs", "bin/schema-worker.cjs", "bin/server.cjs", "bin/undici.cjs", "package.json"]
    )
  })

  it("imports only node: modules, its own files and its declared dependencies in what it ships", () => {
    for (const name of ["@mcpctl/core", "@mcpctl/testing"]) {
      const installed = join(consumer, "node_modules", name)
      const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8")) as {
        readonly dependencies?: Record<string, string>
        readonly peerDependencies?: Record<string, string>
      }
      const declared = new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})])
      const undeclared = new Set<string>()
      for (const { path } of packed[name]!.files.filter((f) => /\.(d\.ts|js|mjs)$/.test(f.path))) {
        const text = readFileSync(join(installed, path), "utf8")
        for (const [, specifier] of text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*"([^"]+)"/g)) {
          if (specifier!.startsWith(".") || specifier!.startsWith("node:")) continue
          const pkg = specifier!.split("/").slice(0, specifier!.startsWith("@") ? 2 : 1).join("/")
          if (!declared.has(pkg)) undeclared.add(`${path}: ${specifier}`)
        }
      }
      expect([...undeclared], name).toEqual([])
    }
  })

  it("runs the README's Library example verbatim: tsc as a strict NodeNext consumer, then plain node", async () => {
    const code = readmeLibraryBlock()
    writeFileSync(join(consumer, "library.ts"), code)
    writeFileSync(
      join(consumer, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: "NodeNext",
          moduleResolution: "NodeNext",
          target: "ES2022",
          // As most consumers (and `tsc --init`) have it: checking effect's own .d.ts files would
          // triple the time. What our .d.ts files import is checked below, in "imports only …".
          skipLibCheck: true,
          // @types/node is the consumer's own business; the repository's copy stands in for it.
          types: ["node"],
          typeRoots: [join(root, "node_modules/@types")]
        },
        files: ["library.ts"]
      })
    )
    await ok(process.execPath, [tsc, "-p", consumer], { cwd: consumer })
    // The example's McpConfig.layerStatic has no home, so it resolves $HOME/.mcpctl: a HOME of
    // its own keeps the run out of the developer's (test/hermeticHome.ts does not run here).
    const stdout = await ok(process.execPath, ["library.js"], { cwd: consumer, env: { HOME: join(consumer, "home") } })
    const expected = "[ 'mcp__notes__search' ] [ { type: 'text', text: 'found effect' } ]"
    expect(stdout.trim()).toBe(expected)
    expect(code, "the README shows what the example prints").toContain(`// ${expected}`)
  })

  it("resolves every public module from dist/, internal/ is not exported, no sharp is a clear error", async () => {
    writeFileSync(
      join(consumer, "check.mjs"),
      `import { readFileSync } from "node:fs"
const resolved = {}
for (const name of ["@mcpctl/core", "@mcpctl/testing"]) {
  const pkg = JSON.parse(readFileSync(new URL("./node_modules/" + name + "/package.json", import.meta.url), "utf8"))
  for (const key of Object.keys(pkg.exports).filter((key) => !key.includes("*"))) {
    const specifier = name + key.slice(1)
    resolved[specifier] = import.meta.resolve(specifier)
    if (key !== "./package.json") await import(specifier)
  }
}
const failure = (specifier) => import(specifier).then(() => "loaded", (error) => error.code)
const { Effect } = await import("effect")
// ImageResize is internal (not exported): its shipped file, by path, still says what is missing.
const { downsizeImage } = await import(new URL("./node_modules/@mcpctl/core/dist/internal/content/ImageResize.js", import.meta.url).href)
const { echoServer } = await import("@mcpctl/testing/Fixtures")
console.log(JSON.stringify({
  resolved,
  internal: await failure("@mcpctl/core/internal/files"),
  internalByPath: await failure("@mcpctl/core/dist/internal/files.js"),
  echoServer,
  withoutSharp: await Effect.runPromise(Effect.flip(downsizeImage(new Uint8Array(8), "image/png"))).then((e) => e.message)
}))
`
    )
    const out = JSON.parse(await ok(process.execPath, ["check.mjs"], { cwd: consumer })) as {
      readonly resolved: Record<string, string>
      readonly internal: string
      readonly internalByPath: string
      readonly echoServer: string
      readonly withoutSharp: string
    }
    for (const [name, dir] of [["@mcpctl/core", "packages/core"], ["@mcpctl/testing", "packages/testing"]] as const) {
      const installed = join(consumer, "node_modules", name)
      for (const [key, entry] of exportsOf(join(root, dir)).filter(([key]) => !key.includes("*"))) {
        const target = typeof entry === "string" ? entry : entry.default
        expect(out.resolved[name + key.slice(1)]).toBe(pathToFileURL(join(installed, target)).href)
      }
    }
    expect(out.internal).toBe("ERR_PACKAGE_PATH_NOT_EXPORTED")
    expect(out.internalByPath).toBe("ERR_PACKAGE_PATH_NOT_EXPORTED")
    expect(out.echoServer).toBe(join(consumer, "node_modules/@mcpctl/testing/dist/fixtures/echo-server.mjs"))
    expect(existsSync(out.echoServer)).toBe(true)
    // sharp is an optional peer of core: not installed here, and only downsizing needs it.
    expect(existsSync(join(consumer, "node_modules/sharp"))).toBe(false)
    expect(out.withoutSharp).toContain("the optional dependency sharp is not installed (npm install sharp)")
    // The repository-only condition points at src/, which is not shipped: it fails, never loads TypeScript.
    const withSource = await run(process.execPath, ["--conditions=@mcpctl/source", "--input-type=module", "-e", `await import("@mcpctl/core")`], {
      cwd: consumer
    })
    expect(withSource.code).not.toBe(0)
    expect(withSource.stderr).toContain("ERR_MODULE_NOT_FOUND")
  })

  it("states in docs/library.md the tarball and installed sizes it measures (each within 8%)", () => {
    const written = packageFigures(readFileSync(join(root, "docs/library.md"), "utf8"))
    const libraries = treeSize(join(consumer, "node_modules"))
    const measured: Record<string, { tarball: number; installed: number }> = {
      "@mcpctl/core": { tarball: packed["@mcpctl/core"]!.size, installed: libraries },
      "@mcpctl/testing": { tarball: packed["@mcpctl/testing"]!.size, installed: libraries },
      mcpctl: { tarball: packed["mcpctl"]!.size, installed: treeSize(join(prefix, "lib", "node_modules")) }
    }
    const MB = 1024 * 1024
    const drifted = Object.entries(measured).flatMap(([name, m]) => {
      const w = written.get(name)
      if (w === undefined) return [`${name}: no row in the table`]
      return [
        ...(figureHolds(w.tarballMb, m.tarball / MB) ? [] : [`${name} tarball: written ${w.tarballMb} MB, measured ${(m.tarball / MB).toFixed(2)} MB`]),
        ...(figureHolds(w.installedMb, m.installed / MB) ? [] : [`${name} installed: written ${w.installedMb} MB, measured ${(m.installed / MB).toFixed(0)} MB`])
      ]
    })
    console.log(Object.entries(measured).map(([n, m]) => `${n}: tarball ${(m.tarball / MB).toFixed(2)} MB, installed ${(m.installed / MB).toFixed(0)} MB`).join("; "))
    expect(drifted, "update the package table of docs/library.md to the measured figures").toEqual([])
  })

  it("reads the package table's figures, and holds a figure to 8% or its rounding", () => {
    const table = "| package | ships | deps | tarball | installed |\n| --- | --- | --- | --- | --- |\n" +
      "| `@mcpctl/core` | `dist/` | `a`, `b \\| c` | 0.23 MB | 76 MB |\n| `mcpctl` (CLI) | bin | none | 1.8 MB | 24 MB |\n\nafter"
    expect([...packageFigures(table)]).toEqual([["@mcpctl/core", { tarballMb: 0.23, installedMb: 76 }], ["mcpctl", { tarballMb: 1.8, installedMb: 24 }]])
    expect(figureHolds(69, 76)).toBe(false)
    expect(figureHolds(0.09, 0.23)).toBe(false)
    expect(figureHolds(74, 76)).toBe(true)
    expect(figureHolds(0.01, 0.025)).toBe(true)
  })

  it("installs the CLI globally within 40 MB, with only sharp (optional) as a dependency, and it works", async () => {
    const modules = join(prefix, "lib", "node_modules")
    const size = treeSize(modules)
    console.log(`npm install -g mcpctl: ${mb(size)} MB in ${modules}`)
    expect(size).toBeLessThanOrEqual(MAX_CLI_INSTALL_BYTES)
    const manifest = JSON.parse(readFileSync(join(modules, "mcpctl", "package.json"), "utf8")) as {
      readonly version: string
      readonly dependencies?: unknown
      readonly optionalDependencies?: Record<string, string>
    }
    expect(manifest.dependencies).toBeUndefined()
    expect(Object.keys(manifest.optionalDependencies ?? {})).toEqual(["sharp"])

    const mcpctl = join(prefix, "bin", "mcpctl")
    const env = { MCPCTL_HOME: join(tmp, "home") }
    expect((await ok(mcpctl, ["--version"], { cwd: join(tmp, "work"), env })).trim()).toBe(manifest.version)
    // examples/settings.json starts servers from the repository's node_modules; this one is the
    // echo fixture shipped in the installed @mcpctl/testing, and its SDK v2 stdio server (whose
    // SDK v2 dependencies come with the package).
    const settings = join(tmp, "settings.json")
    const echoServer = join(consumer, "node_modules/@mcpctl/testing/dist/fixtures/echo-server.mjs")
    const v2Server = join(consumer, "node_modules/@mcpctl/testing/dist/fixtures/v2-stdio-server.mjs")
    writeFileSync(settings, JSON.stringify({
      mcpServers: { echo: { command: "node", args: [echoServer] }, v2: { command: "node", args: [v2Server] } }
    }))
    const tools = JSON.parse(await ok(mcpctl, ["tools", "--config", settings, "--json"], { cwd: join(tmp, "work"), env })) as {
      readonly tools: ReadonlyArray<{ readonly name: string }>
      readonly errors: ReadonlyArray<unknown>
    }
    expect(tools.errors).toEqual([])
    expect(tools.tools.map((t) => t.name)).toContain("mcp__echo__echo")
    expect(tools.tools.map((t) => t.name)).toContain("mcp__v2__regional_echo")

    // serve's server side is a file of its own (bin/server.cjs), loaded by serve only.
    const served = await new Promise<string>((resolve, reject) => {
      const child = spawn(mcpctl, ["serve", "--config", settings], {
        cwd: join(tmp, "work"),
        env: { ...cleanEnv, ...env },
        stdio: ["pipe", "pipe", "ignore"]
      })
      let out = ""
      child.stdout.on("data", (chunk) => {
        out += chunk
        if (out.includes(`"id":2`)) child.stdin.end()
      })
      child.on("error", reject)
      child.on("exit", () => resolve(out))
      const message = (m: object) => JSON.stringify({ jsonrpc: "2.0", ...m }) + "\n"
      child.stdin.write(
        message({ id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } }) +
          message({ method: "notifications/initialized" }) + message({ id: 2, method: "tools/list" })
      )
    })
    expect(served).toContain(`"name":"mcp__echo__echo"`)
  })

  it("examples/library.ts (run by the testing project) is the README block, exported", () => {
    // Comments and `export` aside, the example has the README block up to where the block runs it.
    const normalize = (code: string) =>
      code.split("\n").map((line) => line.replace(/\/\/.*$/, "").replace(/^export /, "").trimEnd()).filter(Boolean)
    const readme = normalize(readmeLibraryBlock())
    const runs = readme.findIndex((line) => line.includes("Effect.runPromise"))
    expect(runs).toBeGreaterThan(0)
    const body = readme.slice(0, runs)
    const example = normalize(readFileSync(join(root, "examples/library.ts"), "utf8"))
    expect(example.slice(0, body.length)).toEqual(body)
  })
})
