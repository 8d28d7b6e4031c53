/** `mcpctl skills [SERVER…]` and `mcpctl skill SERVER NAME [FILE]` (the skills extension, SEP-2640). */
// @ts-nocheck

import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import { listAllSkills, readSkill } from "@mcpctl/core/internal/catalog/Skills"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Flags from "../Flags.js"
import { runOnHost, unavailableWhenAllFailed } from "../Host.js"
import { checkServerNames, connectWithProgress } from "../Progress.js"
import { err, json, oneLine, out, table } from "../Render.js"

/** Lists skills by name and description; no skill file is read. */
export const skills = Command.make("skills", { ...Flags.global, ...Flags.adhoc, servers: Flags.servers }, (flags) =>
  runOnHost("skills", flags, Effect.gen(function*() {
    const wanted = yield* connectWithProgress(flags.servers)
    const all = yield* listAllSkills(wanted)
    const rows = all.skills.map((s) => ({
      server: s.server,
      name: s.name,
      description: s.description,
      uri: s.uri,
      files: s.resources === "dynamic" ? "dynamic" : s.resources.map((r) => ({ uri: r.uri, size: r.size, digest: r.digest })),
      frontmatter: s.frontmatter
    }))
    const failed = all.errors.map((e) => e.server)
    if (flags.json) {
      json({ skills: rows, errors: all.errors })
      return yield* unavailableWhenAllFailed(wanted, failed)
    }
    if (rows.length > 0) {
      out(table(["SERVER", "SKILL", "FILES", "DESCRIPTION"], rows.map((s) => [
        s.server,
        s.name,
        s.files === "dynamic" ? "dynamic" : String(s.files.length),
        oneLine(s.description, 70)
      ])))
    } else if (all.errors.length === 0) {
      err("No skills. Servers offer skills through the skills extension; `mcpctl servers` shows which are connected.")
    }
    for (const e of all.errors) err(`${e.server} (${e.status}): ${e.message}`)
    yield* unavailableWhenAllFailed(wanted, failed)
  }))).pipe(Command.withDescription("List the skills of every server (or of the servers named)"))

const server = Args.text({ name: "server" }).pipe(Args.withDescription("Server name"))
const name = Args.text({ name: "name" }).pipe(Args.withDescription("Skill name, as `mcpctl skills` lists it"))
const file = Args.text({ name: "file" }).pipe(
  Args.optional,
  Args.withDescription("A file of the skill, relative to its root (default: SKILL.md)")
)

/** Prints one skill's SKILL.md (or another of its files), checked against the listing first. */
export const skill = Command.make("skill", { ...Flags.global, ...Flags.adhoc, server, name, file }, (flags) =>
  runOnHost("skill", flags, Effect.gen(function*() {
    yield* checkServerNames([flags.server])
    const read = yield* readSkill(flags.server, flags.name, Option.getOrUndefined(flags.file))
    if (flags.json) {
      return json({
        server: read.server,
        skill: read.skill,
        uri: read.uri,
        mimeType: read.mimeType ?? null,
        bytes: read.bytes,
        verified: read.verified,
        text: read.text ?? null
      })
    }
    if (read.text === undefined) return err(`${read.uri} is binary (${read.bytes} bytes); --json shows its details.`)
    out(read.text.replace(/\n$/, ""))
  }))).pipe(Command.withDescription("Print a skill's SKILL.md (or one of its files), verified against the server's listing"))
