/**
 * The one way task requests (`tasks/get`, `tasks/cancel`, `tasks/update`) are sent, through the
 * pool's seam: for the host's own tasks (catalog/Tasks.ts) and for the ones serve passes on to its
 * clients (gateway/GatewayTasks.ts). The answer is the server's, undecoded: each caller decodes
 * what it needs, and serve hands it on as it came.
 */
import { ConnectionPool, request } from "../../pool/ConnectionPool.js"

/** Results are the server's: no schema of the SDK's judges them. */
const passThrough = {
  "~standard": { version: 1, vendor: "mcpctl", validate: (value: unknown) => ({ value }) }
} as const

/** Sends `method` to `server`; only `tasks/get` is resent after a lost connection (it changes nothing). */
export const taskRequest = (pool: ConnectionPool["Type"], server: string, method: string, params: Record<string, unknown>) =>
  pool.run(server, method, (connection) =>
    request(connection, method, (client, signal) =>
      client.request({ method, params } as never, passThrough as never, { signal }) as Promise<unknown>, {
      idempotent: method === "tasks/get"
    }), { idempotent: method === "tasks/get" })
