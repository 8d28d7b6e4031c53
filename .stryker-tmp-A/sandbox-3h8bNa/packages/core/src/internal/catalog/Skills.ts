/**
 * Skills (the `io.modelcontextprotocol/skills` extension, SEP-2640, draft): a server's skills
 * listed (`skills/list`) and one skill's files read through `resources/read`, each file checked
 * against the entry the server listed (size, sha256 digest, and for `SKILL.md` its frontmatter)
 * by SDK v2's `SkillsClient`. Nothing is read before a skill is asked for: a listing reads no file,
 * and a file that fails its check is refused (its content is not shown, no other file is read).
 */
// @ts-nocheck

import { type Skill, SkillsClient, SkillVerificationError } from "@modelcontextprotocol/client/ext/skills"
import * as Effect from "effect/Effect"
import { McpRequestError, type ServerUnavailable, UsageError } from "../../Errors.js"
import { ConnectionPool, request } from "../../pool/ConnectionPool.js"
import type { RequestError } from "../pool/RequestErrors.js"
import { didYouMean } from "../Suggest.js"

/** One skill as a host shows it. */
export interface ServerSkill {
  readonly server: string
  /** The URI of its `SKILL.md` (`skill://<path>/SKILL.md`). */
  readonly uri: string
  /** `frontmatter.name` (the last segment of the skill's path). */
  readonly name: string
  readonly description: string
  readonly frontmatter: Readonly<Record<string, unknown>>
  /** The files of the skill as listed (URI, size, digest), or `"dynamic"`. */
  readonly resources: Skill["resources"]
}

/** A file of a skill, read and verified. */
export interface SkillFileRead {
  readonly server: string
  readonly skill: string
  readonly uri: string
  readonly mimeType: string | undefined
  /** The text (UTF-8); undefined for a binary file. */
  readonly text: string | undefined
  readonly bytes: number
  /** Size and digest matched the listing (false only for `"dynamic"` skills). */
  readonly verified: boolean
}

const toServerSkill = (server: string, skill: Skill): ServerSkill => {
  const fm = skill.frontmatter as Record<string, unknown>
  return {
    server,
    uri: skill.uri,
    name: typeof fm.name === "string" ? fm.name : skill.uri,
    description: typeof fm.description === "string" ? fm.description : "",
    frontmatter: fm,
    resources: skill.resources
  }
}

/** A refusal of what the server sent, as a request error (exit 4, CLI.md). */
class Refused {
  constructor(readonly message: string) {}
}

/** The skills of one server; empty when it does not declare the extension. */
export const listSkills = (server: string): Effect.Effect<ReadonlyArray<ServerSkill>, ServerUnavailable | RequestError, ConnectionPool> =>
  Effect.flatMap(ConnectionPool, (pool) =>
    pool.run(server, "skills/list", (c) => request(c, "skills/list", async (client, signal) => {
      const skills = new SkillsClient(client)
      if (!skills.supported) return []
      const listing = await skills.list({}, { signal })
      return listing.skills.map((s) => toServerSkill(server, s))
    })))

/** The skills of several servers, one error entry per server that could not be listed. */
export const listAllSkills = (servers: ReadonlyArray<string>) =>
  Effect.map(
    Effect.forEach(servers, (server) => Effect.either(listSkills(server)), { concurrency: "unbounded" }),
    (results) => {
      const skills: Array<ServerSkill> = []
      const errors: Array<{ server: string; status: string; message: string }> = []
      results.forEach((r, i) => {
        if (r._tag === "Right") skills.push(...r.right)
        else {
          const e = r.left
          errors.push({ server: servers[i]!, status: e._tag === "ServerUnavailable" ? e.status : "failed", message: e.message })
        }
      })
      return { skills, errors }
    }
  )

/**
 * Reads one file of the skill named `name` (its frontmatter name, or its `SKILL.md` URI) on
 * `server`: `SKILL.md` by default, else `file`, a path relative to the skill's root. Fails with a
 * usage error naming the server's skills when there is no such skill, and refuses (exit 4) a
 * file whose size, digest or frontmatter differs from the listing.
 */
export const readSkill = (
  server: string,
  name: string,
  file?: string
): Effect.Effect<SkillFileRead, ServerUnavailable | RequestError | UsageError, ConnectionPool> =>
  Effect.flatMap(ConnectionPool, (pool) =>
    Effect.flatMap(
      pool.run(server, "skills/list", (c) => request(c, "skills/list", async (client, signal) => {
        const skills = new SkillsClient(client)
        if (!skills.supported) return { found: undefined, names: [] as Array<string>, supported: false }
        const listing = await skills.list({}, { signal })
        const all = listing.skills.map((s) => ({ skill: s, shown: toServerSkill(server, s) }))
        const match = all.find((s) => s.shown.name === name || s.skill.uri === name)
        if (match === undefined) return { found: undefined, names: all.map((s) => s.shown.name), supported: true }
        try {
          const read = await skills.read(match.skill, file, { signal })
          return { found: { shown: match.shown, read }, names: [], supported: true }
        } catch (error) {
          if (error instanceof SkillVerificationError) return { found: new Refused(error.message), names: [], supported: true }
          throw error
        }
      })),
      ({ found, names, supported }): Effect.Effect<SkillFileRead, RequestError | UsageError> => {
        if (!supported) {
          return Effect.fail(new UsageError({ message: `Server "${server}" offers no skills (it does not declare the skills extension).` }))
        }
        if (found === undefined) {
          return Effect.fail(new UsageError({
            message: `Server "${server}" has no skill ${name}.${didYouMean(name, names)} Its skills: ${names.join(", ") || "none"}. ` +
              `Run \`mcpctl skills ${server}\`.`
          }))
        }
        if (found instanceof Refused) {
          return Effect.fail(new McpRequestError({
            server,
            method: "resources/read",
            code: -1,
            refusedAnswer: true,
            message: `Refused skill ${name} of server "${server}": ${found.message}. Its files were not used.`
          }))
        }
        const { read, shown } = found
        return Effect.succeed({
          server,
          skill: shown.name,
          uri: read.uri,
          mimeType: read.mimeType,
          text: read.text,
          bytes: read.bytes.byteLength,
          verified: read.verified
        })
      }
    ))
