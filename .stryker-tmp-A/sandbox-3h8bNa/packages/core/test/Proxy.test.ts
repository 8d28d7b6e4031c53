// @ts-nocheck
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { once } from "node:events"
import * as http from "node:http"
import * as net from "node:net"
import { startCountingProxy } from "@mcpctl/testing/CountingProxy"
import { freePort } from "@mcpctl/testing/Everything"
import * as Effect from "effect/Effect"
import type { ResolvedServer } from "../src/config/ServerConfig.js"
import { openRemote } from "../src/internal/transport/Http.js"
import { isLoopbackTarget, proxyFetch, proxyFor, proxySettings } from "../src/internal/transport/Proxy.js"
import { networkFailure } from "../src/internal/transport/TransportErrors.js"

// mcpctl never proxies loopback targets: proxied requests name a host only the proxy resolves.
const PROXIED = "proxied.test"

describe("proxySettings", () => {
  it("is undefined without a proxy variable; lower-case spellings first", () => {
    expect(proxySettings({ NO_PROXY: "x" })).toBeUndefined()
    expect(proxySettings({ HTTPS_PROXY: "http://p:1", https_proxy: "http://q:2", NO_PROXY: "a", no_proxy: "" })).toEqual({
      httpProxy: undefined,
      httpsProxy: "http://q:2",
      noProxy: "a"
    })
    expect(proxySettings({ HTTP_PROXY: " http://p:1 " })).toEqual({ httpProxy: "http://p:1", httpsProxy: undefined, noProxy: "" })
  })
})

describe("proxyFetch through a local proxy", () => {
  let proxy: Awaited<ReturnType<typeof startCountingProxy>>
  let target: http.Server
  let targetUrl: string
  let loopbackUrl: string
  beforeAll(async () => {
    proxy = await startCountingProxy({ hosts: { [PROXIED]: "127.0.0.1" } })
    target = http.createServer((req, res) => res.end(`hello ${req.method} ${req.url}`))
    target.listen(0, "127.0.0.1")
    await once(target, "listening")
    const port = (target.address() as net.AddressInfo).port
    targetUrl = `http://${PROXIED}:${port}`
    loopbackUrl = `http://127.0.0.1:${port}`
  })
  afterAll(async () => {
    await proxy.close()
    target.closeAllConnections()
    await new Promise<void>((resolve) => target.close(() => resolve()))
  })

  it("sends requests through HTTP_PROXY, POST bodies included", async () => {
    const before = proxy.seen.length
    const f = proxyFetch({ HTTP_PROXY: proxy.url, NO_PROXY: "" })
    expect(await (await f(`${targetUrl}/a`)).text()).toBe("hello GET /a")
    expect(await (await f(`${targetUrl}/b`, { method: "POST", body: "{}" })).text()).toBe("hello POST /b")
    expect(proxy.seen.length).toBeGreaterThan(before)
    expect(proxy.seen.slice(before).join(" ")).toContain(PROXIED)
  })

  it("goes direct for hosts in NO_PROXY, and without any proxy variable", async () => {
    const before = proxy.seen.length
    // proxied.test resolves nowhere but in the proxy: direct, it cannot be reached.
    await expect(proxyFetch({ HTTP_PROXY: proxy.url, NO_PROXY: `localhost,${PROXIED}` })(`${targetUrl}/c`)).rejects.toThrow()
    expect(await (await proxyFetch({})(`${loopbackUrl}/d`)).text()).toBe("hello GET /d")
    expect(proxy.seen.length).toBe(before)
  })

  it("never sends a loopback target through the proxy, whatever NO_PROXY says", async () => {
    const before = proxy.seen.length
    const f = proxyFetch({ HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url, NO_PROXY: "" })
    expect(await (await f(`${loopbackUrl}/e`)).text()).toBe("hello GET /e")
    expect(await (await f(`http://localhost:${new URL(loopbackUrl).port}/f`)).text()).toBe("hello GET /f")
    expect(proxy.seen.length).toBe(before)
    for (const url of ["http://127.0.0.1/", "http://127.8.9.10:1/x", "https://localhost/", "http://a.localhost:3/", "http://[::1]:80/"]) {
      expect(isLoopbackTarget(url), url).toBe(true)
    }
    for (const url of ["http://128.0.0.1/", "http://localhost.example.com/", "http://10.0.0.1/", "not a url"]) {
      expect(isLoopbackTarget(url), url).toBe(false)
    }
  })
})

describe("remote transports and their OAuth requests go through the proxy", () => {
  it.live("a 401 from a server sends the SDK's OAuth discovery through HTTP_PROXY too", () =>
    Effect.gen(function*() {
      // The client is given a port nobody listens on; only the proxy knows the real one.
      const unused = yield* Effect.promise(() => freePort())
      const paths: Array<string> = []
      const target = http.createServer((req, res) => {
        paths.push(`${req.method} ${req.url}`)
        if (req.url === "/mcp") {
          res.writeHead(401, { "www-authenticate": `Bearer resource_metadata="http://${PROXIED}:${unused}/.well-known/oauth-protected-resource"` })
          return res.end()
        }
        res.writeHead(404).end()
      })
      target.listen(0, "127.0.0.1")
      yield* Effect.promise(() => once(target, "listening"))
      const real = (target.address() as net.AddressInfo).port
      const proxy = yield* Effect.promise(() => startCountingProxy({ ports: { [unused]: real }, hosts: { [PROXIED]: "127.0.0.1" } }))
      const url = `http://${PROXIED}:${unused}/mcp`
      const saved = { HTTP_PROXY: process.env.HTTP_PROXY, NO_PROXY: process.env.NO_PROXY, no_proxy: process.env.no_proxy }
      Object.assign(process.env, { HTTP_PROXY: proxy.url, NO_PROXY: "", no_proxy: "" })
      const server: ResolvedServer = { name: "r", originalName: "r", scope: "adhoc", source: "--url", transport: "http", config: { url } }
      const authProvider = {
        redirectUrl: "http://127.0.0.1:1/callback",
        clientMetadata: { redirect_uris: ["http://127.0.0.1:1/callback"], client_name: "test" },
        clientInformation: () => undefined,
        tokens: () => undefined,
        saveTokens: () => undefined,
        redirectToAuthorization: () => undefined,
        saveCodeVerifier: () => undefined,
        codeVerifier: () => "v"
      }
      yield* Effect.scoped(Effect.gen(function*() {
        const opened = yield* openRemote(server, { url }, "http", { authProvider })
        yield* Effect.promise(() => opened.transport.start())
        yield* Effect.promise(() =>
          opened.transport.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }).catch(() => undefined)
        )
      })).pipe(Effect.ensuring(Effect.promise(async () => {
        for (const [k, v] of Object.entries(saved)) v === undefined ? delete process.env[k] : (process.env[k] = v)
        target.closeAllConnections()
        await new Promise<void>((resolve) => target.close(() => resolve()))
        await proxy.close()
      })))
      // The server is reachable only through the proxy: the POST and the discovery both came that way.
      expect(paths[0]).toBe("POST /mcp")
      expect(paths.some((p) => p.includes("/.well-known/oauth-protected-resource"))).toBe(true)
      expect(proxy.seen.join("\n")).toContain(`${PROXIED}:${unused}`)
    }))
})

describe("a refused proxy is named, not the server", () => {
  const refused = Object.assign(new TypeError("fetch failed"), { cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { code: "ECONNREFUSED" }) })

  it("networkFailure blames the proxy a request went through, and the server otherwise", () => {
    expect(networkFailure(refused, "https://mcp.example.com/mcp", { HTTPS_PROXY: "http://proxy.corp:3128" }))
      .toBe("the proxy proxy.corp:3128 (from HTTPS_PROXY) refused the connection; check HTTPS_PROXY, or add the server's host to NO_PROXY")
    expect(networkFailure(refused, "https://mcp.example.com/mcp", {})).toContain("nothing accepts connections at mcp.example.com")
    expect(networkFailure(refused, "https://mcp.example.com/mcp", { HTTPS_PROXY: "http://p:1", NO_PROXY: ".example.com" }))
      .toContain("nothing accepts connections at mcp.example.com")
    expect(networkFailure(refused, "http://127.0.0.1:3000/mcp", { HTTP_PROXY: "http://p:1" })).toContain("nothing accepts connections at 127.0.0.1:3000")
  })

  it("proxyFor follows the variables, NO_PROXY and loopback as requests do", () => {
    expect(proxyFor("https://a.example/x", { HTTP_PROXY: "http://h:1" })).toEqual({ proxy: "http://h:1", variable: "HTTP_PROXY" })
    expect(proxyFor("https://a.example/x", { HTTP_PROXY: "http://h:1", HTTPS_PROXY: "http://s:2" })).toEqual({ proxy: "http://s:2", variable: "HTTPS_PROXY" })
    expect(proxyFor("http://a.example/x", { HTTPS_PROXY: "http://s:2" })).toBeUndefined()
    for (const noProxy of ["*", "a.example", ".example", "example", "a.example:443", "other, a.example"]) {
      expect(proxyFor("https://a.example/x", { HTTPS_PROXY: "http://s:2", NO_PROXY: noProxy }), noProxy).toBeUndefined()
    }
    expect(proxyFor("https://a.example/x", { HTTPS_PROXY: "http://s:2", NO_PROXY: "a.example:80" })).toBeDefined()
    expect(proxyFor("https://xa.example.org/x", { HTTPS_PROXY: "http://s:2", NO_PROXY: "a.example" })).toBeDefined()
    expect(proxyFor("http://localhost:1/", { HTTP_PROXY: "http://h:1" })).toBeUndefined()
  })
})
