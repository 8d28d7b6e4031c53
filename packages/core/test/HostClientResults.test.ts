/**
 * HostClient checks a request's result with the SDK's own era validator, made once per era and
 * method instead of on every request: the same results pass, the same bad ones fail with the
 * same error as the SDK's plain `Client`.
 */
import { describe, expect, it } from "@effect/vitest"
import { Client, InMemoryTransport } from "@modelcontextprotocol/client"
import { HostClient, resultValidatorOf } from "../src/internal/pool/hostClient.js"

/**
 * A client of the given class on an in-memory raw JSON-RPC server (no SDK server, which would
 * check its own results): `echo` answers text, `bad` a result whose content is not an array.
 */
const connected = async <C extends Client>(make: () => C): Promise<C> => {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  serverSide.onmessage = (message) => {
    const m = message as { id?: number; method?: string; params?: { name?: string; arguments?: { text?: string }; protocolVersion?: string } }
    if (m.id === undefined) return
    const result = m.method === "initialize"
      ? { protocolVersion: m.params?.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "s", version: "1.0.0" } }
      : m.method === "tools/list"
      ? { tools: [{ name: "echo", inputSchema: { type: "object" } }] }
      : m.params?.name === "bad"
      ? { content: "not an array" }
      : { content: [{ type: "text", text: String(m.params?.arguments?.text) }] }
    void serverSide.send({ jsonrpc: "2.0", id: m.id, result } as never)
  }
  await serverSide.start()
  const client = make()
  await client.connect(clientSide)
  return client
}

const failureOf = (promise: Promise<unknown>): Promise<unknown> => promise.then(() => undefined, (e: unknown) => e)

describe("HostClient result validation", () => {
  it("passes and refuses the same results as the SDK's Client, with the same error", async () => {
    const host = await connected(() => new HostClient({ name: "t", version: "0" }))
    const plain = await connected(() => new Client({ name: "t", version: "0" }))
    try {
      for (let i = 0; i < 3; i++) {
        expect(await host.callTool({ name: "echo", arguments: { text: `hi ${i}` } }))
          .toEqual(await plain.callTool({ name: "echo", arguments: { text: `hi ${i}` } }))
        const hostError = await failureOf(host.callTool({ name: "bad", arguments: {} }))
        const plainError = await failureOf(plain.callTool({ name: "bad", arguments: {} }))
        expect(hostError).toBeInstanceOf(Error)
        expect(hostError?.constructor).toBe(plainError?.constructor)
        expect((hostError as Error).message).toBe((plainError as Error).message)
        expect(hostError).toMatchObject({ code: (plainError as { code?: unknown }).code })
      }
      expect(await host.listTools()).toEqual(await plain.listTools())
    } finally {
      await host.close()
      await plain.close()
    }
  })

  it("makes the validator once per era and method; the SDK's own way for the rest", async () => {
    const host = await connected(() => new HostClient({ name: "t", version: "0" }))
    try {
      const call = resultValidatorOf(host, "tools/call")
      expect(call).toHaveProperty("~standard")
      expect(resultValidatorOf(host, "tools/call")).toBe(call)
      expect(resultValidatorOf(host, "tools/list")).not.toBe(call)
      // Not spec methods of the era, and the Tasks names that skip the era gate with a schema.
      expect(resultValidatorOf(host, "x/custom")).toBeUndefined()
      expect(resultValidatorOf(host, "tasks/get")).toBeUndefined()
      // A method the SDK has no result for still fails as the SDK makes it fail (synchronously).
      expect(() => host.request({ method: "x/custom" } as never)).toThrow(/not a spec method/)
    } finally {
      await host.close()
    }
  })
})
