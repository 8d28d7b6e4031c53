/** `mcpctl auth NAME` / `mcpctl logout NAME`: OAuth sign-in and forgetting tokens. */
// @ts-nocheck

import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import {
  logout as forget,
  openInBrowser,
  remoteConfigOf,
  signIn
} from "@mcpctl/core/internal/auth/OAuthFlow"
import { findServer, unknownServerMessage } from "@mcpctl/core/ServerConfig"
import { McpConfig } from "@mcpctl/core/McpConfig"
import { ServerUnavailable, UsageError } from "@mcpctl/core/Errors"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Flags from "../Flags.js"
import { runOnHost } from "../Host.js"
import { err, json, out } from "../Render.js"

const serverName = Args.text({ name: "name" }).pipe(
  Args.withDescription("Server name (default: the --url/--stdio server's name)"),
  Args.optional
)
const force = Options.boolean("force").pipe(
  Options.withDescription("Run the browser sign-in even when stored tokens could be refreshed")
)

/**
 * The server a command names: NAME, else the ad-hoc server of this run. Unknown names list the
 * configured ones, so a typo is fixed in one go.
 */
const namedServer = (command: "auth" | "logout", name: Option.Option<string>, adhocName: string, adhoc: boolean) =>
  Effect.gen(function*() {
    const config = yield* McpConfig
    const wanted = Option.getOrElse(name, () => (adhoc ? adhocName : ""))
    if (wanted === "") {
      const what = command === "auth" ? "sign in to" : "sign out of"
      return yield* new UsageError({ message: `Name the server to ${what}: mcpctl ${command} NAME (or pass --url URL).` })
    }
    const server = findServer(config.servers, wanted)
    if (!server) return yield* new UsageError({ message: unknownServerMessage([wanted], config.servers) })
    // Its settings did not resolve (an unset ${VAR}): never contacted with a literal "${VAR}".
    if (command === "auth" && server.unresolved) {
      return yield* new ServerUnavailable({ server: server.name, status: "failed", message: server.unresolved.message })
    }
    return server
  })

const isAdhoc = (flags: { url: Option.Option<string>; stdio: Option.Option<string> }) =>
  Option.isSome(flags.url) || Option.isSome(flags.stdio)

export const auth = Command.make(
  "auth",
  { ...Flags.global, ...Flags.adhoc, force, name: serverName },
  (flags) =>
    runOnHost("auth", flags, Effect.gen(function*() {
      const config = yield* McpConfig
      const server = yield* namedServer("auth", flags.name, flags.adhocName, isAdhoc(flags))
      const remote = remoteConfigOf(server)
      yield* signIn(server, {
        home: config.home,
        openUrl: openInBrowser,
        // The URL goes to stderr too: stdout stays for `--json`, and headless users copy it.
        print: err,
        force: flags.force,
        clientMetadataUrl: remote?.oauth?.clientMetadataUrl
      })
      if (flags.json) json({ server: server.name, signedIn: true })
    }))
).pipe(Command.withDescription("Sign in to a remote server with OAuth (opens a browser; the URL is printed too)"))

export const logout = Command.make(
  "logout",
  { ...Flags.global, ...Flags.adhoc, name: serverName },
  (flags) =>
    runOnHost("logout", flags, Effect.gen(function*() {
      const config = yield* McpConfig
      const server = yield* namedServer("logout", flags.name, flags.adhocName, isAdhoc(flags))
      const existed = yield* forget(config.home, server)
      if (flags.json) return json({ server: server.name, removed: existed })
      out(existed ? `Signed out of ${server.name}: its tokens are gone.` : `No stored sign-in for ${server.name}.`)
    }))
).pipe(Command.withDescription("Forget the OAuth tokens and client registration stored for a server"))
