/**
 * Runs the built CLI as a real process, the way a user or a script does: its own MCPCTL_HOME and
 * settings files in a temp dir, stdout/stderr captured, the exit code returned.
 */
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio"
import { spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

export const repoRoot = resolve(fileURLToPath(new URL("../../..", import.meta.url)))
export const cliBin = join(repoRoot, "apps/cli/bin/mcpctl.mjs")

/** `mcpctl serve ARGS…` as an SDK client's stdio transport: the gateway the way an MCP client starts it. */
export const serveTransport = (args: ReadonlyArray<string>, env: Readonly<Record<string, string>>) =>
  new StdioClientTransport({
    command: process.execPath,
    args: [cliBin, "serve", ...args],
    cwd: repoRoot,
    env: { ...process.env, ...env } as Record<string, string>,
    stderr: "ignore"
  })

export interface RunResult {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
  readonly pid: number
}

/** A temp workspace: a project dir and an MCPCTL_HOME, removed by `cleanup`. */
export const workspace = () => {
  const dir = mkdtempSync(join(tmpdir(), "mcpctl-cli-"))
  const home = join(dir, "home")
  const project = join(dir, "project")
  for (const d of [home, project]) writeDir(d)
  return {
    dir,
    home,
    project,
    /** Writes a settings file into the temp dir and returns its path. */
    settings: (name: string, value: unknown) => {
      const file = join(dir, name)
      writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value, null, 2))
      return file
    },
    read: (file: string) => readFileSync(file, "utf8"),
    cleanup: () => rmSync(dir, { recursive: true, force: true })
  }
}

const writeDir = (d: string) => mkdirSync(d, { recursive: true })

/** The test process's environment without the knobs of docs/CLI.md, so a developer's settings cannot change results (the run's own MCPCTL_TEST_* marks stay: tmpdir.globalSetup.ts). */
export const hostEnv = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !/^(MCP_|MAX_MCP_|MCPCTL_(?!TEST_))/.test(k))
)

/** Runs `mcpctl ARGS…` to completion. */
export const run = (
  args: ReadonlyArray<string>,
  options: { readonly home: string; readonly cwd?: string; readonly env?: Record<string, string>; readonly onSpawn?: (pid: number) => void }
): Promise<RunResult> =>
  runCommand(process.execPath, [cliBin, ...args], {
    cwd: options.cwd ?? repoRoot,
    env: { ...hostEnv, MCPCTL_HOME: options.home, ...options.env },
    ...(options.onSpawn ? { onSpawn: options.onSpawn } : {})
  }).then(({ pid, status, stderr, stdout }) => ({ code: status, stdout, stderr, pid }))

/**
 * Runs any command to completion without blocking the test worker (never `spawnSync` for anything
 * that can take seconds: a worker blocked past vitest's 60 s RPC deadline fails the whole run).
 * `status` is null when the command was killed, as by `timeout`.
 */
export const runCommand = (
  command: string,
  args: ReadonlyArray<string>,
  options: {
    readonly env?: NodeJS.ProcessEnv
    readonly cwd?: string
    readonly timeout?: number
    readonly onSpawn?: (pid: number) => void
  } = {}
): Promise<{ readonly status: number | null; readonly stdout: string; readonly stderr: string; readonly pid: number }> =>
  new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d))
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d))
    const timer = options.timeout === undefined ? undefined : setTimeout(() => child.kill("SIGKILL"), options.timeout)
    child.on("error", reject)
    if (child.pid !== undefined) options.onSpawn?.(child.pid)
    child.on("close", (code) => {
      clearTimeout(timer)
      resolvePromise({ status: code, stdout, stderr, pid: child.pid! })
    })
  })

/** Is a process alive (zombies count as dead)? */
export { isAlive } from "@mcpctl/testing/Processes"

/** A deadline scaled by the run's slowdown (`MCPCTL_TEST_SLOWDOWN`, measured at the start of the run: vitest.workspace.ts). */
export const slow = (ms: number): number => {
  const n = Number(process.env.MCPCTL_TEST_SLOWDOWN)
  return Math.round(ms * (Number.isFinite(n) && n >= 1 ? n : 1))
}
