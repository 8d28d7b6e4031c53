/**
 * `mcpctl skills` and `mcpctl skill` (the skills extension), run as the built CLI against a real
 * SDK v2 server with SkillsExtension (fixtures/v2-skills-server.mjs): listing reads no file, a
 * skill's SKILL.md is verified against the listing, and a tampered one is refused unread.
 */
import { Fixtures } from "@mcpctl/testing"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { workspace } from "./support.js"
// In process: what is checked is output and exit codes, which a spawn adds nothing to (inProcess.ts).
import { runInProcess as run } from "./inProcess.js"

const ws = workspace()
afterAll(() => ws.cleanup())

const settings = ws.settings("settings.json", {
  mcpServers: {
    sk: { command: process.execPath, args: [Fixtures.v2SkillsServer] },
    digest: { command: process.execPath, args: [Fixtures.v2SkillsServer, "--tamper", "digest"] },
    front: { command: process.execPath, args: [Fixtures.v2SkillsServer, "--tamper", "frontmatter"] }
  },
  permissions: { allow: ["mcp__*"] }
})

const mcpctl = (...args: Array<string>) => run([...args, "--config", settings], { home: ws.home, cwd: ws.dir })

describe("mcpctl skills", () => {
  it("--json lists name, description, URI and files of every skill", async () => {
    const r = await mcpctl("skills", "sk", "--json")
    expect(r.code).toBe(0)
    const doc = JSON.parse(r.stdout)
    expect(doc.errors).toEqual([])
    expect(doc.skills.map((s: { name: string }) => s.name).sort()).toEqual(["git-helper", "pdf-processing"])
    const pdf = doc.skills.find((s: { name: string }) => s.name === "pdf-processing")
    expect(pdf).toMatchObject({
      server: "sk",
      uri: "skill://pdf-processing/SKILL.md",
      description: "Extract, fill, and assemble PDF documents"
    })
    expect(pdf.files.map((f: { uri: string }) => f.uri)).toEqual([
      "skill://pdf-processing/SKILL.md",
      "skill://pdf-processing/references/FORMS.md"
    ])
    expect(pdf.files[0].digest).toMatch(/^sha256:[0-9a-f]{64}$/)
  })

  it("a table for people; servers without the extension have no skills", async () => {
    const r = await mcpctl("skills")
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/SERVER\s+SKILL\s+FILES\s+DESCRIPTION/)
    expect(r.stdout).toMatch(/sk\s+pdf-processing\s+2\s+Extract/)
  })
})

describe("mcpctl skill", () => {
  it("prints SKILL.md, verified; only that file is read", async () => {
    const r = await mcpctl("skill", "sk", "pdf-processing", "--json")
    expect(r.code).toBe(0)
    const doc = JSON.parse(r.stdout)
    expect(doc).toMatchObject({ server: "sk", skill: "pdf-processing", uri: "skill://pdf-processing/SKILL.md", verified: true })
    expect(doc.text).toContain("name: pdf-processing")
    const text = await mcpctl("skill", "sk", "pdf-processing")
    expect(text.stdout).toContain("# PDF processing")
  })

  it("a file of the skill, relative to its root", async () => {
    const r = await mcpctl("skill", "sk", "pdf-processing", "references/FORMS.md")
    expect(r.code).toBe(0)
    expect(r.stdout).toBe("# Forms\n\nFill them in.\n")
  })

  it("an unknown skill is a usage error naming the server's skills", async () => {
    const r = await mcpctl("skill", "sk", "pdf-procesing")
    expect(r.code).toBe(2)
    expect(r.stderr).toContain("pdf-processing")
  })

  // Same size, other bytes: the digest check; another description: the size check comes first.
  for (const [serverName, what] of [["digest", "digest"], ["front", "bytes"]] as const) {
    it(`a SKILL.md that differs from the listing is refused (exit 4, ${what}), its text not printed`, async () => {
      const r = await mcpctl("skill", serverName, "pdf-processing")
      expect(r.code).toBe(4)
      expect(r.stdout).toBe("")
      expect(r.stderr).toContain(what)
      expect(r.stderr).toContain("Refused skill pdf-processing")
    })
  }
})
