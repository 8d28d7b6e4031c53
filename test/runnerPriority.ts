/**
 * Every test file's first step (setupFiles in vitest.workspace.ts): vitest's main process answers
 * each worker's RPCs (task updates, module transforms) and a worker whose call waits more than
 * 60 s fails the whole run ("Timeout calling onTaskUpdate"), even when every test passed. Beside
 * CPU-bound loads the main process gets no more than its share, so where the system allows it
 * (root, or CAP_SYS_NICE) it is raised a little above the rest; elsewhere nothing changes. The
 * worker itself, and whatever it starts, stays at the normal priority: a worker forked after the
 * raise inherits it, so it is put back.
 */
import { setPriority } from "node:os"

/** Nice value of vitest's main process: enough to be scheduled first, far from real-time. */
export const RUNNER_NICE = -5

const attempt = (f: () => void) => {
  try {
    f()
  } catch {
    // Not permitted (an unprivileged user), or the process is gone: leave priorities as they are.
  }
}

attempt(() => setPriority(process.ppid, RUNNER_NICE))
attempt(() => setPriority(0))
