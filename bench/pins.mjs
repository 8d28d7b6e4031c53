// The pin-history figures (`node bench/run.mjs --only pins`): what a long pin history costs a run
// that uses one server. Each `$MCPCTL_HOME` is seeded with N pinned tools of other servers, in the
// version 1 layout (`pins.json`, what an upgraded user has): a version that keeps pins elsewhere
// migrates them on the warm-up run, which is dropped. Sides alternate with a clean home (only the
// lean server's own pin): cold runs (`mcpctl call … --no-daemon`, wall and CPU), then warm calls
// through one daemon per home. Goal: ≤ 1.05 × the clean home, cold and warm.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createHash } from "node:crypto"
import { join } from "node:path"

/** A version 1 `pins.json` with `tools` pinned tools of other servers (~600 bytes each, 50 per server). */
export const seedHistory = (home, tools) => {
  mkdirSync(home, { recursive: true, mode: 0o700 })
  const servers = {}
  for (let i = 0; i < tools; i++) {
    const id = JSON.stringify([`/opt/servers/history-${Math.floor(i / 50)}/bin/server`, "--stdio"])
    const definition = {
      description: `Tool ${i} of a server used once long ago. `.repeat(10),
      inputSchema: { type: "object", properties: { path: { type: "string", description: "A path" }, depth: { type: "number" } }, required: ["path"] },
      annotations: { readOnlyHint: true }
    }
    const hash = createHash("sha256").update(JSON.stringify({ name: `tool${i}`, ...definition })).digest("hex")
    ;(servers[id] ??= { server: `history${Math.floor(i / 50)}`, tools: {} }).tools[`tool${i}`] = { hash, definition, at: 1_700_000_000_000 }
  }
  writeFileSync(join(home, "pins.json"), JSON.stringify({ version: 1, servers }, null, 2) + "\n", { mode: 0o600 })
}

/** CPU time (user + sys, ms) of these processes so far, from /proc (clock ticks of 10 ms). */
export const cpuOf = (pids) => pids.reduce((sum, pid) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return sum + (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return sum
  }
}, 0)

export const pinSteps = ({ plan, run, alternate, figure, summary, node, cli, bench, build, leanServer }) => ({
  pins: async () => {
    const { runs, warmup, histories, relayedCalls = 10 } = plan.pins
    const settings = join(build, "pins.json")
    writeFileSync(settings, JSON.stringify({ mcpServers: { lean: { command: node, args: [leanServer] } }, permissions: { allow: ["mcp__lean__echo"] } }))
    const homes = { clean: join(build, "pins-home-clean") }
    for (const n of histories) homes[n] = join(build, `pins-home-${n}`)
    for (const home of Object.values(homes)) rmSync(home, { recursive: true, force: true })
    mkdirSync(homes.clean, { recursive: true, mode: 0o700 })
    for (const n of histories) seedHistory(homes[n], n)
    const callArgs = ["call", "mcp__lean__echo", "text=hi", "--config", settings]
    const call = (home, extra = []) => run(node, [cli, ...callArgs, ...extra], { env: { MCPCTL_HOME: home }, cpu: true })
    // The mcpctl process's own CPU (µs; GNU time counts 10 ms ticks and the server's too).
    const cpuFile = join(build, `pins-cpu-${process.pid}.txt`)
    const coldCall = async (home) => {
      const r = await run(node, ["--import", join(bench, "raw/cpu-at-exit.mjs"), cli, ...callArgs, "--no-daemon"], {
        env: { MCPCTL_HOME: home, BENCH_CPU_FILE: cpuFile },
        cpu: true
      })
      return { ...r, ownCpuMs: Number(readFileSync(cpuFile, "utf8")) }
    }
    const checked = (side) => (r) => {
      if (r.stdout.trim() !== "hi") throw new Error(`${side}: printed ${JSON.stringify(r.stdout.slice(0, 200))}`)
      return r
    }

    for (const n of histories) {
      const label = `${n.toLocaleString("en")} tool${n === 1 ? "" : "s"}`
      const cold = await alternate(`pins cold (${label})`, ["clean", "history"], { runs, warmup }, async (side) =>
        checked(side)(await coldCall(side === "clean" ? homes.clean : homes[n])))
      const wall = (side) => cold[side].map((r) => r.wallMs)
      figure(`pin history ${label}: cold call (--no-daemon) / clean home`, {
        unit: "ms", better: "lower", mcpctl: wall("history"), raw: wall("clean"),
        goal: { text: "ratio ≤ 1.05", check: (_m, _r, ratio) => ratio <= 1.05 },
        note: "whole process `mcpctl call mcp__lean__echo text=hi --no-daemon`; the raw column is the same call on a home without history"
      })
      figure(`pin history ${label}: cold call, mcpctl process CPU / clean home`, {
        unit: "ms", better: "lower", mcpctl: cold.history.map((r) => r.ownCpuMs), raw: cold.clean.map((r) => r.ownCpuMs),
        goal: { text: "ratio ≤ 1.05", check: (_m, _r, ratio) => ratio <= 1.05 },
        note: "`process.cpuUsage()` at its exit (bench/raw/cpu-at-exit.mjs): where the pins are read; " +
          (cold.history.every((r) => r.cpuMs !== undefined) && cold.clean.every((r) => r.cpuMs !== undefined)
            ? `with the server (GNU time, 10 ms ticks): history ${summary(cold.history.map((r) => r.cpuMs)).median.toFixed(0)} ms, clean ${summary(cold.clean.map((r) => r.cpuMs)).median.toFixed(0)} ms`
            : "")
      })
    }

    // Warm: one daemon per home, the same call through each, alternating.
    const started = []
    try {
      for (const home of Object.values(homes)) {
        await run(node, [cli, "daemon", "start"], { env: { MCPCTL_HOME: home } })
        started.push(home)
      }
      // The daemon and its host processes: where a warm call's work (and the pin reads) happen.
      const pidsOf = {}
      for (const [name, home] of Object.entries(homes)) {
        checked(name)(await call(home))
        const st = JSON.parse((await run(node, [cli, "daemon", "status", "--json"], { env: { MCPCTL_HOME: home } })).stdout)
        pidsOf[name] = [st.pid, ...st.hostProcesses.map((p) => p.pid)]
      }
      for (const n of histories) {
        const label = `${n.toLocaleString("en")} tool${n === 1 ? "" : "s"}`
        const warm = await alternate(`pins warm (${label})`, ["clean", "history"], { runs: runs * 2, warmup }, async (side) => {
          const pids = pidsOf[side === "clean" ? "clean" : n]
          const home = side === "clean" ? homes.clean : homes[n]
          const r = checked(side)(await call(home))
          // The daemon's CPU over several relayed calls (no Node start each): 10 ms ticks need more than one call.
          const before = cpuOf(pids)
          await run(node, [join(bench, "raw/daemon-calls.mjs"), String(relayedCalls), ...callArgs], { env: { MCPCTL_HOME: home } })
          return { ...r, daemonCpuMs: (cpuOf(pids) - before) / relayedCalls }
        })
        figure(`pin history ${label}: warm call, daemon CPU / clean home`, {
          unit: "ms", better: "lower", mcpctl: warm.history.map((r) => r.daemonCpuMs), raw: warm.clean.map((r) => r.daemonCpuMs),
          goal: { text: "ratio ≤ 1.05", check: (_m, _r, ratio) => ratio <= 1.05 },
          note: `user + sys of the daemon and its host processes per call, over ${relayedCalls} relayed calls a sample (/proc, 10 ms ticks)`
        })
        figure(`pin history ${label}: warm daemon call / clean home`, {
          unit: "ms", better: "lower", mcpctl: warm.history.map((r) => r.wallMs), raw: warm.clean.map((r) => r.wallMs),
          goal: { text: "ratio ≤ 1.05", check: (_m, _r, ratio) => ratio <= 1.05 },
          note: `whole process \`mcpctl call\` relayed to a running daemon; p50 history ${summary(warm.history.map((r) => r.wallMs)).median.toFixed(0)} ms, clean ${summary(warm.clean.map((r) => r.wallMs)).median.toFixed(0)} ms`
        })
      }
    } finally {
      for (const home of started) await run(node, [cli, "daemon", "stop"], { env: { MCPCTL_HOME: home }, allowFail: true })
    }
  }
})
