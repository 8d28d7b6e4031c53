/**
 * Who a server is, whatever it is called in the settings: the one identity that the pins, the era
 * cache and the needs-auth cache are keyed by (the catalogue cache adds the name and the entry).
 *
 * - stdio: what is started: the command as the child's `PATH` finds it, the working directory, and
 *   the arguments and the settings' `env` as written (`${VAR}` unexpanded, so a rotated secret
 *   keeps the pins, while `MODE=a` and `MODE=b` are two servers). The inherited
 *   environment (HOME, TERM, LANG…) is not part of it: a terminal of another kind is no other
 *   server. Hashed: `stdio:<sha256>`.
 * - remote: the URL without user info or fragment, a trailing `/` dropped, the query only as a
 *   hash (tokens travel there): `url:https://host/path?sha256:…`. Headers are not part of it: they
 *   carry credentials, and who answers at an address does not change with them.
 *
 * Pure but for the `PATH` lookup of the command.
 */
// @ts-nocheck

import { createHash } from "node:crypto"
import { accessSync, constants, statSync } from "node:fs"
import * as Path from "node:path"
import type { ResolvedServer } from "../../config/ServerConfig.js"

const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex")

const isExecutableFile = (file: string): boolean => {
  try {
    if (!statSync(file).isFile()) return false
    accessSync(file, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/** A command as the shell would find it: a path made absolute against `cwd`, a bare name looked up on `pathVar`. */
export const resolveCommand = (command: string, cwd: string, pathVar: string | undefined): string => {
  if (command.includes("/") || command.includes("\\")) return Path.resolve(cwd, command)
  for (const dir of (pathVar ?? "").split(Path.delimiter)) {
    if (dir === "") continue
    const candidate = Path.resolve(cwd, dir, command)
    if (isExecutableFile(candidate)) return candidate
  }
  return command
}

/** Where the identity of a stdio server is judged from. */
export interface IdentityContext {
  /** The directory a server without `cwd` starts in (and a relative `cwd` is resolved against). */
  readonly projectDir: string
  /** The parent's `PATH` (the settings' `env.PATH` wins, as at spawn). */
  readonly pathVar: string | undefined
}

const sortedEntries = (record: Readonly<Record<string, string>> | undefined): Array<[string, string]> =>
  Object.entries(record ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))

/** A remote server's address as identity: no user info or fragment, no trailing `/`, the query hashed. */
export const urlIdentity = (url: string): string => {
  try {
    const u = new URL(url)
    const path = u.pathname.length > 1 ? u.pathname.replace(/\/+$/, "") : ""
    const query = u.search ? `?sha256:${sha256(u.search).slice(0, 16)}` : ""
    return `url:${u.protocol}//${u.host}${path}${query}`
  } catch {
    return `url:${url}`
  }
}

/** The identity of a server (see the module's comment). */
export const serverIdentity = (server: ResolvedServer, context: IdentityContext): string => {
  const config = server.config
  if ("url" in config) return urlIdentity(config.url)
  const raw = server.rawConfig !== undefined && "command" in server.rawConfig ? server.rawConfig : config
  const cwd = Path.resolve(context.projectDir, config.cwd ?? ".")
  const what = JSON.stringify({
    command: resolveCommand(config.command, cwd, config.env?.PATH ?? context.pathVar),
    args: raw.args ?? [],
    cwd,
    env: sortedEntries(raw.env)
  })
  return `stdio:${sha256(what)}`
}

/** A short file-safe name of an identity (its sha256, hex). */
export const identityFileName = (identity: string): string => sha256(identity)
