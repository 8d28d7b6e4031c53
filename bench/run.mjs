#!/usr/bin/env node
// `npm run bench [-- --quick] [-- --out FILE]`: mcpctl side by side with the raw
// SDK v2 client (@modelcontextprotocol/client) (the floor) against the same lean servers, in one run.
// Prints a table of medians (min–max) and the ratio mcpctl / raw SDK, and writes the figures as
// JSON (bench/results.json; --quick writes bench/results.local.json unless --out says otherwise)
// and beside it the same as markdown to paste (results.md: date, load, speed, time per row).
// It exits non-zero only when a run fails (the harness or a command under test is broken), never
// because of a ratio. See bench/README.md for what each figure means.
import { spawn, spawnSync } from "node:child_process"
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { cpus, loadavg, platform, release, totalmem } from "node:os"
import { dirname, join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { cpuOf, pinSteps } from "./pins.mjs"
import { scaleSteps } from "./scale.mjs"

const bench = dirname(fileURLToPath(import.meta.url))
const root = dirname(bench)
const argv = process.argv.slice(2)
const quick = argv.includes("--quick")
const only = argv.includes("--only") ? argv[argv.indexOf("--only") + 1].split(",") : undefined
const outFile = argv.includes("--out")
  ? argv[argv.indexOf("--out") + 1]
  : join(bench, quick ? "results.local.json" : "results.json")

/** Iterations per figure: `runs` measured processes per side after `warmup` unmeasured ones. */
const plan = quick
  ? {
    startup: { runs: 2, warmup: 0 },
    cold: { runs: 3, warmup: 1 },
    fanout: { runs: 1, warmup: 0 },
    latency: { runs: 1, n: 1_000, warmup: 100 },
    throughput: { runs: 1, n: 1_000, warmup: 100, concurrency: 16 },
    http: { runs: 1, n: 100, warmup: 10 },
    memory: { runs: 1, n: 2_000, warmup: 200 },
    shutdown: { runs: 1 },
    cliShutdown: { runs: 1 },
    manyShutdown: { runs: 1, servers: 5 },
    killReap: { runs: 1, servers: 3 },
    daemon: { runs: 3, warmup: 1, memoryCalls: 500, kills: 1 },
    daemonConcurrency: { clients: 20, calls: 10, soloCalls: 10, toolMs: 500, echoCalls: 10 },
    flood: { runs: 1, n: 100_000 },
    pins: { runs: 3, warmup: 2, histories: [1, 10_000], relayedCalls: 5 },
    scale: { servers: [1, 10], tools: [1, 1_000], small: { runs: 1, warmup: 1 }, big: { runs: 1, warmup: 0 }, bigTools: { runs: 1, warmup: 1 } }
  }
  : {
    // The full run fits in ~20 min on 2 quiet cores: each row's elapsed time is in the results
    // (results.md, results.json `steps`); rounds were cut where min–max showed they add nothing.
    startup: { runs: 6, warmup: 1 },
    cold: { runs: 8, warmup: 1 },
    fanout: { runs: 3, warmup: 0 },
    latency: { runs: 4, n: 10_000, warmup: 500 },
    throughput: { runs: 4, n: 10_000, warmup: 500, concurrency: 16 },
    http: { runs: 4, n: 1_000, warmup: 50 },
    memory: { runs: 1, n: 20_000, warmup: 1_000 },
    shutdown: { runs: 2 },
    cliShutdown: { runs: 1 },
    manyShutdown: { runs: 2, servers: 50 },
    killReap: { runs: 2, servers: 10 },
    daemon: { runs: 8, warmup: 1, memoryCalls: 3_000, kills: 2 },
    daemonConcurrency: { clients: 20, calls: 50, soloCalls: 20, toolMs: 500, echoCalls: 50 },
    flood: { runs: 2, n: 1_000_000 },
    // Two warm-up rounds: the first migrates the version 1 file, the second runs the daily sweep.
    pins: { runs: 6, warmup: 2, histories: [1, 10_000], relayedCalls: 10 },
    // Sizes above 10 (servers) or 1,000 (tools) run once: 100 servers cost ~10 s a side. The
    // servers' sizes share one home (the lean servers are one identity), so the small sizes'
    // warm-up round warms the big ones too.
    scale: { servers: [1, 10, 50, 100], tools: [1, 1_000, 10_000], small: { runs: 3, warmup: 1 }, big: { runs: 1, warmup: 0 }, bigTools: { runs: 1, warmup: 1 } }
  }

/**
 * The in-process figures run in both protocol eras, each side pinned to it: 2025 (`initialize`,
 * the legacy lean server) and 2026-07-28 (the lean server's both-eras form). `--era legacy|modern`
 * runs one.
 */
const eras = argv.includes("--era") ? [argv[argv.indexOf("--era") + 1]] : ["legacy", "modern"]
const eraName = { legacy: "2025 era", modern: "2026-07-28 era" }
const setsid = ["/usr/bin/setsid", "/bin/setsid"].some((p) => existsSync(p))

const node = process.execPath
const cli = join(root, "apps/cli/bin/mcpctl.mjs")
const leanServer = join(bench, "servers/lean-server.mjs")
const wrapper = join(root, "packages/testing/src/fixtures/stubborn-wrapper.sh")
const peers = join(bench, "peers")
const mcporter = join(peers, "node_modules/mcporter/dist/cli.js")
/**
 * mcporter needs Node >= 24, so it is not in the root install (npm ci would warn on Node 20): its
 * own package.json and lockfile in bench/peers, installed there the first time a row needs it.
 */
const ensureMcporter = () => {
  if (existsSync(mcporter)) return
  log("installing bench/peers (mcporter) with npm ci")
  const npm = process.platform === "win32" ? "npm.cmd" : "npm"
  const r = spawnSync(npm, ["ci", "--prefix", peers, "--no-audit", "--no-fund"], { stdio: ["ignore", "inherit", "inherit"] })
  if (r.status !== 0 || !existsSync(mcporter)) throw new Error(`npm ci --prefix ${peers} failed (exit ${r.status})`)
}
const hostile = join(root, "packages/testing/src/fixtures/hostile-server.mjs")
const build = join(bench, ".build")
mkdirSync(build, { recursive: true })

const log = (line) => process.stderr.write(line + "\n")
const now = () => process.hrtime.bigint()
const ms = (ns) => Number(ns) / 1e6

// ---------------------------------------------------------------------------------------------
// Processes

/**
 * GNU time, when there, reports the CPU time (user + sys) of the process and of the children it
 * waited for: a second figure that a loaded machine disturbs much less than wall time.
 */
const gnuTime = existsSync("/usr/bin/time") ? "/usr/bin/time" : undefined
let timeFiles = 0

/**
 * Runs a command to its exit; wall time from spawn to exit, in ms, and with `cpu` the CPU time of
 * its process tree. Rejects on a non-zero exit.
 */
const run = (command, args, { env, timeoutMs = 120_000, allowFail = false, cpu = false } = {}) =>
  new Promise((resolve, reject) => {
    const timeFile = cpu && gnuTime ? join(build, `time-${process.pid}-${timeFiles++}.txt`) : undefined
    const argv = timeFile ? [gnuTime, ["-f", "%U %S", "-o", timeFile, command, ...args]] : [command, args]
    const t0 = now()
    const child = spawn(argv[0], argv[1], { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] })
    const out = []
    const err = []
    child.stdout.on("data", (c) => out.push(c))
    child.stderr.on("data", (c) => err.push(c))
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs)
    child.on("error", reject)
    child.on("exit", (code, signal) => {
      const wallMs = ms(now() - t0)
      clearTimeout(timer)
      // Output may still be in flight after 'exit'; 'close' waits for the pipes, with a bound in
      // case a leftover grandchild holds them open.
      let done = false
      const finish = () => {
        if (done) return
        done = true
        const stdout = Buffer.concat(out).toString("utf8")
        const stderr = Buffer.concat(err).toString("utf8")
        let cpuMs
        if (timeFile) {
          try {
            const [user, sys] = readFileSync(timeFile, "utf8").trim().split("\n").pop().split(" ").map(Number)
            cpuMs = (user + sys) * 1000
            rmSync(timeFile, { force: true })
          } catch {}
        }
        if ((code !== 0 || signal) && !allowFail) {
          reject(new Error(`${relative(root, command) || command} ${args.map((a) => relative(root, a).startsWith("..") ? a : relative(root, a)).join(" ")} exited ${code ?? signal}\n${stderr.slice(-2000)}`))
        } else resolve({ wallMs, cpuMs, code, stdout, stderr })
      }
      child.on("close", finish)
      setTimeout(finish, 500).unref()
    })
  })

/** Parses the JSON a run printed, or fails with the run's output. */
const parsed = (result) => {
  try {
    return JSON.parse(result.stdout)
  } catch {
    throw new Error(`not JSON on stdout:\n${result.stdout.slice(0, 500)}\n${result.stderr.slice(-1000)}`)
  }
}

// ---------------------------------------------------------------------------------------------
// Statistics

const summary = (samples) => {
  const sorted = [...samples].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
  return { median, min: sorted[0], max: sorted[sorted.length - 1], samples }
}

/**
 * Runs `sides` alternately (A B, then B A, ...) so both share the machine's noise; warm-up rounds
 * are run and dropped. `measure(side)` returns one sample (a number) or an object of samples.
 */
const alternate = async (label, sides, { runs, warmup = 0 }, measure) => {
  const samples = Object.fromEntries(sides.map((s) => [s, []]))
  for (let round = 0; round < warmup + runs; round++) {
    const order = round % 2 === 0 ? sides : [...sides].reverse()
    for (const side of order) {
      const value = await measure(side)
      if (round >= warmup) samples[side].push(value)
    }
    log(`  ${label}: round ${round + 1}/${warmup + runs}${round < warmup ? " (warm-up)" : ""}`)
  }
  return samples
}

// ---------------------------------------------------------------------------------------------
// Setup: the CLI bundle, the library entry bundle, settings files, the HTTP server

/** Bundles `lib-entry.ts` (the in-process figures) into bench/.build/ with esbuild. */
const bundleLibEntry = async () => {
  const { build: esbuild } = await import("esbuild")
  await esbuild({
    entryPoints: [join(bench, "lib-entry.ts")],
    outfile: join(build, "lib-entry.mjs"),
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    mainFields: ["module", "main"],
    // The workspace packages resolve to their sources, as in the CLI build and the tests.
    conditions: ["@mcpctl/source"],
    external: ["sharp"],
    logLevel: "warning"
  })
}

const setup = async () => {
  if (!existsSync(join(root, "apps/cli/bin/mcpctl.cjs")) || argv.includes("--build")) {
    log("building the CLI (npm run build)")
    const r = spawnSync(node, [join(root, "apps/cli/build.mjs")], { cwd: root, stdio: "inherit" })
    if (r.status !== 0) throw new Error("CLI build failed")
  }
  // The in-process figures' entry: bundled only when a row that runs it is asked for.
  const inProcess = ["latency", "throughput", "http", "memory", "shutdown"]
  if (!only || only.some((name) => inProcess.includes(name))) await bundleLibEntry()
  const settings = (servers) => ({ mcpServers: servers })
  const lean = { command: node, args: [leanServer] }
  writeFileSync(join(build, "one.json"), JSON.stringify(settings({ lean })))
  writeFileSync(
    join(build, "ten.json"),
    JSON.stringify(settings(Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`lean${i}`, lean]))))
  )
  writeFileSync(join(build, "stubborn.json"), JSON.stringify(settings({ stubborn: { command: "sh", args: [wrapper] } })))
}

/**
 * Starts the Streamable HTTP lean server of an era (legacy: stateful sessions; modern: the SDK's
 * stateless both-eras handler); both sides talk to this one process.
 */
const startHttpServer = (era) =>
  new Promise((resolve, reject) => {
    const child = spawn(node, [leanServer, "--http", "0", ...(era === "modern" ? ["--modern"] : [])], { stdio: ["ignore", "pipe", "inherit"] })
    let text = ""
    child.stdout.on("data", (c) => {
      text += c
      const m = /listening (\S+)/.exec(text)
      if (m) resolve({ url: m[1], stop: () => child.kill("SIGTERM") })
    })
    child.on("error", reject)
    child.on("exit", (code) => reject(new Error(`HTTP lean server exited ${code}`)))
  })

const libRun = async (spec) =>
  parsed(await run(node, ["--expose-gc", join(build, "lib-entry.mjs"), JSON.stringify({ server: leanServer, wrapper, ...spec })]))

/** The stubborn server's processes still alive (not zombies) after a whole CLI run. */
const stubbornLeftovers = async (pidFile, wrapperPidFile) => {
  const pids = []
  try {
    const p = JSON.parse(readFileSync(pidFile, "utf8"))
    pids.push(p.server, p.grandchild)
  } catch {}
  try {
    pids.push(Number(readFileSync(wrapperPidFile, "utf8").trim()))
  } catch {}
  const left = pids.filter(isAlive)
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL")
    } catch {}
  }
  return { left: left.length, found: pids.length }
}

/** Is a process alive (zombies count as dead)? */
const isAlive = (pid) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    const state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0]
    return state !== "Z" && state !== "X"
  } catch {
    return false
  }
}

/**
 * `count` stubborn hostile servers (each with a `sleep` grandchild in its group, all ignoring
 * INT/TERM/HUP/EOF) and their pid files; `hold` adds one that never initializes, so
 * `mcpctl servers` keeps running with the others connected.
 */
const stubbornSet = (count, tag, hold) => {
  const pidFiles = Array.from({ length: count }, (_, i) => join(build, `many-${tag}-${i}.pids`))
  const servers = Object.fromEntries(pidFiles.map((file, i) => [`s${i}`, { command: node, args: [hostile, "--stubborn", "--pid-file", file] }]))
  if (hold) servers.hold = { command: node, args: [hostile, "--never-initialize"] }
  const settings = join(build, `many-${tag}.json`)
  writeFileSync(settings, JSON.stringify({ mcpServers: servers }))
  const pids = () => pidFiles.flatMap((f) => {
    try {
      return Object.values(JSON.parse(readFileSync(f, "utf8")))
    } catch {
      return []
    }
  })
  const cleanup = () => {
    for (const pid of pids()) {
      try {
        process.kill(pid, "SIGKILL")
      } catch {}
    }
    for (const f of pidFiles) rmSync(f, { force: true })
  }
  return { settings, pidFiles, pids, cleanup }
}

const until = async (condition, timeoutMs, what) => {
  const started = Date.now()
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 10))
  }
  return Date.now() - started
}

/** Spawns a long-running command, resolves once `ready()` holds; `exited` resolves on its exit. */
const startLong = async (command, args, env, ready) => {
  const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] })
  let out = ""
  child.stdout.on("data", (c) => (out += c))
  child.stderr.on("data", () => {})
  const exited = new Promise((resolve) => child.on("exit", resolve))
  await until(() => ready(out), 300_000, "servers to start")
  return { child, exited }
}

/** `count` processes spinning on a core each, until `stop()`. */
const busyLoops = (count) => {
  const children = Array.from({ length: count }, () => spawn(node, ["-e", "for (;;) {}"], { stdio: "ignore" }))
  return { stop: () => children.forEach((c) => c.kill("SIGKILL")) }
}

/**
 * `count` stubborn servers (each with a grandchild) behind one whole process, `busy` CPU-bound
 * loops started once all are up, then SIGINT: the time to exit, the processes alive at the exit,
 * and the time until none of them is left (sampled every 10 ms from here).
 */
const shutdownMany = async (count, busy, runs) => {
  const left = { mcpctl: [], raw: [] }
  const allGone = { mcpctl: [], raw: [] }
  const label = `${count} stubborn servers${busy > 0 ? `, ${busy} busy loops` : ""}`
  const s = await alternate(`shutdown (${label})`, ["mcpctl", "raw"], { runs }, async (side) => {
    const set = stubbornSet(count, `${side}-${Date.now()}`, side === "mcpctl")
    let loops
    try {
      const ready = () => set.pidFiles.every((f) => existsSync(f)) && set.pids().length === 2 * count
      const env = { MCPCTL_HOME: join(build, "home"), MCP_TIMEOUT: "300000", MCP_SERVER_CONNECTION_BATCH_SIZE: String(count + 1) }
      const { child, exited } = side === "mcpctl"
        ? await startLong(node, [cli, "servers", "--json", "--config", set.settings], env, ready)
        : await startLong(node, [join(bench, "raw/shutdown-many.mjs"), String(count), node, hostile, "--stubborn", "--pid-file", join(build, `many-${side}-raw-{i}.pids`)], {}, (out) => out.includes("ready"))
      // Both sides idle before the signal: the raw side said "ready" once every server was
      // connected; mcpctl's servers are up once their pid files exist, but its handshakes may
      // still run. Its CPU time standing still for 250 ms (5 samples) says they are done, so the
      // row measures the shutdown, not the tail of connecting.
      const cpuTicks = () => {
        try {
          const stat = readFileSync(`/proc/${child.pid}/stat`, "utf8")
          const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
          return Number(f[11]) + Number(f[12])
        } catch {
          return undefined
        }
      }
      for (let last = cpuTicks(), still = 0; last !== undefined && still < 5; ) {
        await new Promise((r) => setTimeout(r, 50))
        const ticks = cpuTicks()
        still = ticks === last ? still + 1 : 0
        last = ticks
      }
      const pids = side === "mcpctl" ? set.pids() : Array.from({ length: count }, (_, i) => {
        try {
          return Object.values(JSON.parse(readFileSync(join(build, `many-${side}-raw-${i}.pids`), "utf8")))
        } catch {
          return []
        }
      }).flat()
      loops = busyLoops(busy)
      const t0 = now()
      // Sampled from the signal on, beside the wait for the exit: the servers may be gone first.
      const gone = until(() => pids.every((p) => !isAlive(p)), 30_000, "the groups to be gone")
        .then(() => Math.round(ms(now() - t0)), () => undefined)
      child.kill("SIGINT")
      await exited
      const wall = ms(now() - t0)
      left[side].push(pids.filter(isAlive).length)
      allGone[side].push((await gone) ?? "30000+")
      for (const pid of pids) {
        try {
          process.kill(pid, "SIGKILL")
        } catch {}
      }
      return wall
    } finally {
      loops?.stop()
      set.cleanup()
    }
  })
  const bound = busy > 0 ? 1500 : 1000
  figure(`shutdown: whole process, ${label}, Ctrl-C to exit`, {
    unit: "ms",
    better: "lower",
    mcpctl: s.mcpctl,
    raw: s.raw,
    goal: count >= 50
      ? { text: `mcpctl ≤ ${bound} ms, 0 left`, check: (m) => m.max <= bound && left.mcpctl.every((n) => n === 0) }
      : undefined,
    note: `processes left alive at exit (of ${2 * count}): mcpctl ${left.mcpctl.join(",")}, raw ${left.raw.join(",")}; ` +
      `ms from SIGINT until none left: mcpctl ${allGone.mcpctl.join(",")}, raw ${allGone.raw.join(",")} ` +
      "(raw: the SDK host closes every client at once on SIGINT)"
  })
}

// ---------------------------------------------------------------------------------------------
// Figures

const figures = {}
const goalText = {}

const figure = (name, { unit, better, goal, mcpctl, raw, ratioOf = "median", note }) => {
  const m = summary(mcpctl)
  const r = raw ? summary(raw) : undefined
  // A ratio of memory growth or of process counts means nothing (0/0, negative growth).
  const ratio = r && unit !== "MB" && unit !== "procs" ? m[ratioOf] / r[ratioOf] : undefined
  const met = goal ? goal.check(m, r, ratio) : undefined
  figures[name] = { unit, better, mcpctl: m, raw: r, ratio, goal: goal?.text, met, note }
  goalText[name] = goal?.text
  return figures[name]
}

/** The CPU time of whole-process runs, when GNU time measured it. */
const cpuFigure = (name, runs, maxRatio) => {
  if (runs.mcpctl.some((r) => r.cpuMs === undefined) || runs.raw.some((r) => r.cpuMs === undefined)) return
  figure(name, {
    unit: "ms",
    better: "lower",
    mcpctl: runs.mcpctl.map((r) => r.cpuMs),
    raw: runs.raw.map((r) => r.cpuMs),
    goal: maxRatio === undefined ? undefined : ratioAtMost(maxRatio),
    note: "GNU time: CPU of the process and the children it waited for; less disturbed by machine load than wall time"
  })
}

/** The usual goal: mcpctl's median over the other side's at most `max`. */
const ratioAtMost = (max) => ({ text: `ratio ≤ ${max.toFixed(2)}`, check: (_m, _r, ratio) => ratio <= max })

const steps = {
  /** Where a cold start's floor is: node itself, importing the SDK client, loading the CLI bundle. */
  startup: async () => {
    const s = await alternate("startup", ["node", "sdk", "mcpctl"], plan.startup, async (side) => {
      if (side === "node") return run(node, ["-e", "0"], { cpu: true })
      if (side === "sdk") {
        return run(node, ["--input-type=module", "-e", "await import('@modelcontextprotocol/client'); await import('@modelcontextprotocol/client/stdio')"], { cpu: true })
      }
      return run(node, [cli, "--version"], { cpu: true })
    })
    figure("startup: node -e 0", { unit: "ms", better: "lower", mcpctl: s.node.map((r) => r.wallMs) })
    figure("startup: mcpctl --version / import SDK client (raw)", {
      unit: "ms",
      better: "lower",
      mcpctl: s.mcpctl.map((r) => r.wallMs),
      raw: s.sdk.map((r) => r.wallMs),
      note: "no server: what loading the code costs"
    })
    cpuFigure("startup CPU: mcpctl --version / import SDK client", { mcpctl: s.mcpctl, raw: s.sdk })
    // The bin answers `--version` alone without the bundle: its floor is node itself.
    figure("startup: mcpctl --version / node -e 0", {
      unit: "ms",
      better: "lower",
      mcpctl: s.mcpctl.map((r) => r.wallMs),
      raw: s.node.map((r) => r.wallMs),
      goal: { text: "ratio ≤ 1.50", check: (_m, _r, ratio) => ratio <= 1.5 }
    })
    cpuFigure("startup CPU: mcpctl --version / node -e 0", { mcpctl: s.mcpctl, raw: s.node }, 1.5)
  },

  cold: async () => {
    const one = join(build, "one.json")
    const s = await alternate("cold start", ["mcpctl", "raw"], plan.cold, async (side) => {
      const r = side === "mcpctl"
        ? await run(node, [cli, "tools", "--json", "--config", one], { cpu: true })
        : await run(node, [join(bench, "raw/cold-start.mjs"), node, leanServer], { cpu: true })
      const tools = parsed(r).tools
      if (!Array.isArray(tools) || tools.length !== 1) throw new Error(`${side}: expected 1 tool, got ${r.stdout.slice(0, 300)}`)
      return r
    })
    figure("cold start (tools --json, 1 stdio server)", {
      unit: "ms",
      better: "lower",
      mcpctl: s.mcpctl.map((r) => r.wallMs),
      raw: s.raw.map((r) => r.wallMs),
      goal: { text: "ratio ≤ 1.00", check: (_m, _r, ratio) => ratio <= 1.0 }
    })
    cpuFigure("cold start CPU (user+sys, client + server)", s, 1.0)
  },

  fanout: async () => {
    const ten = join(build, "ten.json")
    let s = await alternate("fan-out", ["mcpctl", "raw-all", "raw-batch3"], plan.fanout, async (side) => {
      const r = side === "mcpctl"
        ? await run(node, [cli, "servers", "--json", "--config", ten], { cpu: true })
        : await run(node, [join(bench, "raw/fan-out.mjs"), side === "raw-all" ? "0" : "3", ten], { cpu: true })
      const servers = parsed(r).servers
      const connected = servers.filter((x) => x.status === "connected").length
      if (connected !== 10) throw new Error(`${side}: ${connected}/10 servers connected`)
      return r
    })
    const runs = s
    s = Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, v.map((r) => r.wallMs)]))
    const all = summary(s["raw-all"])
    const batch3 = summary(s["raw-batch3"])
    const best = all.median <= batch3.median ? "all at once" : "batches of 3"
    figure("fan-out (servers --json, 10 stdio servers)", {
      unit: "ms",
      better: "lower",
      mcpctl: s.mcpctl,
      raw: best === "all at once" ? s["raw-all"] : s["raw-batch3"],
      goal: { text: "ratio ≤ 1.10", check: (_m, _r, ratio) => ratio <= 1.1 },
      note: `raw floor = ${best} (all at once ${all.median.toFixed(0)} ms, batches of 3 ${batch3.median.toFixed(0)} ms)`
    })
    cpuFigure("fan-out CPU (user+sys, client + 10 servers)", {
      mcpctl: runs.mcpctl,
      raw: best === "all at once" ? runs["raw-all"] : runs["raw-batch3"]
    }, 1.1)
  },

  latency: async () => {
    const { runs, n, warmup } = plan.latency
    for (const era of eras) {
      // A third side where setsid exists (not in --quick): the raw client with its server in a
      // session of its own, as mcpctl's process group puts it; it tells the cost of that apart.
      const sides = ["mcpctl", "raw", ...(setsid && !quick ? ["raw-setsid"] : [])]
      const s = await alternate(`call latency (${era})`, sides, { runs }, (side) =>
        side === "raw-setsid"
          ? libRun({ figure: "latency", side: "raw", setsid: true, n, warmup, era })
          : libRun({ figure: "latency", side, n, warmup, era }))
      const cpu = (xs) => summary(xs.map((x) => x.cpuUsPerCall)).median.toFixed(0)
      const inOwnSession = s["raw-setsid"]
        ? `; raw with the server in its own session (setsid, as mcpctl's process group): p50 ${summary(s["raw-setsid"].map((x) => x.p50Ms)).median.toFixed(3)} ms, mcpctl / that ${
          (summary(s.mcpctl.map((x) => x.p50Ms)).median / summary(s["raw-setsid"].map((x) => x.p50Ms)).median).toFixed(2)
        }`
        : ""
      figure(`call latency p50 (${n} sequential, stdio, ${eraName[era]})`, {
        unit: "ms",
        better: "lower",
        mcpctl: s.mcpctl.map((x) => x.p50Ms),
        raw: s.raw.map((x) => x.p50Ms),
        goal: { text: "ratio ≤ 1.10", check: (_m, _r, ratio) => ratio <= 1.1 },
        note: `client CPU per call (user+sys, median): mcpctl ${cpu(s.mcpctl)} µs, raw ${cpu(s.raw)} µs${inOwnSession}`
      })
      figure(`call latency p99 (${n} sequential, stdio, ${eraName[era]})`, {
        unit: "ms",
        better: "lower",
        mcpctl: s.mcpctl.map((x) => x.p99Ms),
        raw: s.raw.map((x) => x.p99Ms)
      })
    }
  },

  throughput: async () => {
    const { runs, n, warmup, concurrency } = plan.throughput
    for (const era of eras) {
      const s = await alternate(`call throughput (${era})`, ["mcpctl", "raw"], { runs }, (side) =>
        libRun({ figure: "throughput", side, n, warmup, concurrency, era }))
      figure(`call throughput (${n} calls, ${concurrency} in flight, stdio, ${eraName[era]})`, {
        unit: "calls/s",
        better: "higher",
        mcpctl: s.mcpctl.map((x) => x.callsPerSec),
        raw: s.raw.map((x) => x.callsPerSec),
        goal: { text: "ratio ≥ 0.85", check: (_m, _r, ratio) => ratio >= 0.85 }
      })
    }
  },

  http: async () => {
    const { runs, n, warmup } = plan.http
    for (const era of eras) {
      // One server process per era, shared by both sides (each side its own session or requests).
      const server = await startHttpServer(era)
      try {
        const s = await alternate(`HTTP throughput (${era})`, ["mcpctl", "raw"], { runs }, (side) =>
          libRun({ figure: "http", side, n, warmup, url: server.url, era }))
        figure(`HTTP throughput (${n} sequential calls, Streamable HTTP, ${eraName[era]})`, {
          unit: "calls/s",
          better: "higher",
          mcpctl: s.mcpctl.map((x) => x.callsPerSec),
          raw: s.raw.map((x) => x.callsPerSec),
          goal: { text: "ratio ≥ 0.95", check: (_m, _r, ratio) => ratio >= 0.95 }
        })
      } finally {
        server.stop()
      }
    }
  },

  memory: async () => {
    const { runs, n, warmup } = plan.memory
    const s = await alternate("memory", ["mcpctl", "raw"], { runs }, (side) => libRun({ figure: "memory", side, n, warmup }))
    figure(`heap growth after GC (${n} calls)`, {
      unit: "MB",
      better: "lower",
      mcpctl: s.mcpctl.map((x) => x.growthMb),
      raw: s.raw.map((x) => x.growthMb),
      goal: { text: "mcpctl ≤ 2 MB", check: (m) => m.median <= 2 },
      note: `heap at 0 calls: mcpctl ${summary(s.mcpctl.map((x) => x.heapBeforeMb)).median.toFixed(1)} MB, raw ${
        summary(s.raw.map((x) => x.heapBeforeMb)).median.toFixed(1)
      } MB`
    })
  },

  shutdown: async () => {
    const s = await alternate("shutdown", ["mcpctl", "raw"], plan.shutdown, (side) => libRun({ figure: "shutdown", side }))
    figure("shutdown: close resolves (stubborn wrapper + grandchild)", {
      unit: "ms",
      better: "lower",
      mcpctl: s.mcpctl.map((x) => x.closeMs),
      raw: s.raw.map((x) => x.closeMs),
      goal: { text: "mcpctl ≤ 600 ms", check: (m) => m.max <= 600 }
    })
    figure("shutdown: processes left alive (of 3)", {
      unit: "procs",
      better: "lower",
      mcpctl: s.mcpctl.map((x) => x.leftAlive),
      raw: s.raw.map((x) => x.leftAlive),
      goal: { text: "mcpctl 0", check: (m) => m.max === 0 }
    })
  },

  /** The same stubborn server behind a whole CLI process: exit time and what outlives it. */
  cliShutdown: async () => {
    const stubborn = join(build, "stubborn.json")
    const left = { mcpctl: [], raw: [] }
    const s = await alternate("shutdown (whole process)", ["mcpctl", "raw"], plan.cliShutdown, async (side) => {
      const tag = `${process.pid}-${side}-${Date.now()}`
      const pidFile = join(build, `stubborn-${tag}.json`)
      const wrapperPidFile = join(build, `wrapper-${tag}.pid`)
      const env = { STUBBORN_PID_FILE: pidFile, STUBBORN_WRAPPER_PID_FILE: wrapperPidFile }
      // mcpctl passes only a safe set of variables to servers; these two go through the settings.
      writeFileSync(stubborn, JSON.stringify({ mcpServers: { stubborn: { command: "sh", args: [wrapper], env } } }))
      // The raw SDK passes only its default environment too, so the raw side gets a wrapper
      // command line that sets them.
      const r = side === "mcpctl"
        ? await run(node, [cli, "tools", "--json", "--config", stubborn], { allowFail: true })
        : await run(node, [join(bench, "raw/cold-start.mjs"), "env", ...Object.entries(env).map(([k, v]) => `${k}=${v}`), "sh", wrapper], {
          allowFail: true
        })
      const found = await stubbornLeftovers(pidFile, wrapperPidFile)
      left[side].push(found.left)
      return r.wallMs
    })
    figure("shutdown: whole process tools --json on the stubborn server", {
      unit: "ms",
      better: "lower",
      mcpctl: s.mcpctl,
      raw: s.raw,
      goal: { text: "mcpctl 0 left", check: () => left.mcpctl.every((n) => n === 0) },
      note: `processes left alive: mcpctl ${left.mcpctl.join(",")}, raw ${left.raw.join(",")}`
    })
  }
}

Object.assign(steps, {
  /** N stubborn servers behind one whole process, Ctrl-C: time to exit, and what is left. */
  manyShutdown: () => shutdownMany(plan.manyShutdown.servers, 0, plan.manyShutdown.runs),
  /** The same beside 4 CPU-bound busy loops: the deadline must hold while the host waits for a core. */
  manyShutdownBusy: () => shutdownMany(plan.manyShutdown.servers, 4, plan.manyShutdown.runs),
  /** 3 stubborn servers, idle and beside 4 busy loops: what 50 cost over a few. */
  fewShutdown: () => shutdownMany(3, 0, plan.manyShutdown.runs),
  fewShutdownBusy: () => shutdownMany(3, 4, plan.manyShutdown.runs),

  /** kill -9 of mcpctl with N stubborn servers: time until the watchdog has ended every group. */
  killReap: async () => {
    const { runs, servers: count } = plan.killReap
    const left = []
    const samples = []
    for (let round = 0; round < runs; round++) {
      const set = stubbornSet(count, `kill-${Date.now()}`, true)
      try {
        const env = { MCPCTL_HOME: join(build, "home"), MCP_TIMEOUT: "300000", MCP_SERVER_CONNECTION_BATCH_SIZE: String(count + 1) }
        const { child, exited } = await startLong(node, [cli, "servers", "--json", "--config", set.settings], env, () =>
          set.pidFiles.every((f) => existsSync(f)) && set.pids().length === 2 * count)
        const pids = set.pids()
        const t0 = now()
        child.kill("SIGKILL")
        await exited
        await until(() => pids.every((p) => !isAlive(p)), 10_000, "the groups to be gone").catch(() => undefined)
        samples.push(ms(now() - t0))
        left.push(pids.filter(isAlive).length)
      } finally {
        set.cleanup()
      }
      log(`  kill -9 reaping: round ${round + 1}/${runs}`)
    }
    figure(`shutdown: kill -9 of mcpctl, ${count} stubborn servers, until none is left`, {
      unit: "ms",
      better: "lower",
      mcpctl: samples,
      goal: { text: "mcpctl ≤ 1500 ms, 0 left", check: (m) => m.max <= 1500 && left.every((n) => n === 0) },
      note: `processes left alive (of ${2 * count}): ${left.join(",")}; a raw SDK host killed with -9 leaves all of them running`
    })
  }
})

/** The resident memory of processes (VmRSS, MB), from /proc. */
const rssMb = (pids) => pids.reduce((sum, pid) => {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0)
    return sum + kb / 1024
  } catch {
    return sum
  }
}, 0)

Object.assign(steps, {
  /**
   * Issue 15: a warm `mcpctl call` through the daemon against `node -e 0`, the same call with
   * `--no-daemon`, and mcporter's keep-alive daemon call, on the lean server, alternating; then
   * the daemon's memory after 100 and after N calls, and kill -9 of the daemon until its host
   * processes and servers are gone.
   */
  daemon: async () => {
    const { runs, warmup, memoryCalls, kills } = plan.daemon
    const home = join(build, "daemon-home")
    rmSync(home, { recursive: true, force: true })
    const settings = join(build, "daemon.json")
    writeFileSync(settings, JSON.stringify({ mcpServers: { lean: { command: node, args: [leanServer] } }, permissions: { allow: ["mcp__lean__echo"] } }))
    ensureMcporter()
    const mcporterDir = join(build, "mcporter")
    mkdirSync(mcporterDir, { recursive: true })
    const mcporterConfig = join(mcporterDir, "mcporter.json")
    writeFileSync(mcporterConfig, JSON.stringify({ mcpServers: { lean: { command: node, args: [leanServer], lifecycle: "keep-alive" } } }))
    const env = { MCPCTL_HOME: home }
    const mcporterEnv = { XDG_STATE_HOME: join(mcporterDir, "state"), XDG_CONFIG_HOME: join(mcporterDir, "config"), XDG_CACHE_HOME: join(mcporterDir, "cache") }
    const callArgs = [cli, "call", "mcp__lean__echo", "text=hi", "--config", settings]
    const status = async () => parsed(await run(node, [cli, "daemon", "status", "--json"], { env, allowFail: true }))
    await run(node, [cli, "daemon", "start"], { env: { ...env, NODE_OPTIONS: "--expose-gc" } })
    try {
      const s = await alternate("daemon call", ["node", "warm", "cold", "mcporter"], { runs, warmup }, async (side) => {
        const r = side === "node"
          ? await run(node, ["-e", "0"], { cpu: true })
          : side === "warm"
          ? await run(node, callArgs, { env, cpu: true })
          : side === "cold"
          ? await run(node, [...callArgs, "--no-daemon"], { env, cpu: true })
          : await run(node, [mcporter, "--config", mcporterConfig, "call", "lean.echo", "text=hi"], { env: mcporterEnv, cpu: true })
        if (side !== "node" && r.stdout.trim() !== "hi") throw new Error(`${side}: printed ${JSON.stringify(r.stdout.slice(0, 200))}`)
        return r
      })
      const wall = Object.fromEntries(Object.entries(s).map(([k, v]) => [k, v.map((r) => r.wallMs)]))
      const warmMedian = summary(wall.warm).median
      const ratioTo = (side) => warmMedian / summary(wall[side]).median
      figure("daemon: warm call / node -e 0", {
        unit: "ms", better: "lower", mcpctl: wall.warm, raw: wall.node,
        goal: { text: "ratio ≤ 1.5", check: (_m, _r, ratio) => ratio <= 1.5 },
        note: "whole process `mcpctl call mcp__lean__echo text=hi` through the daemon (the bin relays it; no bundle, no Effect, no SDK) / `node -e 0`"
      })
      figure("daemon: warm call / the same call --no-daemon", {
        unit: "ms", better: "lower", mcpctl: wall.warm, raw: wall.cold,
        goal: { text: "ratio ≤ 0.4", check: (_m, _r, ratio) => ratio <= 0.4 }
      })
      figure("daemon: warm call / mcporter keep-alive daemon call", {
        unit: "ms", better: "lower", mcpctl: wall.warm, raw: wall.mcporter,
        goal: { text: "ratio ≤ 0.6", check: (_m, _r, ratio) => ratio <= 0.6 },
        note: `mcporter 0.12.3 \`call lean.echo text=hi\`, the server \`"lifecycle": "keep-alive"\`; ratios of medians: node ${ratioTo("node").toFixed(2)}, cold ${ratioTo("cold").toFixed(2)}, mcporter ${ratioTo("mcporter").toFixed(2)}`
      })
      cpuFigure("daemon: warm call CPU / node -e 0 CPU", { mcpctl: s.warm, raw: s.node }, 1.5)

      // Memory: the daemon and its host process after 100 calls and after `memoryCalls`.
      const driver = [join(bench, "raw/daemon-calls.mjs")]
      const relayArgs = callArgs.slice(1)
      // The daemon was started with --expose-gc: `daemon status` collects before it reports.
      const memory = async () => {
        const st = await status()
        const all = [st.memory, ...st.hostProcesses.map((p) => p.memory)]
        return {
          heap: all.reduce((sum, m) => sum + m.heapUsedMb, 0),
          rss: rssMb([st.pid, ...st.hostProcesses.map((p) => p.pid)])
        }
      }
      await run(node, [...driver, "100", ...relayArgs], { env, timeoutMs: 600_000 })
      const after100 = await memory()
      await run(node, [...driver, String(memoryCalls - 100), ...relayArgs], { env, timeoutMs: 1_800_000 })
      const afterN = await memory()
      figure(`daemon: heap growth after GC, 100 → ${memoryCalls} calls`, {
        unit: "MB", better: "lower", mcpctl: [afterN.heap - after100.heap],
        goal: { text: "≤ 5 MB", check: (m) => m.median <= 5 },
        note: `heap used after gc() of the daemon + its host process: ${after100.heap.toFixed(1)} MB after 100 calls, ${afterN.heap.toFixed(1)} MB after ${memoryCalls}; ` +
          `resident (VmRSS, V8 keeps pages it grew into): ${after100.rss.toFixed(1)} → ${afterN.rss.toFixed(1)} MB`
      })
    } finally {
      await run(node, [cli, "daemon", "stop"], { env, allowFail: true })
      await run(node, [mcporter, "--config", mcporterConfig, "daemon", "stop"], { env: mcporterEnv, allowFail: true })
    }

    // kill -9 of the daemon: until its host process and the server are gone.
    const samples = []
    const left = []
    for (let i = 0; i < kills; i++) {
      await run(node, [cli, "daemon", "start"], { env })
      await run(node, callArgs, { env })
      const st = await status()
      const hostPids = st.hostProcesses.map((p) => p.pid)
      const serverPids = hostPids.flatMap((p) => childrenOfPid(p)).filter((p) => isAlive(p))
      const all = [...hostPids, ...serverPids]
      const t0 = now()
      process.kill(st.pid, "SIGKILL")
      await until(() => all.every((p) => !isAlive(p)), 10_000, "the daemon's processes to be gone").catch(() => undefined)
      samples.push(ms(now() - t0))
      left.push(all.filter(isAlive).length)
      for (const pid of all) {
        try {
          process.kill(pid, "SIGKILL")
        } catch {}
      }
    }
    figure("daemon: kill -9 of the daemon, until its host process and server are gone", {
      unit: "ms", better: "lower", mcpctl: samples,
      goal: { text: "≤ 1500 ms, 0 left", check: (m) => m.max <= 1500 && left.every((n) => n === 0) },
      note: `processes left alive: ${left.join(",")}`
    })
  }
})

Object.assign(steps, {
  /**
   * One warm host, many clients: `clients` relay clients at once, each making `calls` calls one
   * after another of a tool the server takes `toolMs` to answer, against one client alone. Each
   * client is `raw/daemon-timed-calls.mjs` (the bin's relay client in a loop, times per call).
   */
  daemonConcurrency: async () => {
    const { clients, calls, soloCalls, toolMs, echoCalls } = plan.daemonConcurrency
    const home = join(build, "daemon-concurrency-home")
    rmSync(home, { recursive: true, force: true })
    const settings = join(build, "daemon-concurrency.json")
    writeFileSync(settings, JSON.stringify({
      mcpServers: { sleep: { command: node, args: [join(bench, "servers/sleep-server.mjs")] } },
      permissions: { allow: ["mcp__sleep__sleep"] }
    }))
    const env = { MCPCTL_HOME: home }
    const driver = join(bench, "raw/daemon-timed-calls.mjs")
    const callArgs = ["call", "mcp__sleep__sleep", `ms=${toolMs}`, "--config", settings]
    const status = async () => parsed(await run(node, [cli, "daemon", "status", "--json"], { env, allowFail: true }))
    const heap = async () => {
      const st = await status()
      return [st.memory, ...st.hostProcesses.map((p) => p.memory)].reduce((sum, m) => sum + m.heapUsedMb, 0)
    }
    const percentile = (samples, p) => [...samples].sort((a, b) => a - b)[Math.min(samples.length - 1, Math.floor(p * samples.length))]
    await run(node, [cli, "daemon", "start"], { env: { ...env, NODE_OPTIONS: "--expose-gc" } })
    try {
      // Warm: the server started, the host built.
      await run(node, [driver, "2", ...callArgs], { env })
      const solo = parsed(await run(node, [driver, String(soloCalls), ...callArgs], { env, timeoutMs: 600_000 }))
      const heapBefore = await heap()
      const t0 = now()
      const each = await Promise.all(Array.from({ length: clients }, () => run(node, [driver, String(calls), ...callArgs], { env, timeoutMs: 1_800_000 })))
      const wallS = ms(now() - t0) / 1000
      const all = each.flatMap((r) => parsed(r))
      const heapAfter = await heap()
      if (all.length !== clients * calls) throw new Error(`${all.length} of ${clients * calls} calls answered`)
      figure(`daemon: ${clients} clients × ${calls} calls of a ${toolMs} ms tool, p50 / one client's p50`, {
        unit: "ms", better: "lower", mcpctl: all, raw: solo,
        goal: { text: "ratio ≤ 1.5, no call lost", check: (_m, _r, ratio) => ratio <= 1.5 },
        note: `one warm host; p95 ${percentile(all, 0.95).toFixed(0)} ms (one client: ${percentile(solo, 0.95).toFixed(0)} ms); ` +
          `${all.length} calls in ${wallS.toFixed(1)} s; heap of the daemon + host process after gc(): ${heapBefore.toFixed(1)} → ${heapAfter.toFixed(1)} MB`
      })
      figure(`daemon: heap growth after GC over ${clients * calls} concurrent calls`, {
        unit: "MB", better: "lower", mcpctl: [heapAfter - heapBefore],
        goal: { text: "≤ 5 MB", check: (m) => m.median <= 5 }
      })

      // Instant echo (`ms=0`): the figure is CPU, so it stands next to its floor: with `clients`
      // callers in a closed loop on `cores` cores, p50 ≥ clients × (CPU per call) / cores, the
      // CPU of everything a call runs (relay clients, daemon, host process, server).
      const echoArgs = ["call", "mcp__sleep__sleep", "ms=0", "--config", settings]
      const soloEcho = parsed(await run(node, [driver, String(soloCalls), ...echoArgs], { env }))
      const st = await status()
      const hostPids = st.hostProcesses.map((p) => p.pid)
      const daemonPids = [st.pid, ...hostPids, ...hostPids.flatMap((p) => childrenOfPid(p))]
      const cpuBefore = cpuOf(daemonPids)
      const echoes = await Promise.all(Array.from({ length: clients }, () =>
        run(node, [driver, String(echoCalls), ...echoArgs], { env, timeoutMs: 1_800_000, cpu: true })))
      const daemonCpuMs = cpuOf(daemonPids) - cpuBefore
      const echoAll = echoes.flatMap((r) => parsed(r))
      if (echoAll.length !== clients * echoCalls) throw new Error(`${echoAll.length} of ${clients * echoCalls} echo calls answered`)
      const clientCpuMs = echoes.every((r) => r.cpuMs !== undefined) ? echoes.reduce((sum, r) => sum + r.cpuMs, 0) : undefined
      const cpuPerCall = ((clientCpuMs ?? 0) + daemonCpuMs) / echoAll.length
      const floorMs = clients * cpuPerCall / cpus().length
      figure(`daemon: ${clients} clients × ${echoCalls} instant calls, p50 / its CPU floor`, {
        unit: "ms", better: "lower", mcpctl: echoAll, raw: [floorMs],
        note: `floor = ${clients} clients × ${cpuPerCall.toFixed(1)} ms CPU per call / ${cpus().length} cores ` +
          `(daemon + host + server ${(daemonCpuMs / echoAll.length).toFixed(1)} ms, relay clients, each one's Node start included, ${clientCpuMs === undefined ? "not measured" : (clientCpuMs / echoAll.length).toFixed(1)} ms); ` +
          `one client alone: p50 ${summary(soloEcho).median.toFixed(1)} ms; p95 ${percentile(echoAll, 0.95).toFixed(0)} ms`
      })
    } finally {
      await run(node, [cli, "daemon", "stop"], { env, allowFail: true })
    }
  },

  /**
   * A server-log flood: whole process `mcpctl call` of a tool that first sends N
   * `notifications/message` at debug (bench/servers/flood-server.mjs, big writes), at the default
   * `--log-level warning`, so all are dropped. The figure is the mcpctl process's own CPU
   * (`process.cpuUsage` at exit, bench/raw/cpu-at-exit.mjs: the server's CPU is not in it), less
   * the same call with N = 0 (start, connect, list, exit).
   */
  flood: async () => {
    const { runs, n } = plan.flood
    const settings = join(build, "flood.json")
    writeFileSync(settings, JSON.stringify({
      mcpServers: { f: { command: node, args: [join(bench, "servers/flood-server.mjs")] } },
      permissions: { allow: ["mcp__f__*"] }
    }))
    const cpuFile = join(build, `flood-cpu-${process.pid}.txt`)
    const once = async (count) => {
      const r = await run(node, ["--import", join(bench, "raw/cpu-at-exit.mjs"), cli, "call", "mcp__f__flood", `count=${count}`, "--config", settings, "--no-daemon"], {
        env: { MCPCTL_HOME: join(build, "flood-home"), BENCH_CPU_FILE: cpuFile },
        timeoutMs: 600_000
      })
      if (!r.stdout.includes(`sent ${count}`)) throw new Error(`flood: printed ${JSON.stringify(r.stdout.slice(0, 200))}`)
      return { cpuMs: Number(readFileSync(cpuFile, "utf8")), wallMs: r.wallMs }
    }
    const s = await alternate("flood", ["flood", "none"], { runs }, (side) => once(side === "flood" ? n : 0))
    const net = s.flood.map((r, i) => r.cpuMs - s.none[i].cpuMs)
    const goalMs = 5_000 * n / 1_000_000
    figure(`flood: client CPU for ${n.toLocaleString("en")} debug notifications/message (dropped)`, {
      unit: "ms", better: "lower", mcpctl: net,
      goal: { text: `≤ ${goalMs} ms (5 s per million)`, check: (m) => m.median <= goalMs },
      note: `mcpctl process CPU less the same call with none: flood ${s.flood.map((r) => r.cpuMs.toFixed(0)).join(",")} ms, none ${s.none.map((r) => r.cpuMs.toFixed(0)).join(",")} ms; wall ${s.flood.map((r) => r.wallMs.toFixed(0)).join(",")} ms`
    })
  }
})

// Pin history (bench/pins.mjs): cold and warm calls with a long pin history against a clean home.
Object.assign(steps, pinSteps({ plan, run, alternate, figure, summary, node, cli, bench, build, leanServer }))
// Scale (bench/scale.mjs): N servers, T tools, client CPU and peak RSS against the raw client.
Object.assign(steps, scaleSteps({ plan, run, alternate, figure, node, cli, bench, build, leanServer, parsed }))

/** The children of a process (Linux /proc), for the daemon's host process: its servers and watchdog. */
const childrenOfPid = (pid) => {
  const found = []
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8")
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid) found.push(Number(entry))
    } catch {}
  }
  return found
}

// ---------------------------------------------------------------------------------------------
// Report

const fmt = (x, unit) => {
  if (x === undefined) return "-"
  if (unit === "calls/s") return x.toFixed(0)
  if (unit === "procs") return x.toFixed(0)
  if (unit === "MB") return x.toFixed(2)
  return x < 10 ? x.toFixed(3) : x.toFixed(0)
}
const cell = (s, unit) => (s ? `${fmt(s.median, unit)} (${fmt(s.min, unit)}–${fmt(s.max, unit)})` : "-")

const markdownTable = () => {
  const rows = [
    "| figure | unit | mcpctl median (min–max) | raw SDK (or the row's baseline) median (min–max) | ratio | goal | met |",
    "| --- | --- | --- | --- | --- | --- | --- |"
  ]
  for (const [name, f] of Object.entries(figures)) {
    rows.push(
      `| ${name} | ${f.unit} | ${cell(f.mcpctl, f.unit)} | ${cell(f.raw, f.unit)} | ${
        f.ratio === undefined || !Number.isFinite(f.ratio) ? "-" : f.ratio.toFixed(2)
      } | ${f.goal ?? ""} | ${f.met === undefined ? "" : f.met ? "yes" : "**no**"} |`
    )
  }
  const notes = Object.entries(figures).filter(([, f]) => f.note).map(([name, f]) => `- ${name}: ${f.note}`)
  return [...rows, "", ...notes].join("\n")
}

const machine = () => ({
  cpu: cpus()[0]?.model ?? "unknown",
  cores: cpus().length,
  node: process.version,
  platform: `${platform()} ${release()}`,
  memoryGb: Math.round(totalmem() / 2 ** 30),
  loadAverageAtStart: loadavg().map((x) => Number(x.toFixed(2)))
})

/** The machine's speed now: the median wall time of 5 `node -e 0`. */
const nodeStartMs = async () => {
  const walls = []
  for (let i = 0; i < 5; i++) walls.push((await run(node, ["-e", "0"])).wallMs)
  return Math.round(summary(walls).median)
}

const load = (xs) => xs.map((x) => x.toFixed(1)).join(" ")

/** The plan entry a step reads (the shutdown and scale rows share theirs). */
const planKey = (step) => (/^(many|few)Shutdown/.test(step) ? "manyShutdown" : step.startsWith("scale") ? "scale" : step)

/** The results as markdown to paste into bench/README.md's "Latest results": context, table, notes, time per row. */
const markdownReport = (results) => {
  const m = results.machine
  const rowTimes = Object.entries(results.steps).map(([name, st]) => `| \`${name}\` | ${st.elapsedSec} | ${st.failed ? "**failed**" : "ok"} |`)
  return [
    `Run of ${results.date.slice(0, 16).replace("T", " ")} UTC: \`${results.command}\`, ${(results.durationSec / 60).toFixed(1)} min; ` +
    `${m.cores} × ${m.cpu}, ${m.platform}, Node ${m.node}; load average (1, 5, 15 min) ${load(m.loadAverageAtStart)} at the start, ` +
    `${load(m.loadAverageAtEnd)} at the end; \`node -e 0\` ${m.nodeStartMsAtStart} ms at the start, ${m.nodeStartMsAtEnd} ms at the end ` +
    "(the machine's speed: a loaded machine shows here first).",
    "",
    results.table,
    "",
    "| row (`--only`) | elapsed (s) | |",
    "| --- | --- | --- |",
    ...rowTimes,
    "",
    `Plan: ${[...new Set(Object.keys(results.steps).map(planKey))].map((k) => `\`${k}\` ${JSON.stringify(results.plan[k] ?? {}).replace(/"/g, "")}`).join("; ")}.`
  ].join("\n") + "\n"
}

const main = async () => {
  const started = Date.now()
  const info = machine()
  log(`mcpctl bench${quick ? " --quick" : ""}: ${info.cpu}, ${info.cores} cores, node ${info.node}, load ${info.loadAverageAtStart.join(" ")}`)
  await setup()
  const nodeStartMsAtStart = await nodeStartMs()
  log(`node -e 0: ${nodeStartMsAtStart} ms`)
  const failures = []
  const stepTimes = {}
  for (const [name, step] of Object.entries(steps)) {
    if (only && !only.includes(name)) continue
    log(`${name}…`)
    const t0 = Date.now()
    let failed = false
    try {
      await step()
    } catch (error) {
      failed = true
      failures.push({ step: name, error: String(error?.stack ?? error) })
      log(`  FAILED: ${error?.message ?? error}`)
    }
    stepTimes[name] = { elapsedSec: Math.round((Date.now() - t0) / 100) / 10, ...(failed ? { failed } : {}) }
    log(`  ${name}: ${stepTimes[name].elapsedSec} s`)
  }
  const nodeStartMsAtEnd = await nodeStartMs()
  const table = markdownTable()
  process.stdout.write(table + "\n")
  const results = {
    quick,
    command: ["npm run bench", ...(argv.length > 0 ? ["--", ...argv] : [])].join(" "),
    date: new Date(started).toISOString(),
    durationSec: Math.round((Date.now() - started) / 100) / 10,
    machine: { ...info, loadAverageAtEnd: loadavg().map((x) => Number(x.toFixed(2))), nodeStartMsAtStart, nodeStartMsAtEnd },
    plan,
    steps: stepTimes,
    figures,
    failures,
    table
  }
  writeFileSync(outFile, JSON.stringify(results, null, 2) + "\n")
  const mdFile = outFile.replace(/\.json$/, "") + ".md"
  writeFileSync(mdFile, markdownReport(results))
  log(`wrote ${relative(process.cwd(), outFile)} and ${relative(process.cwd(), mdFile)} in ${results.durationSec} s`)
  if (failures.length > 0) {
    for (const f of failures) log(`\n${f.step} failed:\n${f.error}`)
    process.exit(1)
  }
}

main().catch((error) => {
  log(`bench harness failed: ${error?.stack ?? error}`)
  process.exit(1)
})
