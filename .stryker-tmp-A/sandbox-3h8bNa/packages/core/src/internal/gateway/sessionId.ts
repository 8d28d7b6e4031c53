/**
 * Legacy (2025) session ids that any replica can check: `<16 random bytes>.<HMAC-SHA256 of them
 * under the serve token, first 16 bytes>`, both base64url. Replicas behind a round-robin balancer
 * share the token (`--token-file`), so a replica that did not open a session still knows the id is
 * one of theirs and can answer it statelessly, and a made-up id is still "Session not found".
 */
// @ts-nocheck

import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"

const mac = (secret: string, nonce: string): Buffer =>
  createHmac("sha256", secret).update("mcpctl-session:" + nonce).digest().subarray(0, 16)

/** A fresh session id signed with `secret`. */
export const newSessionId = (secret: string): string => {
  const nonce = randomBytes(16).toString("base64url")
  return `${nonce}.${mac(secret, nonce).toString("base64url")}`
}

/** Whether `id` was made by `newSessionId` with the same `secret`, compared in constant time (pure). */
export const isSessionId = (id: string, secret: string): boolean => {
  const m = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{22})$/.exec(id)
  if (!m) return false
  const given = Buffer.from(m[2]!, "base64url")
  const wanted = mac(secret, m[1]!)
  return given.length === wanted.length && timingSafeEqual(given, wanted)
}
