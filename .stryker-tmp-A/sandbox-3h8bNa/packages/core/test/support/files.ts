/** Temporary directories and file checks shared by the core tests that touch the disk. */
// @ts-nocheck

import * as Effect from "effect/Effect"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"

/** A fresh empty directory under the system temp directory (an `$MCPCTL_HOME`, an output dir). */
export const tmpHome = (prefix = "mcpctl-auth-") => Effect.promise(() => fs.mkdtemp(path.join(os.tmpdir(), prefix)))

/** The permission bits of a file or directory (0o600, 0o700, …). */
export const mode = (file: string) => Effect.promise(() => fs.stat(file)).pipe(Effect.map((s) => s.mode & 0o777))

export const readJson = (file: string) => Effect.promise(async () => JSON.parse(await fs.readFile(file, "utf8")))

/** Temp and lock files an atomic write must not leave behind. */
export const leftovers = (dir: string) =>
  Effect.promise(() => fs.readdir(dir)).pipe(Effect.map((names) => names.filter((n) => /\.tmp$|\.lock$/.test(n))))

/** A temp project dir (with `.mcpctl/`) and home dir, removed after the effect. */
export const withDirs = <A, E>(f: (d: { root: string; project: string; home: string }) => Effect.Effect<A, E>) =>
  Effect.acquireUseRelease(
    Effect.promise(async () => {
      const root = await fs.mkdtemp(path.join(os.tmpdir(), "mcpctl-config-"))
      const project = path.join(root, "project"), home = path.join(root, "home")
      await fs.mkdir(path.join(project, ".mcpctl"), { recursive: true })
      await fs.mkdir(home, { recursive: true })
      return { root, project, home }
    }),
    f,
    ({ root }) => Effect.promise(() => fs.rm(root, { recursive: true, force: true }))
  )

/** Writes a settings file: a string as is, anything else as JSON. */
export const put = (file: string, value: unknown) =>
  Effect.promise(() => fs.writeFile(file, typeof value === "string" ? value : JSON.stringify(value)))

/** A temp directory for the test's scope, removed when the scope closes. */
export const tempDir = Effect.acquireRelease(
  Effect.promise(() => fs.mkdtemp(path.join(os.tmpdir(), "mcpctl-content-"))),
  (dir) => Effect.promise(() => fs.rm(dir, { recursive: true, force: true }))
)
