// @ts-nocheck
// Every public module of @mcpctl/core and @mcpctl/testing is named in its package.json `exports`,
// and every name there points at a module that exists, so a new module cannot be forgotten and a
// moved one cannot leave a dangling entry. internal/ is reachable only through the repository's
// own "@mcpctl/source" condition (the CLI bundle and the tests set it; an installed consumer
// does not), never through `types`/`default`.
import { describe, expect, it } from "@effect/vitest"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join, sep } from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("../../../", import.meta.url))

interface Entry {
  readonly "@mcpctl/source": string
  readonly types: string
  readonly default: string
}

/** The one entry allowed beyond the public modules: internal/ for the repository's own code. */
const INTERNAL = "./internal/*"

const modulesOf = (src: string): Array<string> =>
  readdirSync(src, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"))
    .map((file) => file.split(sep).join("/").replace(/\.ts$/, ""))
    .filter((module) => !module.startsWith("internal/"))
    .sort()

describe.each(["packages/core", "packages/testing"])("%s/package.json exports", (name) => {
  const dir = join(root, name)
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
    readonly exports: Record<string, Entry | string>
  }
  const entries = Object.entries(pkg.exports).filter(
    (pair): pair is [string, Entry] => pair[0] !== "./package.json" && pair[0] !== INTERNAL
  )

  it(`names every module under ${name}/src except internal/, as ./<file name> (index as .)`, () => {
    const expected = modulesOf(join(dir, "src")).map((module) => [
      module === "index" ? "." : `./${module.split("/").pop()}`,
      {
        "@mcpctl/source": `./src/${module}.ts`,
        types: `./dist/${module}.d.ts`,
        default: `./dist/${module}.js`
      }
    ])
    expect(entries.sort(([a], [b]) => a.localeCompare(b))).toEqual(
      expected.sort(([a], [b]) => String(a).localeCompare(String(b)))
    )
  })

  it("points every entry at an existing source module, never at internal/", () => {
    for (const [key, entry] of entries) {
      expect(existsSync(join(dir, entry["@mcpctl/source"])), `${key} → ${entry["@mcpctl/source"]}`).toBe(true)
      expect(Object.values(entry).some((path) => path.includes("/internal/")), key).toBe(false)
    }
    expect(pkg.exports["./package.json"]).toBe("./package.json")
  })

  it("opens internal/ to the repository's own condition only: no types, no default", () => {
    const internal = pkg.exports[INTERNAL]
    if (internal !== undefined) expect(internal).toEqual({ "@mcpctl/source": "./src/internal/*.ts" })
  })
})
