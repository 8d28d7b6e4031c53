/**
 * HTTPS_PROXY / HTTP_PROXY / NO_PROXY for remote servers, end to end: `mcpctl tools --url` to
 * server-everything on 127.0.0.1 through a counting proxy on 127.0.0.1 (loopback only), named by a
 * host only the proxy resolves (`proxied.test`): mcpctl never proxies a loopback target.
 */
// @ts-nocheck

import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Everything } from "@mcpctl/testing"
import { freePort } from "@mcpctl/testing/Everything"
import { startCountingProxy } from "@mcpctl/testing/CountingProxy"
import type { ChildProcess } from "node:child_process"
import { run, workspace } from "./support.js"

const ws = workspace()
let server: ChildProcess
let port = 0
let proxy: Awaited<ReturnType<typeof startCountingProxy>>

beforeAll(async () => {
  ;({ child: server, port } = await Everything.startEverything("streamableHttp"))
  proxy = await startCountingProxy({ hosts: { "proxied.test": "127.0.0.1" } })
})
afterAll(async () => {
  await proxy.close()
  await Everything.stopServer(server)
  ws.cleanup()
})

describe("proxy variables", () => {
  it("remote requests go through HTTP_PROXY; hosts in NO_PROXY go direct", async () => {
    const args = ["tools", "--url", `http://proxied.test:${port}/mcp`, "--json"]
    const clear = { NO_PROXY: "", no_proxy: "", HTTPS_PROXY: "", https_proxy: "" }
    const proxied = await run(args, { home: ws.home, env: { ...clear, HTTP_PROXY: proxy.url, http_proxy: "" } })
    expect(proxied.code, proxied.stderr).toBe(0)
    expect(JSON.parse(proxied.stdout).tools.map((t: { name: string }) => t.name)).toContain("mcp__adhoc__echo")
    const relayed = proxy.seen.length
    expect(relayed).toBeGreaterThan(0)
    expect(proxy.seen.join("\n")).toContain(`proxied.test:${port}`)

    // Listed in NO_PROXY, the host is tried directly, where it does not resolve: nothing relayed.
    const direct = await run(args, { home: ws.home, env: { ...clear, HTTP_PROXY: proxy.url, http_proxy: "", NO_PROXY: "proxied.test" } })
    expect(direct.code, direct.stderr).toBe(4)
    expect(proxy.seen.length).toBe(relayed)

    // A loopback URL goes direct with HTTP_PROXY set and NO_PROXY empty.
    const loopback = await run(["tools", "--url", `http://127.0.0.1:${port}/mcp`, "--json"], { home: ws.home, env: { ...clear, HTTP_PROXY: proxy.url, http_proxy: "" } })
    expect(loopback.code, loopback.stderr).toBe(0)
    expect(proxy.seen.length).toBe(relayed)
  })

  it("a proxy that refuses is named as the proxy, not as a server that is not running", async () => {
    const closed = await freePort()
    const r = await run(["tools", "--url", `http://proxied.test:${port}/mcp`, "--json"], {
      home: ws.home,
      env: { NO_PROXY: "", no_proxy: "", HTTPS_PROXY: "", https_proxy: "", http_proxy: "", HTTP_PROXY: `http://127.0.0.1:${closed}` }
    })
    expect(r.code).toBe(4)
    const message = JSON.parse(r.stdout).errors[0].message as string
    expect(message).toContain(`the proxy 127.0.0.1:${closed} (from HTTP_PROXY) refused the connection`)
    expect(message).not.toContain("is the server running")
  })
})
