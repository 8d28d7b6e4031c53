/**
 * A deadline scaled by the run's slowdown (`MCPCTL_TEST_SLOWDOWN`, measured at the start of the
 * run by vitest.workspace.ts): for the few bounds a test cannot replace with an event.
 */
// @ts-nocheck

export const slowdown = (): number => {
  const n = Number(process.env.MCPCTL_TEST_SLOWDOWN)
  return Number.isFinite(n) && n >= 1 ? n : 1
}

/** `ms` on this machine now. */
export const slow = (ms: number): number => Math.round(ms * slowdown())
