/**
 * A fake daemon for the trust tests: a socket server in the test process, in a fresh
 * `$MCPCTL_HOME/run` under `root` with private files (run/ 0700, socket and token 0600), that
 * records every request's body and answers each with `answer`.
 */
// @ts-nocheck

import { chmodSync, mkdirSync, writeFileSync } from "node:fs"
import { createServer, type Server } from "node:net"
import { join } from "node:path"
import { frameReader, runDir, socketPath, tokenPath } from "../src/daemon/Wire.js"

export const fakeDaemon = async (root: string, name: string, answer: Buffer) => {
  const home = join(root, name)
  const dir = runDir({ MCPCTL_HOME: home })
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  chmodSync(dir, 0o700)
  writeFileSync(tokenPath(dir), "fake-token\n", { mode: 0o600 })
  const received: Array<string> = []
  const server: Server = createServer((socket) => {
    const reader = frameReader()
    socket.on("data", (chunk) => {
      for (const f of reader.push(chunk)) {
        received.push(f.body.toString("utf8"))
        socket.end(answer)
      }
    })
    socket.on("error", () => {})
  })
  await new Promise<void>((resolve) => server.listen(socketPath(dir), resolve))
  chmodSync(socketPath(dir), 0o600)
  return { home, dir, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}
