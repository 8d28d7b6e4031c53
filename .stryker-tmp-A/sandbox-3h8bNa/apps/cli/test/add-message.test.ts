/** `add` says which scope it wrote to, in words, and the file. */
// @ts-nocheck

import { afterAll, describe, expect, it } from "@effect/vitest"
import { join } from "node:path"
import { workspace } from "./support.js"
// In process: what is checked is output and exit codes, which a spawn adds nothing to (inProcess.ts).
import { runInProcess as run } from "./inProcess.js"

const ws = workspace()
afterAll(() => ws.cleanup())

describe("add's message", () => {
  it("names the scope (local by default: this project, only for you) and the file written", async () => {
    const opts = { home: ws.home, cwd: ws.project }
    const local = await run(["add", "one", "--", "node", "x.js"], opts)
    expect({ code: local.code, stdout: local.stdout }).toEqual({
      code: 0,
      stdout: `Added server "one" to the local scope (this project, only for you): ${join(ws.project, ".mcpctl/settings.local.json")}\n`
    })
    const user = await run(["add", "two", "--scope", "user", "--", "node", "x.js"], opts)
    expect(user.stdout).toMatch(/^Added server "two" to the user scope \(every project\): \S+\n$/)
  })
})
