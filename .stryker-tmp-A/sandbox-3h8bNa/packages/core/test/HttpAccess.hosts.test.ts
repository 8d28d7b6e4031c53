/**
 * Which Host and Origin headers `serve --http` answers (pure), and `[HOST:]PORT`: loopback names
 * on any port (a port forward or a proxy on this machine), `--allowed-host` names, addresses off
 * loopback; never a DNS name nobody allowed (a rebinding page sends its own).
 */
// @ts-nocheck

import { describe, expect, it } from "@effect/vitest"
import { isAllowedRequest, isLoopbackHost, parseListen } from "@mcpctl/core/internal/gateway/HttpAccess"

const local = { loopback: true }

describe("Host and Origin check (pure)", () => {
  it("a loopback listener answers loopback names on any port, and Origin only when it is one too", () => {
    expect(isAllowedRequest("127.0.0.1:8080", undefined, local)).toBe(true)
    expect(isAllowedRequest("localhost:8080", "http://localhost:8080", local)).toBe(true)
    expect(isAllowedRequest("[::1]:8080", undefined, local)).toBe(true)
    expect(isAllowedRequest("127.0.0.1:9", undefined, local)).toBe(true)
    expect(isAllowedRequest("localhost", undefined, local)).toBe(true)
    expect(isAllowedRequest("evil.test:8080", undefined, local)).toBe(false)
    expect(isAllowedRequest("localhost.evil.test", undefined, local)).toBe(false)
    expect(isAllowedRequest(undefined, undefined, local)).toBe(false)
    expect(isAllowedRequest("127.0.0.1:8080", "http://evil.test", local)).toBe(false)
    expect(isAllowedRequest("127.0.0.1:8080", "null", local)).toBe(false)
    // An address is not a loopback name: a loopback listener does not need it.
    expect(isAllowedRequest("10.0.0.5:8080", undefined, local)).toBe(false)
  })

  it("--allowed-host admits the proxy's name, on any port or on the one given", () => {
    const proxied = { loopback: true, allowedHosts: ["mcp.example.com", "other.example.com:8443"] }
    expect(isAllowedRequest("mcp.example.com", undefined, proxied)).toBe(true)
    expect(isAllowedRequest("MCP.example.com:443", "https://mcp.example.com", proxied)).toBe(true)
    expect(isAllowedRequest("other.example.com:8443", undefined, proxied)).toBe(true)
    expect(isAllowedRequest("other.example.com:9", undefined, proxied)).toBe(false)
    expect(isAllowedRequest("mcp.example.com", "https://evil.test", proxied)).toBe(false)
    expect(isAllowedRequest("evil.mcp.example.com", undefined, proxied)).toBe(false)
  })

  it("off loopback, addresses are answered too, DNS names only when allowed", () => {
    const wide = { loopback: false }
    expect(isAllowedRequest("10.0.0.5:8080", undefined, wide)).toBe(true)
    expect(isAllowedRequest("[fd00::5]:8080", undefined, wide)).toBe(true)
    expect(isAllowedRequest("evil.test:8080", undefined, wide)).toBe(false)
  })
})

describe("--http [HOST:]PORT (pure)", () => {
  it("parses a port, a host and a bracketed IPv6 address", () => {
    expect(parseListen("8080")).toEqual({ host: "127.0.0.1", port: 8080 })
    expect(parseListen("0.0.0.0:0")).toEqual({ host: "0.0.0.0", port: 0 })
    expect(parseListen("[::]:9000")).toEqual({ host: "::", port: 9000 })
    expect(parseListen("localhost:1")).toEqual({ host: "localhost", port: 1 })
    expect(parseListen("65536")).toMatch(/not \[HOST:\]PORT/)
    expect(parseListen("host:")).toMatch(/not \[HOST:\]PORT/)
    expect(parseListen("::1:80")).toMatch(/not \[HOST:\]PORT/)
  })

  it("knows loopback addresses", () => {
    for (const h of ["127.0.0.1", "127.1.2.3", "localhost", "::1", "LOCALHOST"]) expect(isLoopbackHost(h)).toBe(true)
    for (const h of ["0.0.0.0", "::", "10.0.0.1", "128.0.0.1"]) expect(isLoopbackHost(h)).toBe(false)
  })
})
