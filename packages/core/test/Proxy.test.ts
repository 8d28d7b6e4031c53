import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { once } from "node:events"
import * as http from "node:http"
import * as net from "node:net"
import { startCountingProxy } from "@mcpctl/testing/CountingProxy"
import { proxyFetch, proxySettings } from "../src/transport/Proxy.js"

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
  beforeAll(async () => {
    proxy = await startCountingProxy()
    target = http.createServer((req, res) => res.end(`hello ${req.method} ${req.url}`))
    target.listen(0, "127.0.0.1")
    await once(target, "listening")
    targetUrl = `http://127.0.0.1:${(target.address() as net.AddressInfo).port}`
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
    expect(proxy.seen.slice(before).join(" ")).toContain("127.0.0.1")
  })

  it("goes direct for hosts in NO_PROXY, and without any proxy variable", async () => {
    const before = proxy.seen.length
    expect(await (await proxyFetch({ HTTP_PROXY: proxy.url, NO_PROXY: "localhost,127.0.0.1" })(`${targetUrl}/c`)).text()).toBe("hello GET /c")
    expect(await (await proxyFetch({})(`${targetUrl}/d`)).text()).toBe("hello GET /d")
    expect(proxy.seen.length).toBe(before)
  })
})
