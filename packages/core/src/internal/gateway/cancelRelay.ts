/**
 * A 2025-era `notifications/cancelled` behind a round-robin balancer lands on any replica, not
 * necessarily the one running the request it names. A replica that runs no such request passes
 * the cancel on to its peers (`--peer HOST:PORT`, a name resolving to several addresses counting
 * for each), marked as relayed so that no peer passes it on again. Fire and forget: a cancel is
 * advisory in the protocol, and a peer that cannot be reached runs nothing of ours.
 */
import { lookup } from "node:dns/promises"
import { ENDPOINT_PATH } from "./HttpAccess.js"

/** The header of a relayed cancel: its receiver never relays it again. */
export const RELAYED_HEADER = "mcpctl-relayed-cancel"

/** `HOST:PORT` (or `[v6]:PORT`) split, `undefined` when it is not one (pure). */
export const splitPeer = (peer: string): { readonly host: string; readonly port: number } | undefined => {
  const m = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(peer.trim())
  const port = Number(m?.[3])
  if (m === null || !(port > 0 && port < 65536)) return undefined
  return { host: m[1] ?? m[2]!, port }
}

/** The endpoint URLs of the peers: every address each name resolves to. */
const peerUrls = async (peers: ReadonlyArray<string>): Promise<Array<string>> => {
  const urls = await Promise.all(peers.map(async (peer) => {
    const split = splitPeer(peer)
    if (split === undefined) return []
    const addresses = await lookup(split.host, { all: true }).catch(() => [])
    return addresses.map(({ address, family }) => `http://${family === 6 ? `[${address}]` : address}:${split.port}${ENDPOINT_PATH}`)
  }))
  return [...new Set(urls.flat())]
}

/**
 * Sends `message` (a `notifications/cancelled`) to every peer with the session's headers: the
 * bearer token the replicas share, the session id, the protocol version.
 */
export const relayCancel = (
  peers: ReadonlyArray<string>,
  message: unknown,
  headers: { readonly token: string | undefined; readonly session: string; readonly protocolVersion: string | undefined }
): Promise<void> =>
  peerUrls(peers).then((urls) =>
    Promise.all(urls.map((url) =>
      fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-session-id": headers.session,
          [RELAYED_HEADER]: "1",
          ...(headers.protocolVersion === undefined ? {} : { "mcp-protocol-version": headers.protocolVersion }),
          ...(headers.token === undefined ? {} : { authorization: `Bearer ${headers.token}` })
        },
        body: JSON.stringify(message),
        signal: AbortSignal.timeout(10_000)
      }).then((res) => res.body?.cancel(), () => undefined)
    ))
  ).then(() => undefined, () => undefined)
