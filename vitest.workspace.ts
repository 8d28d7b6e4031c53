import { defineWorkspace } from "vitest/config"
import { slowdown } from "./test/slowdown.js"

// Every deadline is scaled by the run's slowdown (test/slowdown.ts: MCPCTL_TEST_SLOWDOWN, or measured
// here once and exported to the workers), so a loaded machine gets proportionally longer timeouts.
const factor = slowdown()
const scaled = (ms: number) => Math.round(ms * factor)

// In the repository every package resolves to its TypeScript sources (the "@mcpctl/source" export
// condition); installed packages resolve to the built dist/ files.
const resolve = { conditions: ["@mcpctl/source"] }
const ssr = { resolve: { conditions: ["@mcpctl/source"], externalConditions: ["@mcpctl/source"] } }

// Every package and app is its own test project; integration tests spawn real servers,
// so each project keeps generous timeouts and runs files in forked processes. Each runs with a
// TMPDIR of its own, removed when the run ends (test/tmpdir.globalSetup.ts), and each test file a
// HOME of its own that fails the file if a test wrote $HOME/.mcpctl (test/hermeticHome.ts). `soak` holds the
// long-running core tests (50 stubborn servers, kill -9 loops, endless answers, an agent loop of
// 1,000 calls, real servers started with a delay). `harness` tests the run guard itself (a nested
// vitest run interrupted with SIGINT):
// `npm run soak` runs it, `npm test` does not.
export default defineWorkspace([
  {
    resolve,
    ssr,
    test: {
      name: "core",
      root: "./packages/core",
      include: ["test/**/*.test.ts"],
      globalSetup: ["../../test/tmpdir.globalSetup.ts"],
      setupFiles: ["../../test/runnerPriority.ts", "../../test/hermeticHome.ts"],
      testTimeout: scaled(30_000),
      hookTimeout: scaled(30_000),
      pool: "forks"
    }
  },
  {
    resolve,
    ssr,
    test: {
      name: "soak",
      root: "./packages/core",
      include: ["soak/**/*.test.ts"],
      globalSetup: ["../../test/tmpdir.globalSetup.ts"],
      setupFiles: ["../../test/runnerPriority.ts", "../../test/hermeticHome.ts"],
      testTimeout: scaled(120_000),
      hookTimeout: scaled(30_000),
      pool: "forks"
    }
  },
  {
    resolve,
    ssr,
    test: {
      name: "testing",
      root: "./packages/testing",
      include: ["test/**/*.test.ts"],
      globalSetup: ["../../test/tmpdir.globalSetup.ts"],
      setupFiles: ["../../test/runnerPriority.ts", "../../test/hermeticHome.ts"],
      testTimeout: scaled(30_000),
      hookTimeout: scaled(30_000),
      pool: "forks"
    }
  },
  {
    resolve,
    ssr,
    test: {
      name: "cli",
      root: "./apps/cli",
      include: ["test/**/*.test.ts"],
      globalSetup: ["../../test/tmpdir.globalSetup.ts", "./test/globalSetup.ts"],
      setupFiles: ["../../test/runnerPriority.ts", "../../test/hermeticHome.ts"],
      testTimeout: scaled(60_000),
      hookTimeout: scaled(60_000),
      pool: "forks"
    }
  },
  {
    test: {
      name: "harness",
      root: ".",
      include: ["test/harness.test.ts"],
      globalSetup: ["./test/tmpdir.globalSetup.ts"],
      setupFiles: ["./test/runnerPriority.ts"],
      testTimeout: scaled(60_000),
      hookTimeout: scaled(30_000),
      pool: "forks"
    }
  },
  {
    // `npm run test:lb`: replicas of serve --http behind a real nginx (installed by
    // scripts/ensure-nginx.sh when missing); slow, so not part of `npm test`.
    resolve,
    ssr,
    test: {
      name: "lb",
      root: "./apps/cli",
      include: ["lb/**/*.test.ts"],
      globalSetup: ["../../test/tmpdir.globalSetup.ts", "./test/globalSetup.ts"],
      setupFiles: ["../../test/runnerPriority.ts"],
      testTimeout: 240_000,
      hookTimeout: 120_000,
      pool: "forks"
    }
  },
  {
    // The packages as a user installs them: npm pack, npm install of the tarballs into temp dirs,
    // the README's Library example type-checked and run there. Plain Node resolution, no conditions.
    test: {
      name: "package",
      root: ".",
      include: ["test/package.test.ts"],
      globalSetup: ["./test/tmpdir.globalSetup.ts", "./test/package.globalSetup.ts"],
      setupFiles: ["./test/runnerPriority.ts"],
      testTimeout: scaled(120_000),
      hookTimeout: scaled(180_000),
      pool: "forks"
    }
  }
])
