/**
 * What one run of a command remembers besides its output: whether its `--json` document is out,
 * and its exit code when it does not fail. A run of its own has one; the daemon's host process
 * runs several commands at once and gives each its own (`setRunStateLookup`, daemon/Worker.ts).
 */
export interface RunState {
  documentWritten: boolean
  successCode: number
}

const own: RunState = { documentWritten: false, successCode: 0 }
let lookup: () => RunState | undefined = () => undefined

/** The state of the run this code belongs to. */
export const runState = (): RunState => lookup() ?? own

/** Tells which run the running code belongs to (once, by the daemon's host process). */
export const setRunStateLookup = (find: () => RunState | undefined): void => {
  lookup = find
}
