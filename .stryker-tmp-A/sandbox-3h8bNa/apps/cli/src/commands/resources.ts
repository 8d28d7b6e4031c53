/** `mcpctl resources [SERVER…]` and `mcpctl read SERVER URI [--out FILE]`. */
// @ts-nocheck

import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { McpConfig } from "@mcpctl/core/McpConfig"
import { UsageError } from "@mcpctl/core/Errors"
import {
  listAllResources,
  readResource,
  readResourceToFiles,
  setLogLevel
} from "@mcpctl/core/Resources"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as fs from "node:fs/promises"
import * as Path from "node:path"
import * as Flags from "../Flags.js"
import { runOnHost, unavailableWhenAllFailed } from "../Host.js"
import { checkServerNames, connectWithProgress } from "../Progress.js"
import { err, json, oneLine, out, table } from "../Render.js"

/** Lists what servers offer besides tools; templates too, since their URIs are what `read` needs filled in. */
export const resources = Command.make("resources", { ...Flags.global, ...Flags.adhoc, servers: Flags.servers }, (flags) =>
  runOnHost("resources", flags, Effect.gen(function*() {
    const wanted = yield* connectWithProgress(flags.servers)
    const all = yield* listAllResources(wanted)
    const resources = all.resources.map((r) => ({
      server: r.server,
      uri: r.uri,
      name: r.name,
      mimeType: r.mimeType ?? null,
      ...(r.title === undefined ? {} : { title: r.title }),
      ...(r.description === undefined ? {} : { description: r.description }),
      icons: r.icons ?? []
    }))
    const templates = all.templates.map((t) => ({
      server: t.server,
      uriTemplate: t.uriTemplate,
      name: t.name,
      mimeType: t.mimeType ?? null,
      ...(t.title === undefined ? {} : { title: t.title }),
      ...(t.description === undefined ? {} : { description: t.description }),
      icons: t.icons ?? []
    }))
    const failed = all.errors.map((e) => e.server)
    if (flags.json) {
      json({ resources, templates, errors: all.errors })
      return yield* unavailableWhenAllFailed(wanted, failed)
    }
    if (resources.length > 0) {
      out(table(
        ["SERVER", "URI", "MIME", "NAME"],
        resources.map((r) => [r.server, r.uri, r.mimeType ?? "-", oneLine(r.title ?? r.name, 60)])
      ))
    }
    if (templates.length > 0) {
      if (resources.length > 0) out()
      out(table(
        ["SERVER", "TEMPLATE", "MIME", "NAME"],
        templates.map((t) => [t.server, t.uriTemplate, t.mimeType ?? "-", oneLine(t.title ?? t.name, 60)])
      ))
    }
    if (resources.length === 0 && templates.length === 0 && all.errors.length === 0) {
      err("No resources. `mcpctl servers` shows which servers are configured and connected.")
    }
    for (const e of all.errors) err(`${e.server} (${e.status}): ${e.message}`)
    yield* unavailableWhenAllFailed(wanted, failed)
  }))).pipe(Command.withDescription("List the resources and resource templates of every server (or of the servers named)"))

const server = Args.text({ name: "server" }).pipe(Args.withDescription("Server name"))
const uri = Args.text({ name: "uri" }).pipe(Args.withDescription("Resource URI, as `mcpctl resources` lists it"))
const outFile = Options.file("out").pipe(
  Options.optional,
  Options.withDescription("Write the resource's content (text as UTF-8, blobs decoded) to FILE instead")
)

const writeError = (file: string) => (e: unknown) =>
  new UsageError({ message: `Could not write ${file}: ${e instanceof Error ? e.message : String(e)}` })

/**
 * Reads one resource. Binary content never reaches the terminal: it is saved (content-addressed
 * under `$MCPCTL_HOME/outputs`, or to `--out FILE`) and the path is printed instead.
 */
export const read = Command.make("read", { ...Flags.global, ...Flags.adhoc, out: outFile, server, uri }, (flags) =>
  runOnHost("read", flags, Effect.gen(function*() {
    yield* checkServerNames([flags.server])
    const config = yield* McpConfig
    yield* Effect.ignore(setLogLevel(flags.server, flags.logLevel))
    if (Option.isSome(flags.out)) {
      const file = Path.resolve(flags.out.value)
      const result = yield* readResource(flags.server, flags.uri)
      if (result.contents.length !== 1) {
        return yield* new UsageError({
          message: `${flags.uri} has ${result.contents.length} contents; --out writes exactly one. ` +
            `Run without --out to save each.`
        })
      }
      const c = result.contents[0]!
      const bytes = "blob" in c && typeof c.blob === "string"
        ? Buffer.from(c.blob, "base64")
        : Buffer.from("text" in c ? String(c.text) : "", "utf8")
      yield* Effect.tryPromise({ try: () => fs.writeFile(file, bytes), catch: writeError(file) })
      const descriptor = { uri: c.uri, path: file, mimeType: c.mimeType ?? null, bytes: bytes.length }
      if (flags.json) return json({ server: flags.server, uri: flags.uri, contents: [{ type: "file", ...descriptor }], files: [descriptor] })
      return err(`${bytes.length} bytes written to ${file}`)
    }
    const result = yield* readResourceToFiles(flags.server, flags.uri, Path.join(config.home, "outputs")).pipe(
      Effect.catchTag("OutputWriteError", (e) => Effect.fail(new UsageError({ message: e.message })))
    )
    if (flags.json) return json(result)
    for (const c of result.contents) {
      if ("text" in c) out(c.text)
      else out(`[${c.mimeType}, ${c.bytes} bytes saved to ${c.path}]`)
    }
  }))).pipe(Command.withDescription("Read one resource: text is printed, binary content is saved to a file"))
