/**
 * OpenTelemetry: with `OTEL_EXPORTER_OTLP_ENDPOINT` set, a run's spans are posted as OTLP/JSON to
 * `<endpoint>/v1/traces` (a tiny collector on 127.0.0.1 here); without it nothing is sent.
 */
// @ts-nocheck

import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as fixtures from "@mcpctl/testing/Fixtures"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { run, workspace } from "./support.js"

interface Received {
  readonly path: string
  readonly headers: http.IncomingHttpHeaders
  readonly body: {
    readonly resourceSpans: ReadonlyArray<{
      readonly resource: { readonly attributes: ReadonlyArray<{ key: string; value: { stringValue?: string } }> }
      readonly scopeSpans: ReadonlyArray<{ readonly spans: ReadonlyArray<{ readonly name: string; readonly traceId: string }> }>
    }>
  }
}

const ws = workspace()
const received: Array<Received> = []
let collector: http.Server
let endpoint = ""

beforeAll(async () => {
  collector = http.createServer((req, res) => {
    let body = ""
    req.on("data", (d) => (body += d))
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body: JSON.parse(body) })
      res.writeHead(200, { "content-type": "application/json" }).end("{}")
    })
  })
  await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve))
  endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`
})

afterAll(() => {
  collector.closeAllConnections()
  collector.close()
  ws.cleanup()
})

const settings = () => ws.settings("echo.json", { mcpServers: { echo: { command: "node", args: [fixtures.echoServer] } } })

describe("tracing", () => {
  it("mcpctl tools exports its spans to the OTLP endpoint", async () => {
    received.length = 0
    const r = await run(["tools", "--json", "--config", settings()], {
      home: ws.home,
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
        OTEL_EXPORTER_OTLP_HEADERS: "x-team=mcp%20ctl",
        // Whatever the developer's shell has, these must not redirect or disable the export.
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "",
        OTEL_SDK_DISABLED: "",
        OTEL_TRACES_EXPORTER: ""
      }
    })
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout).tools.length).toBeGreaterThan(0)
    expect(received.length).toBeGreaterThan(0)
    expect(received.every((x) => x.path === "/v1/traces")).toBe(true)
    expect(received[0]!.headers["x-team"]).toBe("mcp ctl")
    const resource = received[0]!.body.resourceSpans[0]!.resource.attributes
    expect(resource).toContainEqual({ key: "service.name", value: { stringValue: "mcpctl" } })
    const spans = received.flatMap((x) => x.body.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((s) => s.spans)))
    expect(spans.map((s) => s.name)).toContain("mcpctl tools")
  })

  it("without the variable nothing is sent", async () => {
    received.length = 0
    const r = await run(["tools", "--json", "--config", settings()], { home: ws.home })
    expect(r.code).toBe(0)
    expect(received).toEqual([])
  })
})
