// @ts-nocheck
// Preloaded with `node --import` into a process under test (the scale rows, either side): at its
// exit, writes `{"cpuMs", "maxRssMb"}` to $BENCH_USAGE_FILE: the process's own CPU (user + sys,
// worker threads included, children not) and its own peak resident set (getrusage RUSAGE_SELF).
import { writeFileSync } from "node:fs"

const file = process.env.BENCH_USAGE_FILE
if (file) {
  process.on("exit", () => {
    const { user, system } = process.cpuUsage()
    writeFileSync(file, JSON.stringify({ cpuMs: (user + system) / 1000, maxRssMb: process.resourceUsage().maxRSS / 1024 }))
  })
}
