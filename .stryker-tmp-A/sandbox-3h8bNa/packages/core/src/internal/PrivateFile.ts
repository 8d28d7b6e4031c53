/**
 * Secrets read from files the settings name (a private key, a workload assertion, an ID token,
 * the DPoP key mcpctl keeps): refused when others may read them, as ssh refuses such a key. A
 * key another local user can read is a key they can sign with; saying so beats using it quietly.
 * Symbolic links are followed (Kubernetes mounts projected tokens through them): the check is
 * on the file that was opened, by its descriptor.
 */
// @ts-nocheck

import * as Schema from "effect/Schema"
import { closeSync, fstatSync, openSync, readFileSync } from "node:fs"

/** Why a file's permissions are too open for a secret, or undefined when they are fine (pure). */
export const tooOpen = (
  stat: { readonly mode: number; readonly uid: number },
  uid: number | undefined = process.getuid?.()
): string | undefined => {
  if ((stat.mode & 0o077) !== 0) {
    return `its permissions ${(stat.mode & 0o777).toString(8).padStart(4, "0")} let others read or change it`
  }
  if (uid !== undefined && stat.uid !== uid && stat.uid !== 0) return `it belongs to another user (uid ${stat.uid})`
  return undefined
}

/**
 * The error for a secret file refused, naming the file and the fix: a tagged error like the
 * `JsonStore` ones, so an Effect caller can catch it by tag and a Promise caller by `instanceof`.
 */
export class UnsafeSecretFile extends Schema.TaggedError<UnsafeSecretFile>()("UnsafeSecretFile", {
  what: Schema.String,
  file: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return `the ${this.what} file ${this.file} is not private: ${this.reason}. Run: chmod 600 ${this.file}` +
      ` (in Kubernetes, give the volume defaultMode: 0400)`
  }
}

/** Reads a secret file after checking, on the opened descriptor, that only its owner can read it. */
export const readPrivateFileSync = (what: string, file: string): string => {
  const fd = openSync(file, "r")
  try {
    if (process.platform !== "win32") {
      const reason = tooOpen(fstatSync(fd))
      if (reason !== undefined) throw new UnsafeSecretFile({ what, file, reason })
    }
    return readFileSync(fd, "utf8")
  } finally {
    closeSync(fd)
  }
}

