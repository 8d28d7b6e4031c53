/**
 * Options of the whole run (the projects are in vitest.workspace.ts). Two test files at once by
 * default: most tests wait on processes they start rather than on the CPU, so two overlap well even
 * on two cores; `MCPCTL_TEST_WORKERS=1` runs one at a time (every deadline scales with the number:
 * test/slowdown.ts).
 */
import { defineConfig } from "vitest/config"
import { testWorkers } from "./test/slowdown.js"

export default defineConfig({
  test: {
    maxWorkers: testWorkers(),
    minWorkers: 1
  }
})
