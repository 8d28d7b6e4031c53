#!/usr/bin/env node
// @ts-nocheck
// `node daemon-timed-calls.mjs N ARGS…`: N calls one after another through a running mcpctl
// daemon with the bin's relay client (no Node start each), printing each call's wall time in ms
// as one JSON array on stdout: one client of the daemon's concurrency figure. Fails when a call
// is not run by the daemon or does not exit 0.
import { relay } from "../../apps/cli/bin/relay.mjs"

const [n, ...args] = process.argv.slice(2)
const realWrite = process.stdout.write.bind(process.stdout)
// What the calls print is not the figure: dropped.
process.stdout.write = (_chunk, encoding, cb) => {
  if (typeof encoding === "function") encoding()
  else if (typeof cb === "function") cb()
  return true
}
const times = []
for (let i = 0; i < Number(n); i++) {
  const t0 = process.hrtime.bigint()
  if (!(await relay(args))) throw new Error("the daemon did not run the call")
  times.push(Number(process.hrtime.bigint() - t0) / 1e6)
  if (process.exitCode) throw new Error(`call ${i} exited ${process.exitCode}`)
}
realWrite(JSON.stringify(times) + "\n")
