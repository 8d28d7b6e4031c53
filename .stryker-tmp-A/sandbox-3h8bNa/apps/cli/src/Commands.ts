/** The command tree of `mcpctl`, apart from main.ts so it can be inspected (Argv) and tested without running. */
// @ts-nocheck

import * as Command from "@effect/cli/Command"
import { auth, logout } from "./commands/auth.js"
import { call } from "./commands/call.js"
import { complete } from "./commands/complete.js"
import { completion } from "./commands/completion.js"
import { config } from "./commands/config.js"
import { daemon } from "./commands/daemon.js"
import { importCommand } from "./commands/import.js"
import { add, get, remove } from "./commands/manage.js"
import { prompt, prompts } from "./commands/prompts.js"
import { read, resources } from "./commands/resources.js"
import { serve } from "./commands/serve.js"
import { servers } from "./commands/servers.js"
import { skill, skills } from "./commands/skills.js"
import { task } from "./commands/task.js"
import { tools } from "./commands/tools.js"
import { trust } from "./commands/trust.js"

export const mcpctl = Command.make("mcpctl").pipe(
  Command.withDescription(
    "An MCP client host: connect to MCP servers, list and call their tools. " +
      "`mcpctl COMMAND --help` shows a command's options; `mcpctl --version` the version."
  ),
  Command.withSubcommands([
    servers, tools, call, task, resources, read, prompts, prompt, complete, skills, skill, add, remove, get, importCommand, config, auth, logout, serve, trust, daemon, completion
  ])
)
