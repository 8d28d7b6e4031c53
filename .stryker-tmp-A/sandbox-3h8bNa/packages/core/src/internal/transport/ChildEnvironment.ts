/**
 * The environment a stdio server starts with, as a policy of its own: which parent variables it
 * inherits (a short safe list, never secrets) and how the settings' `env` adds to them. Pure, so
 * the rule is tested without spawning anything; `StdioProcess.ts` applies it at spawn and
 * re-exports it.
 */
// @ts-nocheck


/**
 * Parent variables a stdio server inherits without being asked. Servers get the parent's secrets
 * (API keys, cloud credentials, tokens) only when the settings name them in `env`
 * (`"GITHUB_TOKEN": "${GITHUB_TOKEN}"`), as the SDK and other hosts do.
 *
 * - HOME, LOGNAME, PATH, SHELL, TERM, USER: the SDK's `getDefaultEnvironment()` list (sudo's
 *   default keep-list); `npx`, `uvx` and most servers need HOME and PATH to work at all.
 * - LANG, LC_ALL, LC_CTYPE, TZ: locale and time zone; affect text encoding and dates, carry no data.
 * - TMPDIR: where the user wants temporary files (macOS sets a per-user one).
 * - NODE_EXTRA_CA_CERTS: a file path, not a secret; behind corporate TLS proxies `npx` cannot
 *   reach the registry without it.
 * - Not HTTP(S)_PROXY / ALL_PROXY: proxy URLs often embed credentials; name them in `env`.
 */
export const inheritedVariables: ReadonlyArray<string> = [
  "HOME",
  "LOGNAME",
  "PATH",
  "SHELL",
  "TERM",
  "USER",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "TZ",
  "TMPDIR",
  "NODE_EXTRA_CA_CERTS"
]

/** Windows needs these to start anything at all (the SDK's Windows list). */
const windowsVariables: ReadonlyArray<string> = [
  "APPDATA",
  "HOMEDRIVE",
  "HOMEPATH",
  "LOCALAPPDATA",
  "PATH",
  "PROCESSOR_ARCHITECTURE",
  "SYSTEMDRIVE",
  "SYSTEMROOT",
  "TEMP",
  "USERNAME",
  "USERPROFILE",
  "PROGRAMFILES"
]

/**
 * The environment of a stdio server: the safe default set from the parent plus the settings'
 * `env` on top. A pure function so the rule "secrets are never passed implicitly" is testable.
 * Values starting with `()` (exported shell functions) are never inherited.
 */
export const childEnvironment = (
  parent: Readonly<Record<string, string | undefined>>,
  configEnv: Readonly<Record<string, string>> | undefined,
  platform: NodeJS.Platform = process.platform
): Record<string, string> => {
  const env: Record<string, string> = {}
  const keys = platform === "win32" ? [...inheritedVariables, ...windowsVariables] : inheritedVariables
  for (const key of keys) {
    const value = parent[key]
    if (value === undefined || value.startsWith("()")) continue
    env[key] = value
  }
  if (configEnv !== undefined) {
    for (const [key, value] of Object.entries(configEnv)) env[key] = value
  }
  return env
}
