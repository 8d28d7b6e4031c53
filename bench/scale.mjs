// The scale rows (`node bench/run.mjs --only scaleServers,scaleTools`): how mcpctl's own cost grows
// with the number of servers and of tools, against the raw SDK v2 client doing the same work.
// - scaleServers: whole process `mcpctl servers --json` on N lean stdio servers (N = 1, 10, 50,
//   100) against `raw/fan-out.mjs` in batches of 3 (mcpctl connects 3 local servers at once too:
//   MCP_SERVER_CONNECTION_BATCH_SIZE; a raw client that opens 100 at once is not the floor).
// - scaleTools: whole process `mcpctl tools --json` on one lean server with T tools (T = 1,
//   1,000, 10,000) against `raw/cold-start.mjs` on the same server.
// Each side's own CPU and peak RSS come from inside the process (raw/usage-at-exit.mjs, preloaded:
// the servers' CPU is not in it, as it would drown the client's at 100 servers); sides alternate,
// the warm-up round (pins and era verdicts written, as on any second run) is dropped; the server
// sizes share one home, so the big sizes need no warm-up round of their own.
import { readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"

export const scaleSteps = ({ plan, run, alternate, figure, node, cli, bench, build, leanServer, parsed }) => {
  const usageFile = join(build, `usage-${process.pid}.json`)
  const usage = join(bench, "raw/usage-at-exit.mjs")
  /** One whole-process run with its own CPU and peak RSS; `check` validates what it printed. */
  const measured = async (args, env, check) => {
    rmSync(usageFile, { force: true })
    const r = await run(node, ["--import", usage, ...args], { env: { ...env, BENCH_USAGE_FILE: usageFile }, timeoutMs: 600_000 })
    check(parsed(r))
    return { wallMs: r.wallMs, ...JSON.parse(readFileSync(usageFile, "utf8")) }
  }
  /**
   * The three figures of one size: client CPU (with the ratio), wall, peak RSS. `cpuGoal`: the
   * ratio the CPU row is held to where the issue sets one (cold start's at 1, fan-out's at 10).
   */
  const figures = (label, s, cpuGoal) => {
    for (const [what, key, unit] of [["client CPU", "cpuMs", "ms"], ["wall", "wallMs", "ms"], ["client peak RSS", "maxRssMb", "MB peak"]]) {
      figure(`scale: ${label}, ${what}`, {
        unit,
        better: "lower",
        mcpctl: s.mcpctl.map((r) => r[key]),
        raw: s.raw.map((r) => r[key]),
        goal: key === "cpuMs" && cpuGoal !== undefined
          ? { text: `ratio ≤ ${cpuGoal.toFixed(2)}`, check: (_m, _r, ratio) => ratio <= cpuGoal }
          : undefined
      })
    }
  }
  return {
    scaleServers: async () => {
      rmSync(join(build, "scale-home-servers"), { recursive: true, force: true })
      for (const n of plan.scale.servers) {
        const settings = join(build, `scale-servers-${n}.json`)
        const lean = { command: node, args: [leanServer] }
        writeFileSync(settings, JSON.stringify({ mcpServers: Object.fromEntries(Array.from({ length: n }, (_, i) => [`lean${i}`, lean])) }))
        // One home for every size: the lean servers share one identity (pins, era verdicts).
        const env = { MCPCTL_HOME: join(build, "scale-home-servers") }
        const connected = (side) => (doc) => {
          const ok = doc.servers.filter((x) => x.status === "connected").length
          if (ok !== n) throw new Error(`${side}: ${ok}/${n} servers connected`)
        }
        const s = await alternate(`scale: ${n} servers`, ["mcpctl", "raw"], n > 10 ? plan.scale.big : plan.scale.small, (side) =>
          side === "mcpctl"
            ? measured([cli, "servers", "--json", "--config", settings], env, connected(side))
            : measured([join(bench, "raw/fan-out.mjs"), "3", settings], env, connected(side)))
        figures(`servers --json, ${n} stdio server${n === 1 ? "" : "s"}`, s, n === 1 ? 1.0 : n === 10 ? 1.1 : undefined)
      }
    },
    scaleTools: async () => {
      for (const t of plan.scale.tools) {
        const settings = join(build, `scale-tools-${t}.json`)
        writeFileSync(settings, JSON.stringify({ mcpServers: { lean: { command: node, args: [leanServer, "--tools", String(t)] } } }))
        const env = { MCPCTL_HOME: join(build, `scale-home-tools-${t}`) }
        const listed = (side) => (doc) => {
          if (doc.tools?.length !== t) throw new Error(`${side}: ${doc.tools?.length} of ${t} tools listed`)
        }
        const s = await alternate(`scale: ${t} tools`, ["mcpctl", "raw"], t > 1_000 ? plan.scale.bigTools : plan.scale.small, (side) =>
          side === "mcpctl"
            ? measured([cli, "tools", "--json", "--config", settings], env, listed(side))
            : measured([join(bench, "raw/cold-start.mjs"), node, leanServer, "--tools", String(t)], env, listed(side)))
        figures(`tools --json, 1 server with ${t.toLocaleString("en")} tool${t === 1 ? "" : "s"}`, s, t === 1 ? 1.0 : undefined)
      }
    }
  }
}
