/**
 * `mcpctl trust`: what the user vouches for. `--project [DIR]` trusts a directory's own settings
 * (trustProject.ts); the positional form names a server (and a tool) to pin.
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { UsageError } from "@mcpctl/core/Errors"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Flags from "../Flags.js"
import { report } from "../Host.js"
import { trustProject } from "./trustProject.js"

const project = Options.boolean("project").pipe(
  Options.withDescription("Trust a project directory's .mcp.json and .mcpctl/settings*.json as they are now (DIR, default the current one)")
)
const revoke = Options.boolean("revoke").pipe(Options.withDescription("With --project: forget the directory's trust"))
const targets = Args.text({ name: "dir-or-server" }).pipe(Args.repeated)

export const trust = Command.make("trust", { json: Flags.json, cwd: Flags.cwd, project, revoke, targets }, (flags) =>
  Effect.gen(function*() {
    if (!flags.project) {
      return yield* new UsageError({ message: "Give --project [DIR] to trust a project directory's settings." })
    }
    if (flags.targets.length > 1) return yield* new UsageError({ message: "--project takes one directory." })
    return yield* trustProject({ dir: flags.targets[0], cwd: Option.getOrUndefined(flags.cwd), revoke: flags.revoke, json: flags.json })
  }).pipe(Effect.tapError((error) => Effect.sync(() => report(flags, error))))
).pipe(Command.withDescription("Trust a project's own settings: mcpctl trust --project [DIR] [--revoke]"))
