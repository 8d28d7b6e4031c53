/**
 * The validation workers: checks whose cost a server controls run in a `worker_threads` worker,
 * so the event loop (timeouts, signals, other servers' calls, `serve`'s clients) never waits for
 * them. One job per worker at a time; a finished worker is kept (up to {@link MAX_IDLE}, unref'd,
 * so it never holds the process open) with the schemas it compiled. A job whose signal aborts
 * (the call's timeout, the caller's cancel, the check's own budget) terminates its worker: that is
 * the only way to stop synchronous work, and the next job starts a fresh one.
 */
// @ts-nocheck

import { existsSync } from "node:fs"
import { join } from "node:path"
import { Worker } from "node:worker_threads"
import type { Verdict } from "../schemaEngine/engine.mjs"

/** Idle workers kept for the next job. */
export const MAX_IDLE = 2

interface Slot {
  readonly worker: Worker
  /** Schemas this worker has (compiled on first use there). */
  readonly known: WeakSet<object>
}

const idle: Array<Slot> = []
const keys = new WeakMap<object, number>()
let nextKey = 0
let nextJob = 0

/**
 * Where the worker's code is: beside the CLI bundle (`schema-worker.cjs`, built by
 * apps/cli/build.mjs with the engine inside), else in `internal/schemaEngine/worker.mjs` (in src/ and
 * in the package's dist/).
 */
const workerFile = (): string | URL => {
  if (typeof __dirname === "string") {
    const bundled = join(__dirname, "schema-worker.cjs")
    if (existsSync(bundled)) return bundled
  }
  return new URL("../schemaEngine/worker.mjs", import.meta.url)
}

const start = (): Slot => ({ worker: new Worker(workerFile()), known: new WeakSet() })

const keyOf = (schema: object): number => {
  let key = keys.get(schema)
  if (key === undefined) keys.set(schema, key = nextKey++)
  return key
}

let started = 0
let busy = 0

/** Jobs being checked right now. */
export const workersBusy = (): number => busy

/** Workers started so far (a terminated worker is replaced, not reused). */
export const workersStarted = (): number => started

/**
 * Checks `data` against `schema` in a worker. Rejects with the signal's reason when it aborts
 * (the worker is terminated), or with an error when the worker fails.
 */
export const checkInWorker = (schema: object, data: unknown, signal?: AbortSignal): Promise<Verdict> =>
  new Promise<Verdict>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    let slot = idle.pop()
    if (slot === undefined) {
      slot = start()
      started++
    }
    const { worker, known } = slot
    const id = nextJob++
    busy++
    const finish = () => {
      busy--
      signal?.removeEventListener("abort", onAbort)
      worker.off("message", onMessage)
      worker.off("error", onError)
      worker.off("exit", onExit)
    }
    const onMessage = (m: { id: number; valid?: boolean; errorMessage?: string; failed?: string }) => {
      if (m.id !== id) return
      finish()
      if (idle.length < MAX_IDLE) {
        worker.unref()
        idle.push(slot)
      } else void worker.terminate()
      if (m.failed !== undefined) reject(new Error(m.failed))
      else resolve({ valid: m.valid === true, errorMessage: m.errorMessage })
    }
    const onAbort = () => {
      finish()
      void worker.terminate()
      reject(signal!.reason)
    }
    const onError = (error: Error) => {
      finish()
      void worker.terminate()
      reject(error)
    }
    const onExit = (code: number) => {
      finish()
      reject(new Error(`the validation worker exited with code ${code}`))
    }
    worker.on("message", onMessage)
    worker.on("error", onError)
    worker.on("exit", onExit)
    signal?.addEventListener("abort", onAbort, { once: true })
    // Busy, the worker keeps the process alive: the call is waiting for it.
    worker.ref()
    const key = keyOf(schema)
    const fresh = !known.has(schema)
    known.add(schema)
    try {
      worker.postMessage({ id, key, data, schema: fresh ? schema : undefined })
    } catch (error) {
      onError(error instanceof Error ? error : new Error(String(error)))
    }
  })
