/**
 * The harness's name mapping between the server suite and serve's own names (conformanceNames.ts,
 * pure): a request's tool or prompt name gains serve's prefix, the `Mcp-Name` header with it when
 * it repeats the name, and the listings answering the request lose it; everything else is left as
 * it came, byte for byte.
 */
import { describe, expect, it } from "@effect/vitest"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { answerFromServe, mappedBodyHeaders, mapJsonText, nameHeaderToServe, prefixesOf, requestToServe, sseMapper } from "./conformanceNames.js"
import { startProxy } from "./conformanceServe.js"

const p = prefixesOf("ref")

describe("the suite's names to serve's", () => {
  it("prefixes tools/call and prompts/get names, and a prompt completion's ref", () => {
    const call = requestToServe({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "add", arguments: { a: 1 } } }, p)
    expect(call.body).toEqual({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "mcp__ref__add", arguments: { a: 1 } } })
    expect(call.rename).toEqual({ from: "add", to: "mcp__ref__add" })
    const prompt = requestToServe({ jsonrpc: "2.0", id: 2, method: "prompts/get", params: { name: "greet" } }, p)
    expect(prompt.body).toMatchObject({ params: { name: "ref__greet" } })
    const complete = requestToServe({
      jsonrpc: "2.0",
      id: 3,
      method: "completion/complete",
      params: { ref: { type: "ref/prompt", name: "greet" }, argument: { name: "a", value: "" } }
    }, p)
    expect(complete.body).toMatchObject({ params: { ref: { type: "ref/prompt", name: "ref__greet" }, argument: { name: "a", value: "" } } })
    // A resource template's completion names a URI, not a prompt: as it came.
    const template = { jsonrpc: "2.0", id: 4, method: "completion/complete", params: { ref: { type: "ref/resource", uri: "x://{a}" } } }
    expect(requestToServe(template, p).body).toBe(template)
  })

  it("remembers which ids are listings, in a batch too, and leaves other messages untouched", () => {
    const notice = { jsonrpc: "2.0", method: "notifications/initialized" }
    const mapped = requestToServe([{ jsonrpc: "2.0", id: "a", method: "tools/list" }, { jsonrpc: "2.0", id: 7, method: "prompts/list" }, notice], p)
    expect([...mapped.listings]).toEqual([["a", "tools/list"], [7, "prompts/list"]])
    expect((mapped.body as Array<unknown>)[2]).toBe(notice)
    expect(mapped.rename).toBeUndefined()
  })

  it("renames the Mcp-Name header only when it repeats the body's name (whitespace kept), so a mismatch stays one", () => {
    const rename = { from: "add", to: "mcp__ref__add" }
    expect(nameHeaderToServe("add", rename)).toBe("mcp__ref__add")
    expect(nameHeaderToServe("  add  ", rename)).toBe("  mcp__ref__add  ")
    expect(nameHeaderToServe("wrong_tool_name", rename)).toBe("wrong_tool_name")
    expect(nameHeaderToServe(undefined, rename)).toBeUndefined()
    expect(nameHeaderToServe("add", undefined)).toBe("add")
  })
})

describe("serve's answers to the suite's names", () => {
  const listings = new Map([[1, "tools/list"], [2, "prompts/list"]] as const)

  it("strips the prefix from the listings answering the request, and from nothing else", () => {
    const tools = { jsonrpc: "2.0", id: 1, result: { tools: [{ name: "mcp__ref__add", title: "mcp__ref__add" }, { name: "other" }] } }
    expect(answerFromServe(tools, listings, p)).toEqual({ jsonrpc: "2.0", id: 1, result: { tools: [{ name: "add", title: "mcp__ref__add" }, { name: "other" }] } })
    const prompts = { jsonrpc: "2.0", id: 2, result: { prompts: [{ name: "ref__greet" }] } }
    expect(answerFromServe(prompts, listings, p)).toEqual({ jsonrpc: "2.0", id: 2, result: { prompts: [{ name: "greet" }] } })
    // Another id, an error, a notification: the same object.
    const call = { jsonrpc: "2.0", id: 3, result: { tools: [{ name: "mcp__ref__add" }] } }
    expect(answerFromServe(call, listings, p)).toBe(call)
    const error = { jsonrpc: "2.0", id: 1, error: { code: -32603, message: "x" } }
    expect(answerFromServe(error, listings, p)).toBe(error)
    const batch = [call, error]
    expect(answerFromServe(batch, listings, p)).toBe(batch)
  })

  it("keeps a JSON text byte for byte unless a listing changed, and maps an event stream line by line across chunks", () => {
    const f = (m: unknown) => answerFromServe(m, listings, p)
    const untouched = `{"jsonrpc":"2.0","id":3,"result":{"text":"\\u2028 é"}}`
    expect(mapJsonText(untouched, f)).toBe(untouched)
    expect(mapJsonText("not json", f)).toBe("not json")
    const sse = sseMapper(f)
    const out = sse.push("event: message\nid: 9\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[{\"name\":\"mcp") +
      sse.push("__ref__add\"}]}}\n\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\n\n") + sse.end()
    expect(out).toBe(
      "event: message\nid: 9\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[{\"name\":\"add\"}]}}\n\n" +
        "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\n\n"
    )
  })

  it("frames a mapped body itself: serve's chunked encoding and length dropped, the new length set", () => {
    const serve = { "content-type": "application/json", "transfer-encoding": "chunked", "content-length": "10", date: "x" }
    expect(mappedBodyHeaders(serve, 7)).toEqual({ "content-type": "application/json", "content-length": "7", date: "x" })
    expect(mappedBodyHeaders({ "content-type": "text/event-stream", "transfer-encoding": "chunked" })).toEqual({ "content-type": "text/event-stream" })
  })

  it("gives fetch a listing that serve answered chunked, names mapped", async () => {
    // Serve writes JSON answers without a length (chunked): the proxy's mapped answer must still parse.
    const serve = createServer((req, res) => {
      req.resume()
      req.on("end", () => {
        res.writeHead(200, { "content-type": "application/json" })
        res.write(`{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"mcp__ref__add"}],`)
        res.end(`"ttlMs":0}}`)
      })
    })
    await new Promise<void>((resolve) => serve.listen(0, "127.0.0.1", resolve))
    const proxy = await startProxy(new URL(`http://127.0.0.1:${(serve.address() as AddressInfo).port}/mcp`), "t", p)
    try {
      const answer = await fetch(proxy.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })
      })
      expect(await answer.json()).toEqual({ jsonrpc: "2.0", id: 1, result: { tools: [{ name: "add" }], ttlMs: 0 } })
    } finally {
      proxy.stop()
      serve.close()
    }
  })
})
