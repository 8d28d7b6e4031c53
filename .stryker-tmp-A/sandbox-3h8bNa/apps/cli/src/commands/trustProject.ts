/**
 * `mcpctl trust --project [DIR]`: trusts a directory's own settings files (`.mcp.json`,
 * `.mcpctl/settings*.json`) as they are now, after showing what they run; `--revoke` forgets it.
 * Scripts and CI trust a checkout once this way, or per run with `MCPCTL_TRUST_PROJECT=1`.
 */
// @ts-nocheck

import { ConfigError, UsageError } from "@mcpctl/core/Errors"
import {
  describeProject,
  forgetTrust,
  projectHash,
  readProjectFiles,
  recordTrust
} from "@mcpctl/core/internal/config/ProjectTrust"
import type { ProjectTrustRequest } from "@mcpctl/core/ServerConfig"
import { parseSettingsText, resolveHome } from "@mcpctl/core/internal/config/SettingsLoad"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Path from "node:path"
import { err, json, out } from "../Render.js"

/** What `--project` does, for DIR (default: `--cwd`, else the current directory). */
export const trustProject = (options: {
  readonly dir: string | undefined
  readonly cwd: string | undefined
  readonly revoke: boolean
  readonly json: boolean
}) =>
  Effect.gen(function*() {
    const dir = Path.resolve(options.dir ?? options.cwd ?? process.cwd())
    const home = resolveHome(process.env)
    if (options.revoke) {
      const was = yield* forgetTrust(home, dir).pipe(
        Effect.mapError((e) => new ConfigError({ message: `could not revoke the trust of ${dir} under ${home}: ${e.message}`, cause: e }))
      )
      if (options.json) return json({ project: dir, trusted: false, revoked: was })
      return out(was ? `${dir} is no longer trusted.` : `${dir} was not trusted.`)
    }
    const files = yield* Effect.tryPromise({
      try: () => readProjectFiles(dir, home),
      catch: (e) => new ConfigError({ message: `${dir}: cannot read its settings files (${String(e)}).`, file: dir, cause: e })
    })
    if (files.length === 0) {
      return yield* new UsageError({
        message: `${dir} has no .mcp.json, .mcpctl/settings.json or .mcpctl/settings.local.json: nothing to trust.`
      })
    }
    const parsed: Array<ProjectTrustRequest["files"][number]> = []
    for (const f of files) {
      const settings = parseSettingsText(f.text, Path.join(dir, f.name))
      if (Either.isLeft(settings)) return yield* settings.left
      parsed.push({ name: f.name, settings: settings.right })
    }
    const request: ProjectTrustRequest = { dir, hash: projectHash(files), files: parsed }
    yield* recordTrust(home, dir, request.hash).pipe(
      Effect.mapError((e) => new ConfigError({ message: `could not write the trust of ${dir} under ${home}: ${e.message}`, cause: e }))
    )
    if (options.json) return json({ project: dir, trusted: true, hash: request.hash, files: files.map((f) => f.name) })
    err(`Trusting ${dir}; its servers start and its rules apply until these files change:\n${describeProject(request)}`)
    out(`Trusted ${dir}.`)
  })
