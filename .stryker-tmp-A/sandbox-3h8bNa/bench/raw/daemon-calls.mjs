#!/usr/bin/env node
// @ts-nocheck
// `node daemon-calls.mjs N ARGS…`: N warm calls through a running mcpctl daemon with the relay
// client of the bin (the same bytes on the same socket as `mcpctl ARGS…`, without a Node start
// each), for the daemon's memory figure. Fails when a call does not exit 0.
import { relay } from "../../apps/cli/bin/relay.mjs"

const [n, ...args] = process.argv.slice(2)
// What the calls print is not the figure: stdout is dropped.
process.stdout.write = (_chunk, encoding, cb) => {
  if (typeof encoding === "function") encoding()
  else if (typeof cb === "function") cb()
  return true
}
for (let i = 0; i < Number(n); i++) {
  if (!(await relay(args))) throw new Error("the daemon did not run the call")
  if (process.exitCode) throw new Error(`call ${i} exited ${process.exitCode}`)
}
