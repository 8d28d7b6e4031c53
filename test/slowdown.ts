/**
 * How much slower than an idle machine this one runs now: the factor every test deadline is
 * scaled by. `MCPCTL_TEST_SLOWDOWN` when set (a number ≥ 1); otherwise measured once, at the start
 * of the run, by timing a bare `node -e 0` (the cost of the thing the tests do most: starting a
 * process), and written to `MCPCTL_TEST_SLOWDOWN` so the workers and what they start inherit it.
 */
import { spawnSync } from "node:child_process"

/** `node -e 0` on an idle machine (a generous figure: 40–60 ms is usual). */
export const IDLE_NODE_START_MS = 80
/** Beyond this a run is not slow but stuck: no deadline grows without bound. */
export const MAX_SLOWDOWN = 20

/** The factor named by `value`, or undefined when it is not a number ≥ 1. */
export const parseSlowdown = (value: string | undefined): number | undefined => {
  const n = value === undefined || value.trim() === "" ? NaN : Number(value)
  return Number.isFinite(n) && n >= 1 ? Math.min(n, MAX_SLOWDOWN) : undefined
}

/** The slowdown a `node -e 0` start time implies (pure). */
export const slowdownOf = (startMs: number): number =>
  Math.min(MAX_SLOWDOWN, Math.max(1, Math.round((startMs / IDLE_NODE_START_MS) * 10) / 10))

/** Times three `node -e 0` starts and returns the slowdown of the middle one. */
export const measureSlowdown = (): number => {
  const times: Array<number> = []
  for (let i = 0; i < 3; i++) {
    const start = performance.now()
    spawnSync(process.execPath, ["-e", "0"], { stdio: "ignore" })
    times.push(performance.now() - start)
  }
  return slowdownOf(times.sort((a, b) => a - b)[1]!)
}

/** Test files run at once: `MCPCTL_TEST_WORKERS` (a whole number ≥ 1), else 2. */
export const testWorkers = (env: NodeJS.ProcessEnv = process.env): number => {
  const n = Number(env.MCPCTL_TEST_WORKERS)
  return Number.isInteger(n) && n >= 1 ? n : 2
}

/**
 * The run's slowdown: from the environment, else measured and put into it. A measured figure is
 * one process starting alone; with `workers` files running at once each test shares the machine
 * with the others' servers, so it is multiplied by their number (capped at MAX_SLOWDOWN).
 */
export const slowdown = (env: NodeJS.ProcessEnv = process.env): number => {
  const given = parseSlowdown(env.MCPCTL_TEST_SLOWDOWN)
  if (given !== undefined) return given
  const measured = Math.min(MAX_SLOWDOWN, measureSlowdown() * testWorkers(env))
  env.MCPCTL_TEST_SLOWDOWN = String(measured)
  return measured
}
