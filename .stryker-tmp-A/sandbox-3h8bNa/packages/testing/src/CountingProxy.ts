/**
 * A forward proxy on 127.0.0.1 that counts what it relays, for proxy tests: absolute-URI
 * requests (plain HTTP forwarding) and CONNECT tunnels. Loopback only; `close` ends every
 * connection, tunnels included.
 */
// @ts-nocheck

import { once } from "node:events"
import * as http from "node:http"
import * as net from "node:net"

/**
 * Starts the proxy on a free loopback port; `seen` lists every request and tunnel it relayed.
 * `ports` re-routes target ports: a client told to use a port nobody listens on reaches the
 * real server only through the proxy, which proves a request went through it. `hosts` maps host
 * names to the address the proxy connects to (`{ "proxied.test": "127.0.0.1" }`): mcpctl never
 * sends loopback targets through a proxy, so proxied tests name a host only the proxy can resolve.
 */
export const startCountingProxy = async (
  options: { readonly ports?: Readonly<Record<number, number>>; readonly hosts?: Readonly<Record<string, string>> } = {}
) => {
  const route = (port: number) => options.ports?.[port] ?? port
  const address = (host: string) => options.hosts?.[host] ?? host
  const seen: Array<string> = []
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`)
    const target = new URL(req.url!)
    const upstream = http.request(
      { host: address(target.hostname), port: route(Number(target.port || 80)), path: target.pathname + target.search, method: req.method, headers: req.headers },
      (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers)
        r.pipe(res)
      }
    )
    upstream.on("error", () => res.destroy())
    req.pipe(upstream)
  })
  const tunnels = new Set<net.Socket>()
  server.on("connect", (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url}`)
    tunnels.add(socket)
    const [host, port] = req.url!.split(":")
    const upstream = net.connect(route(Number(port)), address(host!), () => {
      socket.write("HTTP/1.1 200 Connection Established\r\n\r\n")
      upstream.write(head)
      upstream.pipe(socket)
      socket.pipe(upstream)
    })
    upstream.on("error", () => socket.destroy())
    socket.on("error", () => upstream.destroy())
  })
  server.listen(0, "127.0.0.1")
  await once(server, "listening")
  const { port } = server.address() as net.AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => {
      server.closeAllConnections()
      for (const t of tunnels) t.destroy()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}

