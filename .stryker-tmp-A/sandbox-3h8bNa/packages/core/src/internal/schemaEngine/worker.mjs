// @ts-nocheck
// The validation worker (`workers.ts` starts it): checks one result at a time against a schema,
// compiled once per schema this worker was sent. A check that runs past its budget is not
// stopped from inside: the main thread terminates the whole worker.
import { parentPort } from "node:worker_threads"
import { makeEngine } from "./engine.mjs"

const engine = makeEngine()
/** schema key → compiled check. */
const checks = new Map()

parentPort.on("message", (job) => {
  try {
    let check = checks.get(job.key)
    if (check === undefined) {
      check = engine.compile(job.schema)
      checks.set(job.key, check)
    }
    const verdict = check(job.data)
    parentPort.postMessage({ id: job.id, valid: verdict.valid, errorMessage: verdict.errorMessage })
  } catch (error) {
    parentPort.postMessage({ id: job.id, failed: error instanceof Error ? error.message : String(error) })
  }
})
