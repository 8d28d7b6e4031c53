/**
 * The implementation of `permission/Permission.ts`: the service built from the merged rules, a
 * prompter's `ask` and a rule writer's `allowAlways` (handed in, so this module needs none of the
 * public tags), and the local-settings rule writer.
 */
import * as Effect from "effect/Effect"
import type { McpConfig } from "../../config/McpConfig.js"
import type { PermissionRules } from "../../config/ServerConfig.js"
import { type ConfigError, PermissionDenied } from "../../Errors.js"
import { keepingTrust } from "../config/ProjectTrust.js"
import { addPermissionRule } from "../config/SettingsFile.js"
import { scopeFile } from "../config/SettingsLoad.js"
import type { PermissionRequest, PromptAnswer } from "./prompt.js"
import { decide, type Decision, serverDenyRule, type ToolIdentity } from "./rules.js"

/** Where "always" answers go and where the user is told to add allow rules. */
export const LOCAL_SETTINGS_FILE = ".mcpctl/settings.local.json"

/** The service (the shape of `Permission["Type"]`). */
export interface PermissionService {
  readonly decide: (toolName: string, identity?: ToolIdentity) => Decision
  readonly serverDenied: (server: string) => string | undefined
  readonly authorize: (request: PermissionRequest) => Effect.Effect<void, PermissionDenied | ConfigError>
}

/** "Always" answers as allow rules in the project's local settings file, keeping a trusted project trusted. */
export const allowInLocalSettings = (config: McpConfig["Type"]) => (rule: string): Effect.Effect<void, ConfigError> =>
  // The project's trust hash moves with the edit the user asked for.
  keepingTrust(config.home, config.projectDir, addPermissionRule(scopeFile("local", config.projectDir, config.home), "allow", rule))

/** Builds the service from the merged rules, a prompter and a rule writer. */
export const make = (
  rules: PermissionRules,
  prompter: { readonly ask: (request: PermissionRequest) => Effect.Effect<PromptAnswer> },
  writer: { readonly allowAlways: (rule: string) => Effect.Effect<void, ConfigError> }
): Effect.Effect<PermissionService> =>
  Effect.gen(function*() {
    // The files that hold a rule, for messages that say where to edit it.
    const whereIs = (list: "ask" | "deny", rule: string | undefined): string => {
      const files = rule === undefined ? undefined : rules.sources?.[list]?.[rule]
      return files && files.length > 0 ? files.join(" and ") : "your settings"
    }
    // Tools approved "always" during this session: the rule file is only re-read on the next run.
    const approved = new Set<string>()
    // One question at a time: concurrent calls (serve, parallel tools) must not interleave prompts,
    // and a second call to the same tool should see the first one's "always".
    const promptLock = yield* Effect.makeSemaphore(1)

    const decideNow = (toolName: string, identity?: ToolIdentity): Decision => {
      const decision = decide(rules, toolName, identity)
      return decision.behavior === "ask" && approved.has(toolName)
        ? { behavior: "allow", rule: toolName }
        : decision
    }

    const ask = Effect.fn("Permission.ask")(function*(request: PermissionRequest, rule: string | undefined) {
      if (approved.has(request.tool)) return
      const answer = yield* prompter.ask(request)
      yield* Effect.annotateCurrentSpan("answer", answer)
      switch (answer) {
        case "once":
          return
        case "always":
          // Under an explicit ask rule an allow rule could never win (ask beats allow), so it is
          // not written: the approval lasts for this session only.
          if (rule === undefined) yield* writer.allowAlways(request.tool)
          approved.add(request.tool)
          return
        case "no":
        // A prompter written in JavaScript can answer anything: what is not an approval denies.
        default:
          return yield* new PermissionDenied({
            // Under an explicit ask rule an allow rule would not help (ask beats allow): name the rule.
            message: rule === undefined
              ? `${request.tool} was not approved. To allow it without asking, add "${request.tool}" ` +
                `to permissions.allow in ${LOCAL_SETTINGS_FILE}`
              : `${request.tool} was not approved. Rule "${rule}" in permissions.ask of ${whereIs("ask", rule)} asks for it; ` +
                `remove that rule to run it without asking`,
            tool: request.tool,
            rule: request.tool,
            behavior: "ask",
            ...(rule !== undefined ? { askRule: rule } : {})
          })
        case "unavailable":
          return yield* new PermissionDenied(
            rule === undefined
              ? {
                message: `${request.tool} needs approval: run on a terminal, pass --yes, or add "${request.tool}" ` +
                  `to permissions.allow in ${LOCAL_SETTINGS_FILE}`,
                tool: request.tool,
                rule: request.tool,
                behavior: "ask"
              }
              : {
                // An explicit ask rule beats allow rules, so adding one would not help.
                message: `${request.tool} needs approval (rule "${rule}" in permissions.ask of ${whereIs("ask", rule)}): ` +
                  `run on a terminal or pass --yes, or remove that ask rule`,
                tool: request.tool,
                rule,
                behavior: "ask",
                askRule: rule
              }
          )
      }
    })

    // On every call's path, so untraced (a span here cost 25-40 µs a call; `ToolRegistry.call`
    // has the call's span) and without a generator.
    const authorize = (request: PermissionRequest): Effect.Effect<void, PermissionDenied | ConfigError> => {
      const decision = decideNow(request.tool, { server: request.server, tool: request.toolName })
      switch (decision.behavior) {
        case "allow":
          return Effect.void
        case "deny":
          return Effect.fail(
            new PermissionDenied({
              message: `${request.tool} is denied by rule "${decision.rule}" in permissions.deny of ${
                whereIs("deny", decision.rule)
              }; remove that rule to allow it`,
              tool: request.tool,
              rule: decision.rule ?? request.tool,
              behavior: "deny"
            })
          )
        case "ask":
          return promptLock.withPermits(1)(ask(request, decision.rule))
      }
    }

    return { decide: decideNow, serverDenied: (server: string) => serverDenyRule(rules, server), authorize }
  })
