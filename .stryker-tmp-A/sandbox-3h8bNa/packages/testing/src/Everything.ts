/**
 * The reference server `@modelcontextprotocol/server-everything` over the network, for
 * integration tests: started on a free 127.0.0.1 port, ready when it says it listens, stopped
 * with SIGKILL. One helper, so every test starts it the same way.
 */
// @ts-nocheck

import { type ChildProcess, spawn } from "node:child_process"
import { once } from "node:events"
import { createRequire } from "node:module"
import * as net from "node:net"
import { fileURLToPath } from "node:url"

/**
 * The server's entry point, resolved from wherever this package is installed (an optional peer
 * dependency; the repository has it as a devDependency). When it is missing, the path it would have
 * in the repository, so spawning it fails naming the package.
 */
export const everythingServer: string = (() => {
  try {
    return createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/dist/index.js")
  } catch {
    return fileURLToPath(new URL("../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url))
  }
})()

/** A port that was free a moment ago on 127.0.0.1 (the server itself takes a PORT, not 0). */
export const freePort = async (): Promise<number> => {
  const server = net.createServer()
  server.listen(0, "127.0.0.1")
  await once(server, "listening")
  const { port } = server.address() as net.AddressInfo
  server.close()
  await once(server, "close")
  return port
}

const readyLine = {
  streamableHttp: /listening on port (\d+)/,
  sse: /Server is running on port (\d+)/
} as const

/**
 * Starts server-everything in `mode`, on `port` when given (a restart on the same port), else on
 * a free one; retries a port race (it exits on EADDRINUSE) when the port was picked here.
 */
export const startEverything = async (
  mode: "streamableHttp" | "sse",
  port?: number
): Promise<{ readonly child: ChildProcess; readonly port: number }> => {
  let lastError: unknown
  for (let attempt = 0; attempt < (port === undefined ? 3 : 1); attempt++) {
    const chosen = port ?? (await freePort())
    const child = spawn(process.execPath, [everythingServer, mode], {
      env: { ...process.env, PORT: String(chosen) },
      stdio: ["ignore", "pipe", "pipe"]
    })
    try {
      await new Promise<void>((resolve, reject) => {
        let output = ""
        const onData = (chunk: Buffer) => {
          output += chunk.toString()
          if (readyLine[mode].test(output)) resolve()
        }
        child.stdout!.on("data", onData)
        child.stderr!.on("data", onData)
        child.once("exit", (code) => reject(new Error(`server-everything ${mode} exited (${code}): ${output}`)))
        child.once("error", reject)
      })
      child.stdout!.resume()
      child.stderr!.resume()
      return { child, port: chosen }
    } catch (error) {
      lastError = error
      child.kill("SIGKILL")
    }
  }
  throw lastError
}

/** Stops a started server and waits until it is gone. */
export const stopServer = async (child: ChildProcess | undefined): Promise<void> => {
  if (!child || child.exitCode !== null || child.signalCode !== null) return
  const exited = once(child, "exit")
  child.kill("SIGKILL")
  await exited
}
