// @ts-nocheck
// Preloaded with `node --import` into a process under test: at its exit, writes the process's
// own CPU time (user + sys, ms; worker threads included, children not) to $BENCH_CPU_FILE.
import { writeFileSync } from "node:fs"

const file = process.env.BENCH_CPU_FILE
if (file) {
  process.on("exit", () => {
    const { user, system } = process.cpuUsage()
    writeFileSync(file, String((user + system) / 1000))
  })
}
