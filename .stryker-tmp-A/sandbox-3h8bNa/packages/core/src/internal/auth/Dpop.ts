/**
 * DPoP (RFC 9449) key pairs that outlive a run: `oauth.dpop: true` binds a server's tokens to a
 * key, so the key must be the same one next time or the stored tokens are useless. The SDK's
 * `DpopSession` signs the proofs (token requests and every MCP request, nonce challenges retried
 * once by the SDK's `withDpop`); this module only keeps its key: an ES256 pair generated
 * extractable, written as JWKs to `$MCPCTL_HOME/oauth/<server>.dpop.json` (0600, atomic, beside the
 * tokens), and imported non-extractable on later runs.
 */
// @ts-nocheck

import { DpopSession, generateDpopKeyPair } from "@modelcontextprotocol/client"
import type { DpopKeyPair } from "@modelcontextprotocol/client"
import { createHash, webcrypto } from "node:crypto"
import { lstat } from "node:fs/promises"
import { privateDir, readJsonFile, withFileLock, writeFileAtomic } from "../files.js"
import { tooOpen, UnsafeSecretFile } from "../PrivateFile.js"

/** The kept key is refused, not used, once others may read it (someone chmod'ed it, or restored a backup). */
const checkPrivate = async (file: string): Promise<void> => {
  const stat = await lstat(file).catch((e: NodeJS.ErrnoException) => (e.code === "ENOENT" ? undefined : Promise.reject(e)))
  if (stat === undefined || process.platform === "win32") return
  const reason = tooOpen(stat)
  if (reason !== undefined) throw new UnsafeSecretFile({ what: "DPoP key", file, reason })
}

/** What the key file holds: the algorithm and both halves as JWKs. */
interface KeyFile {
  readonly alg: "ES256"
  readonly privateJwk: webcrypto.JsonWebKey
  readonly publicJwk: webcrypto.JsonWebKey
}

const EC = { name: "ECDSA", namedCurve: "P-256" } as const

/** RFC 7638 thumbprint of an EC public JWK: SHA-256 over its required members in lexical order. */
export const ecThumbprint = (jwk: webcrypto.JsonWebKey): string =>
  createHash("sha256").update(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y })).digest("base64url")

const isKeyFile = (u: unknown): u is KeyFile => {
  const k = u as Partial<KeyFile> | undefined
  return k?.alg === "ES256" && typeof k.privateJwk?.d === "string" && typeof k.publicJwk?.x === "string"
}

const importPair = async (file: KeyFile): Promise<DpopKeyPair> => {
  const privateKey = await webcrypto.subtle.importKey("jwk", file.privateJwk, EC, false, ["sign"])
  const publicKey = await webcrypto.subtle.importKey("jwk", file.publicJwk, EC, true, ["verify"])
  const publicJwk = { kty: file.publicJwk.kty!, crv: file.publicJwk.crv!, x: file.publicJwk.x!, y: file.publicJwk.y! }
  return { privateKey, publicKey, publicJwk, thumbprint: ecThumbprint(publicJwk), alg: "ES256" } as unknown as DpopKeyPair
}

/**
 * The key pair kept in `file`, created (0600) when there is none or it does not parse. Serialized
 * by the file lock, so two runs signing in at once end up with one key.
 */
export const loadOrCreateKeyPair = (home: string, file: string): Promise<DpopKeyPair> =>
  privateDir(home, "oauth").then(() =>
    withFileLock(file, async () => {
      await checkPrivate(file)
      const stored = await readJsonFile(file)
      if (isKeyFile(stored)) return importPair(stored)
      const fresh = await generateDpopKeyPair({ alg: "ES256", extractable: true })
      const privateJwk = await webcrypto.subtle.exportKey("jwk", fresh.privateKey as unknown as webcrypto.CryptoKey)
      const publicJwk = await webcrypto.subtle.exportKey("jwk", fresh.publicKey as unknown as webcrypto.CryptoKey)
      const record: KeyFile = { alg: "ES256", privateJwk, publicJwk }
      await writeFileAtomic(file, JSON.stringify(record, null, 2) + "\n")
      return importPair(record)
    })
  )

/** A `DpopSession` over the server's persisted key pair. */
export const persistentDpopSession = async (home: string, file: string): Promise<DpopSession> =>
  DpopSession.create({ keyPair: await loadOrCreateKeyPair(home, file) })
