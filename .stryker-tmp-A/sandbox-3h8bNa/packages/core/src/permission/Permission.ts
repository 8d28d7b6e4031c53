/**
 * Whether a tool call may run: allow / ask / deny rules from every settings scope, and a
 * `Prompter` port for the "ask" case so the same decision logic serves the interactive CLI,
 * `--yes`, scripts without a terminal, `serve` and tests. Persisting an "always" answer goes
 * through the `RuleWriter` port, so this module never touches settings files.
 */
// @ts-nocheck
function stryNS_9fa48() {
  var g = typeof globalThis === 'object' && globalThis && globalThis.Math === Math && globalThis || new Function("return this")();
  var ns = g.__stryker__ || (g.__stryker__ = {});
  if (ns.activeMutant === undefined && g.process && g.process.env && g.process.env.__STRYKER_ACTIVE_MUTANT__) {
    ns.activeMutant = g.process.env.__STRYKER_ACTIVE_MUTANT__;
  }
  function retrieveNS() {
    return ns;
  }
  stryNS_9fa48 = retrieveNS;
  return retrieveNS();
}
stryNS_9fa48();
function stryCov_9fa48() {
  var ns = stryNS_9fa48();
  var cov = ns.mutantCoverage || (ns.mutantCoverage = {
    static: {},
    perTest: {}
  });
  function cover() {
    var c = cov.static;
    if (ns.currentTestId) {
      c = cov.perTest[ns.currentTestId] = cov.perTest[ns.currentTestId] || {};
    }
    var a = arguments;
    for (var i = 0; i < a.length; i++) {
      c[a[i]] = (c[a[i]] || 0) + 1;
    }
  }
  stryCov_9fa48 = cover;
  cover.apply(null, arguments);
}
function stryMutAct_9fa48(id) {
  var ns = stryNS_9fa48();
  function isActive(id) {
    if (ns.activeMutant === id) {
      if (ns.hitCount !== void 0 && ++ns.hitCount > ns.hitLimit) {
        throw new Error('Stryker: Hit count limit reached (' + ns.hitCount + ')');
      }
      return true;
    }
    return false;
  }
  stryMutAct_9fa48 = isActive;
  return isActive(id);
}
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as readline from "node:readline";
import { McpConfig } from "../config/McpConfig.js";
import { type PermissionRules } from "../config/ServerConfig.js";
import { addPermissionRule } from "../internal/config/SettingsFile.js";
import { scopeFile } from "../internal/config/SettingsLoad.js";
import { keepingTrust } from "../internal/config/ProjectTrust.js";
import { type ConfigError, PermissionDenied } from "../Errors.js";
import { fullToolName, PREFIX, SEPARATOR } from "../internal/Naming.js";
import { sanitize } from "../internal/Sanitize.js";
import { foldedEquals, foldedStartsWith } from "../internal/permission/NameFold.js";

// ---------------------------------------------------------------------------------------------
// Pure rule logic
// ---------------------------------------------------------------------------------------------

/**
 * What happens to a call; `ask` is also the answer when no rule matches.
 * @since 0.1.0
 */
export type Behavior = "allow" | "ask" | "deny";

/**
 * A behavior and the rule that produced it, so messages and `tools --json` can name the rule.
 * @since 0.1.0
 */
export interface Decision {
  readonly behavior: Behavior;
  /** The matching rule; undefined when no rule matched (the default ask). */
  readonly rule: string | undefined;
}

/**
 * One rule against one fully-qualified tool name. Supports the three documented forms
 * (`mcp__<server>`, `mcp__<server>__*`, `mcp__<server>__<tool>`) plus a trailing `*` that matches
 * any rest of the name (`mcp__fs__read*`). Matching is exact otherwise: rules are written by
 * people, and a rule that silently matched more than it says would be a security surprise.
 * @since 0.1.0
 */
export const ruleMatches = (rule: string, toolName: string): boolean => {
  if (stryMutAct_9fa48("486")) {
    {}
  } else {
    stryCov_9fa48("486");
    if (stryMutAct_9fa48("489") ? rule.startsWith("*") : stryMutAct_9fa48("488") ? false : stryMutAct_9fa48("487") ? true : (stryCov_9fa48("487", "488", "489"), rule.endsWith(stryMutAct_9fa48("490") ? "" : (stryCov_9fa48("490"), "*")))) return stryMutAct_9fa48("491") ? toolName.endsWith(rule.slice(0, -1)) : (stryCov_9fa48("491"), toolName.startsWith(stryMutAct_9fa48("492") ? rule : (stryCov_9fa48("492"), rule.slice(0, stryMutAct_9fa48("493") ? +1 : (stryCov_9fa48("493"), -1)))));
    if (stryMutAct_9fa48("496") ? rule !== toolName : stryMutAct_9fa48("495") ? false : stryMutAct_9fa48("494") ? true : (stryCov_9fa48("494", "495", "496"), rule === toolName)) return stryMutAct_9fa48("497") ? false : (stryCov_9fa48("497"), true);
    // `mcp__<server>`: a rule without a tool part covers every tool of that server.
    if (stryMutAct_9fa48("500") ? rule.startsWith(PREFIX) && rule.length > PREFIX.length || !rule.slice(PREFIX.length).includes(SEPARATOR) : stryMutAct_9fa48("499") ? false : stryMutAct_9fa48("498") ? true : (stryCov_9fa48("498", "499", "500"), (stryMutAct_9fa48("502") ? rule.startsWith(PREFIX) || rule.length > PREFIX.length : stryMutAct_9fa48("501") ? true : (stryCov_9fa48("501", "502"), (stryMutAct_9fa48("503") ? rule.endsWith(PREFIX) : (stryCov_9fa48("503"), rule.startsWith(PREFIX))) && (stryMutAct_9fa48("506") ? rule.length <= PREFIX.length : stryMutAct_9fa48("505") ? rule.length >= PREFIX.length : stryMutAct_9fa48("504") ? true : (stryCov_9fa48("504", "505", "506"), rule.length > PREFIX.length)))) && (stryMutAct_9fa48("507") ? rule.slice(PREFIX.length).includes(SEPARATOR) : (stryCov_9fa48("507"), !(stryMutAct_9fa48("508") ? rule.includes(SEPARATOR) : (stryCov_9fa48("508"), rule.slice(PREFIX.length).includes(SEPARATOR))))))) {
      if (stryMutAct_9fa48("509")) {
        {}
      } else {
        stryCov_9fa48("509");
        return stryMutAct_9fa48("510") ? toolName.endsWith(rule + SEPARATOR) : (stryCov_9fa48("510"), toolName.startsWith(stryMutAct_9fa48("511") ? rule - SEPARATOR : (stryCov_9fa48("511"), rule + SEPARATOR)));
      }
    }
    return stryMutAct_9fa48("512") ? true : (stryCov_9fa48("512"), false);
  }
};

/**
 * Which tool a name stands for: its server and the tool's own name, as the server spells it.
 * @since 0.1.0
 */
export interface ToolIdentity {
  readonly server: string;
  readonly tool: string;
}

/**
 * A deny rule against a tool by folded names (`NameFold`): case, separators, invisible
 * characters and look-alike letters do not escape it. `mcp__fs__` (a trailing `__`) denies the
 * whole server, as its writer meant.
 * @since 0.1.0
 */
export const denyMatchesFolded = (rule: string, identity: ToolIdentity): boolean => {
  if (stryMutAct_9fa48("513")) {
    {}
  } else {
    stryCov_9fa48("513");
    if (stryMutAct_9fa48("516") ? false : stryMutAct_9fa48("515") ? true : stryMutAct_9fa48("514") ? rule.startsWith(PREFIX) : (stryCov_9fa48("514", "515", "516"), !(stryMutAct_9fa48("517") ? rule.endsWith(PREFIX) : (stryCov_9fa48("517"), rule.startsWith(PREFIX))))) return stryMutAct_9fa48("518") ? true : (stryCov_9fa48("518"), false);
    const rest = stryMutAct_9fa48("519") ? rule : (stryCov_9fa48("519"), rule.slice(PREFIX.length));
    const wildcard = stryMutAct_9fa48("520") ? rest.startsWith("*") : (stryCov_9fa48("520"), rest.endsWith(stryMutAct_9fa48("521") ? "" : (stryCov_9fa48("521"), "*")));
    const body = wildcard ? stryMutAct_9fa48("522") ? rest : (stryCov_9fa48("522"), rest.slice(0, stryMutAct_9fa48("523") ? +1 : (stryCov_9fa48("523"), -1))) : rest;
    const at = body.indexOf(SEPARATOR);
    if (stryMutAct_9fa48("527") ? at >= 0 : stryMutAct_9fa48("526") ? at <= 0 : stryMutAct_9fa48("525") ? false : stryMutAct_9fa48("524") ? true : (stryCov_9fa48("524", "525", "526", "527"), at < 0)) {
      if (stryMutAct_9fa48("528")) {
        {}
      } else {
        stryCov_9fa48("528");
        // `mcp__<server>` (whole server) or `mcp__<prefix>*` (servers by prefix)
        return wildcard ? foldedStartsWith(identity.server, body) : foldedEquals(body, identity.server);
      }
    }
    const server = stryMutAct_9fa48("529") ? body : (stryCov_9fa48("529"), body.slice(0, at)),
      tool = stryMutAct_9fa48("530") ? body : (stryCov_9fa48("530"), body.slice(stryMutAct_9fa48("531") ? at - SEPARATOR.length : (stryCov_9fa48("531"), at + SEPARATOR.length)));
    if (stryMutAct_9fa48("534") ? false : stryMutAct_9fa48("533") ? true : stryMutAct_9fa48("532") ? foldedEquals(server, identity.server) : (stryCov_9fa48("532", "533", "534"), !foldedEquals(server, identity.server))) return stryMutAct_9fa48("535") ? true : (stryCov_9fa48("535"), false);
    if (stryMutAct_9fa48("538") ? tool !== "" : stryMutAct_9fa48("537") ? false : stryMutAct_9fa48("536") ? true : (stryCov_9fa48("536", "537", "538"), tool === (stryMutAct_9fa48("539") ? "Stryker was here!" : (stryCov_9fa48("539"), "")))) return stryMutAct_9fa48("540") ? false : (stryCov_9fa48("540"), true);
    return wildcard ? foldedStartsWith(identity.tool, tool) : foldedEquals(tool, identity.tool);
  }
};

/** The `<server>` of `mcp__<server>__<tool>`, if the name has that form. */
const serverOf = (toolName: string): string | undefined => {
  if (stryMutAct_9fa48("541")) {
    {}
  } else {
    stryCov_9fa48("541");
    if (stryMutAct_9fa48("544") ? false : stryMutAct_9fa48("543") ? true : stryMutAct_9fa48("542") ? toolName.startsWith(PREFIX) : (stryCov_9fa48("542", "543", "544"), !(stryMutAct_9fa48("545") ? toolName.endsWith(PREFIX) : (stryCov_9fa48("545"), toolName.startsWith(PREFIX))))) return undefined;
    const at = toolName.indexOf(SEPARATOR, PREFIX.length);
    return (stryMutAct_9fa48("549") ? at >= 0 : stryMutAct_9fa48("548") ? at <= 0 : stryMutAct_9fa48("547") ? false : stryMutAct_9fa48("546") ? true : (stryCov_9fa48("546", "547", "548", "549"), at < 0)) ? undefined : stryMutAct_9fa48("550") ? toolName : (stryCov_9fa48("550"), toolName.slice(PREFIX.length, at));
  }
};

/**
 * The documented precedence: any matching deny beats any matching ask beats any matching allow,
 * whatever scope each came from; no match means ask. Order within a list does not matter. A
 * project's own allow rules (`projectAllow`) approve only the project's servers.
 *
 * With the tool's identity, rules also match its full unshortened name (a rule written from a
 * 70-character name still matches the 64-character one), and deny rules match look-alikes.
 * @since 0.1.0
 */
export const decide = (rules: PermissionRules, toolName: string, identity?: ToolIdentity): Decision => {
  if (stryMutAct_9fa48("551")) {
    {}
  } else {
    stryCov_9fa48("551");
    const names = identity ? stryMutAct_9fa48("552") ? [] : (stryCov_9fa48("552"), [toolName, fullToolName(identity.server, identity.tool)]) : stryMutAct_9fa48("553") ? [] : (stryCov_9fa48("553"), [toolName]);
    const matches = stryMutAct_9fa48("554") ? () => undefined : (stryCov_9fa48("554"), (() => {
      const matches = (rule: string) => stryMutAct_9fa48("555") ? names.every(name => ruleMatches(rule, name)) : (stryCov_9fa48("555"), names.some(stryMutAct_9fa48("556") ? () => undefined : (stryCov_9fa48("556"), name => ruleMatches(rule, name))));
      return matches;
    })());
    const deny = rules.deny.find(stryMutAct_9fa48("557") ? () => undefined : (stryCov_9fa48("557"), rule => stryMutAct_9fa48("560") ? matches(rule) && identity !== undefined && denyMatchesFolded(rule, identity) : stryMutAct_9fa48("559") ? false : stryMutAct_9fa48("558") ? true : (stryCov_9fa48("558", "559", "560"), matches(rule) || (stryMutAct_9fa48("562") ? identity !== undefined || denyMatchesFolded(rule, identity) : stryMutAct_9fa48("561") ? false : (stryCov_9fa48("561", "562"), (stryMutAct_9fa48("564") ? identity === undefined : stryMutAct_9fa48("563") ? true : (stryCov_9fa48("563", "564"), identity !== undefined)) && denyMatchesFolded(rule, identity))))));
    if (stryMutAct_9fa48("567") ? deny === undefined : stryMutAct_9fa48("566") ? false : stryMutAct_9fa48("565") ? true : (stryCov_9fa48("565", "566", "567"), deny !== undefined)) return stryMutAct_9fa48("568") ? {} : (stryCov_9fa48("568"), {
      behavior: stryMutAct_9fa48("569") ? "" : (stryCov_9fa48("569"), "deny"),
      rule: deny
    });
    const ask = rules.ask.find(matches);
    if (stryMutAct_9fa48("572") ? ask === undefined : stryMutAct_9fa48("571") ? false : stryMutAct_9fa48("570") ? true : (stryCov_9fa48("570", "571", "572"), ask !== undefined)) return stryMutAct_9fa48("573") ? {} : (stryCov_9fa48("573"), {
      behavior: stryMutAct_9fa48("574") ? "" : (stryCov_9fa48("574"), "ask"),
      rule: ask
    });
    const server = stryMutAct_9fa48("575") ? identity?.server && serverOf(toolName) : (stryCov_9fa48("575"), (stryMutAct_9fa48("576") ? identity.server : (stryCov_9fa48("576"), identity?.server)) ?? serverOf(toolName));
    const projectServer = stryMutAct_9fa48("579") ? server !== undefined || rules.projectServers?.includes(server) === true : stryMutAct_9fa48("578") ? false : stryMutAct_9fa48("577") ? true : (stryCov_9fa48("577", "578", "579"), (stryMutAct_9fa48("581") ? server === undefined : stryMutAct_9fa48("580") ? true : (stryCov_9fa48("580", "581"), server !== undefined)) && (stryMutAct_9fa48("583") ? rules.projectServers?.includes(server) !== true : stryMutAct_9fa48("582") ? true : (stryCov_9fa48("582", "583"), (stryMutAct_9fa48("584") ? rules.projectServers.includes(server) : (stryCov_9fa48("584"), rules.projectServers?.includes(server))) === (stryMutAct_9fa48("585") ? false : (stryCov_9fa48("585"), true)))));
    const allow = rules.allow.find(stryMutAct_9fa48("586") ? () => undefined : (stryCov_9fa48("586"), rule => stryMutAct_9fa48("589") ? matches(rule) || projectServer || rules.projectAllow?.includes(rule) !== true : stryMutAct_9fa48("588") ? false : stryMutAct_9fa48("587") ? true : (stryCov_9fa48("587", "588", "589"), matches(rule) && (stryMutAct_9fa48("591") ? projectServer && rules.projectAllow?.includes(rule) !== true : stryMutAct_9fa48("590") ? true : (stryCov_9fa48("590", "591"), projectServer || (stryMutAct_9fa48("593") ? rules.projectAllow?.includes(rule) === true : stryMutAct_9fa48("592") ? false : (stryCov_9fa48("592", "593"), (stryMutAct_9fa48("594") ? rules.projectAllow.includes(rule) : (stryCov_9fa48("594"), rules.projectAllow?.includes(rule))) !== (stryMutAct_9fa48("595") ? false : (stryCov_9fa48("595"), true)))))))));
    if (stryMutAct_9fa48("598") ? allow === undefined : stryMutAct_9fa48("597") ? false : stryMutAct_9fa48("596") ? true : (stryCov_9fa48("596", "597", "598"), allow !== undefined)) return stryMutAct_9fa48("599") ? {} : (stryCov_9fa48("599"), {
      behavior: stryMutAct_9fa48("600") ? "" : (stryCov_9fa48("600"), "allow"),
      rule: allow
    });
    return stryMutAct_9fa48("601") ? {} : (stryCov_9fa48("601"), {
      behavior: stryMutAct_9fa48("602") ? "" : (stryCov_9fa48("602"), "ask"),
      rule: undefined
    });
  }
};

/**
 * The deny rule that covers every tool of `server`, if one does (`mcp__<server>`,
 * `mcp__<server>__*`, `mcp__*`, look-alikes folded): such a server's resources and prompts are
 * not used either.
 * @since 0.1.0
 */
export const serverDenyRule = stryMutAct_9fa48("603") ? () => undefined : (stryCov_9fa48("603"), (() => {
  const serverDenyRule = (rules: PermissionRules, server: string): string | undefined => rules.deny.find(stryMutAct_9fa48("604") ? () => undefined : (stryCov_9fa48("604"), rule => coversServer(rule, server)));
  return serverDenyRule;
})());
const coversServer = (rule: string, server: string): boolean => {
  if (stryMutAct_9fa48("605")) {
    {}
  } else {
    stryCov_9fa48("605");
    if (stryMutAct_9fa48("608") ? rule !== "*" : stryMutAct_9fa48("607") ? false : stryMutAct_9fa48("606") ? true : (stryCov_9fa48("606", "607", "608"), rule === (stryMutAct_9fa48("609") ? "" : (stryCov_9fa48("609"), "*")))) return stryMutAct_9fa48("610") ? false : (stryCov_9fa48("610"), true);
    if (stryMutAct_9fa48("613") ? false : stryMutAct_9fa48("612") ? true : stryMutAct_9fa48("611") ? rule.startsWith(PREFIX) : (stryCov_9fa48("611", "612", "613"), !(stryMutAct_9fa48("614") ? rule.endsWith(PREFIX) : (stryCov_9fa48("614"), rule.startsWith(PREFIX))))) return stryMutAct_9fa48("615") ? true : (stryCov_9fa48("615"), false);
    const rest = stryMutAct_9fa48("616") ? rule : (stryCov_9fa48("616"), rule.slice(PREFIX.length));
    if (stryMutAct_9fa48("619") ? rest.startsWith("*") : stryMutAct_9fa48("618") ? false : stryMutAct_9fa48("617") ? true : (stryCov_9fa48("617", "618", "619"), rest.endsWith(stryMutAct_9fa48("620") ? "" : (stryCov_9fa48("620"), "*")))) {
      if (stryMutAct_9fa48("621")) {
        {}
      } else {
        stryCov_9fa48("621");
        const body = stryMutAct_9fa48("622") ? rest : (stryCov_9fa48("622"), rest.slice(0, stryMutAct_9fa48("623") ? +1 : (stryCov_9fa48("623"), -1)));
        const at = body.indexOf(SEPARATOR);
        // `mcp__*`, `mcp__f*`: every server whose name starts so
        if (stryMutAct_9fa48("627") ? at >= 0 : stryMutAct_9fa48("626") ? at <= 0 : stryMutAct_9fa48("625") ? false : stryMutAct_9fa48("624") ? true : (stryCov_9fa48("624", "625", "626", "627"), at < 0)) return foldedStartsWith(server, body);
        // `mcp__fs__*`: the whole server only when nothing follows the separator
        return stryMutAct_9fa48("630") ? body.slice(at + SEPARATOR.length) === "" || foldedEquals(body.slice(0, at), server) : stryMutAct_9fa48("629") ? false : stryMutAct_9fa48("628") ? true : (stryCov_9fa48("628", "629", "630"), (stryMutAct_9fa48("632") ? body.slice(at + SEPARATOR.length) !== "" : stryMutAct_9fa48("631") ? true : (stryCov_9fa48("631", "632"), (stryMutAct_9fa48("633") ? body : (stryCov_9fa48("633"), body.slice(stryMutAct_9fa48("634") ? at - SEPARATOR.length : (stryCov_9fa48("634"), at + SEPARATOR.length)))) === (stryMutAct_9fa48("635") ? "Stryker was here!" : (stryCov_9fa48("635"), "")))) && foldedEquals(stryMutAct_9fa48("636") ? body : (stryCov_9fa48("636"), body.slice(0, at)), server));
      }
    }
    const body = (stryMutAct_9fa48("637") ? rest.startsWith(SEPARATOR) : (stryCov_9fa48("637"), rest.endsWith(SEPARATOR))) ? stryMutAct_9fa48("638") ? rest : (stryCov_9fa48("638"), rest.slice(0, stryMutAct_9fa48("639") ? +SEPARATOR.length : (stryCov_9fa48("639"), -SEPARATOR.length))) : rest;
    return stryMutAct_9fa48("642") ? !body.includes(SEPARATOR) || foldedEquals(body, server) : stryMutAct_9fa48("641") ? false : stryMutAct_9fa48("640") ? true : (stryCov_9fa48("640", "641", "642"), (stryMutAct_9fa48("643") ? body.includes(SEPARATOR) : (stryCov_9fa48("643"), !body.includes(SEPARATOR))) && foldedEquals(body, server));
  }
};

// ---------------------------------------------------------------------------------------------
// Ports
// ---------------------------------------------------------------------------------------------

/**
 * What a server says about a tool; shown when asking, never trusted to decide anything.
 * @since 0.1.0
 */
export interface ToolAnnotations {
  readonly readOnly?: boolean | undefined;
  readonly destructive?: boolean | undefined;
  readonly openWorld?: boolean | undefined;
  readonly title?: string | undefined;
}

/**
 * Everything a person needs to judge one call.
 * @since 0.1.0
 */
export interface PermissionRequest {
  /** Fully-qualified name, `mcp__<server>__<tool>`: what rules match against. */
  readonly tool: string;
  readonly server: string;
  /** The tool's name as the server spells it. */
  readonly toolName: string;
  readonly annotations: ToolAnnotations;
  readonly args: unknown;
}

/**
 * A person's answer. `unavailable` means nobody could be asked (no terminal, stdin closed): the
 * call then fails with a message naming the rule to add, instead of a bare "no".
 * @since 0.1.0
 */
export type PromptAnswer = "once" | "always" | "no" | "unavailable";

/**
 * Asks a person about one call. A port because how to ask depends on where we run (terminal,
 * `--yes`, a script, an embedding application); the CLI picks the layer, not this module.
 * @since 0.1.0
 */
export class Prompter extends Context.Tag(stryMutAct_9fa48("644") ? "" : (stryCov_9fa48("644"), "@mcpctl/core/Prompter"))<Prompter, {
  readonly ask: (request: PermissionRequest) => Effect.Effect<PromptAnswer>;
}>() {
  /** No terminal (scripts, `--json`, CI): nobody can answer, so an ask fails with the rule to add. */
  static layerNone: Layer.Layer<Prompter> = Layer.succeed(this, stryMutAct_9fa48("645") ? {} : (stryCov_9fa48("645"), {
    ask: stryMutAct_9fa48("646") ? () => undefined : (stryCov_9fa48("646"), () => Effect.succeed(stryMutAct_9fa48("647") ? "" : (stryCov_9fa48("647"), "unavailable")))
  }));

  /** `--yes`: approves every ask for this call only; deny rules still win (they never reach the prompter). */
  static layerYes: Layer.Layer<Prompter> = Layer.succeed(this, stryMutAct_9fa48("648") ? {} : (stryCov_9fa48("648"), {
    ask: stryMutAct_9fa48("649") ? () => undefined : (stryCov_9fa48("649"), () => Effect.succeed(stryMutAct_9fa48("650") ? "" : (stryCov_9fa48("650"), "once")))
  }));

  /**
   * Interactive y/a/n on stderr/stdin, so stdout stays clean for `--json`-style piping. Use only
   * when stdin and stderr are TTYs; the CLI checks, this layer does not.
   */
  static layerTerminal: Layer.Layer<Prompter> = Layer.sync(this, stryMutAct_9fa48("651") ? () => undefined : (stryCov_9fa48("651"), () => stryMutAct_9fa48("652") ? {} : (stryCov_9fa48("652"), {
    ask: stryMutAct_9fa48("653") ? () => undefined : (stryCov_9fa48("653"), request => askOnTerminal(request, process.stdin, process.stderr))
  })));
}

/**
 * Persists an "always" answer as an allow rule in the local scope
 * (`.mcpctl/settings.local.json`). A port so Permission stays free of file handling;
 * `layerLocalSettings` backs it with the settings editor (comments kept, atomic writes).
 * @since 0.1.0
 */
export class RuleWriter extends Context.Tag(stryMutAct_9fa48("654") ? "" : (stryCov_9fa48("654"), "@mcpctl/core/RuleWriter"))<RuleWriter, {
  readonly allowAlways: (rule: string) => Effect.Effect<void, ConfigError>;
}>() {
  /** For tests and library users without settings files: "always" lasts for this session only. */
  static layerNoop: Layer.Layer<RuleWriter> = Layer.succeed(this, stryMutAct_9fa48("655") ? {} : (stryCov_9fa48("655"), {
    allowAlways: stryMutAct_9fa48("656") ? () => undefined : (stryCov_9fa48("656"), () => Effect.void)
  }));

  /** "Always" answers become allow rules in the project's local settings file (what the CLI uses). */
  static layerLocalSettings: Layer.Layer<RuleWriter, never, McpConfig> = Layer.effect(this, Effect.map(McpConfig, stryMutAct_9fa48("657") ? () => undefined : (stryCov_9fa48("657"), config => stryMutAct_9fa48("658") ? {} : (stryCov_9fa48("658"), {
    // An "always" answer the user gave keeps a trusted project trusted (its hash moves with the edit).
    allowAlways: stryMutAct_9fa48("659") ? () => undefined : (stryCov_9fa48("659"), (rule: string) => keepingTrust(config.home, config.projectDir, addPermissionRule(scopeFile(stryMutAct_9fa48("660") ? "" : (stryCov_9fa48("660"), "local"), config.projectDir, config.home), stryMutAct_9fa48("661") ? "" : (stryCov_9fa48("661"), "allow"), rule)))
  }))));
}

// ---------------------------------------------------------------------------------------------
// Terminal prompt
// ---------------------------------------------------------------------------------------------

/** Arguments beyond this are cut in the prompt: a person cannot judge 1 MB of JSON anyway. */
const MAX_PROMPT_ARGS_CHARS = 4000;
const MAX_PROMPT_ARGS_LINES = 60;

/**
 * Server-provided text (titles) and arguments may carry terminal escapes that could redraw the
 * prompt and make a destructive call look harmless: shown visibly (`Sanitize`), one line each
 * for the names and the title so none can forge another line of the prompt.
 */
const line = stryMutAct_9fa48("662") ? () => undefined : (stryCov_9fa48("662"), (() => {
  const line = (text: string): string => sanitize(text).replace(/\n/g, stryMutAct_9fa48("663") ? "" : (stryCov_9fa48("663"), "\\x0a"));
  return line;
})());
const prettyArgs = (args: unknown): string => {
  if (stryMutAct_9fa48("664")) {
    {}
  } else {
    stryCov_9fa48("664");
    let text: string;
    try {
      if (stryMutAct_9fa48("665")) {
        {}
      } else {
        stryCov_9fa48("665");
        text = (stryMutAct_9fa48("668") ? args !== undefined : stryMutAct_9fa48("667") ? false : stryMutAct_9fa48("666") ? true : (stryCov_9fa48("666", "667", "668"), args === undefined)) ? stryMutAct_9fa48("669") ? "" : (stryCov_9fa48("669"), "{}") : stryMutAct_9fa48("670") ? JSON.stringify(args, null, 2) && String(args) : (stryCov_9fa48("670"), JSON.stringify(args, null, 2) ?? String(args));
      }
    } catch {
      if (stryMutAct_9fa48("671")) {
        {}
      } else {
        stryCov_9fa48("671");
        text = String(args);
      }
    }
    const lines = text.split(stryMutAct_9fa48("672") ? "" : (stryCov_9fa48("672"), "\n"));
    let shown = (stryMutAct_9fa48("676") ? lines.length <= MAX_PROMPT_ARGS_LINES : stryMutAct_9fa48("675") ? lines.length >= MAX_PROMPT_ARGS_LINES : stryMutAct_9fa48("674") ? false : stryMutAct_9fa48("673") ? true : (stryCov_9fa48("673", "674", "675", "676"), lines.length > MAX_PROMPT_ARGS_LINES)) ? stryMutAct_9fa48("677") ? lines.join("\n") : (stryCov_9fa48("677"), lines.slice(0, MAX_PROMPT_ARGS_LINES).join(stryMutAct_9fa48("678") ? "" : (stryCov_9fa48("678"), "\n"))) : text;
    if (stryMutAct_9fa48("682") ? shown.length <= MAX_PROMPT_ARGS_CHARS : stryMutAct_9fa48("681") ? shown.length >= MAX_PROMPT_ARGS_CHARS : stryMutAct_9fa48("680") ? false : stryMutAct_9fa48("679") ? true : (stryCov_9fa48("679", "680", "681", "682"), shown.length > MAX_PROMPT_ARGS_CHARS)) shown = stryMutAct_9fa48("683") ? shown : (stryCov_9fa48("683"), shown.slice(0, MAX_PROMPT_ARGS_CHARS));
    const hidden = stryMutAct_9fa48("684") ? text.length + shown.length : (stryCov_9fa48("684"), text.length - shown.length);
    return (stryMutAct_9fa48("688") ? hidden <= 0 : stryMutAct_9fa48("687") ? hidden >= 0 : stryMutAct_9fa48("686") ? false : stryMutAct_9fa48("685") ? true : (stryCov_9fa48("685", "686", "687", "688"), hidden > 0)) ? stryMutAct_9fa48("689") ? `` : (stryCov_9fa48("689"), `${shown}\n… (${hidden} more characters not shown)`) : shown;
  }
};

/**
 * The text shown before asking: tool, server, annotations and arguments, all escaped. Exported so
 * other front ends (and tests) show the same thing.
 * @since 0.1.0
 */
export const renderRequest = (request: PermissionRequest): string => {
  if (stryMutAct_9fa48("690")) {
    {}
  } else {
    stryCov_9fa48("690");
    const {
      annotations: a
    } = request;
    const traits = stryMutAct_9fa48("691") ? [a.readOnly === true ? "read-only" : undefined, a.destructive === true ? "destructive" : undefined, a.openWorld === true ? "open-world" : undefined] : (stryCov_9fa48("691"), (stryMutAct_9fa48("692") ? [] : (stryCov_9fa48("692"), [(stryMutAct_9fa48("695") ? a.readOnly !== true : stryMutAct_9fa48("694") ? false : stryMutAct_9fa48("693") ? true : (stryCov_9fa48("693", "694", "695"), a.readOnly === (stryMutAct_9fa48("696") ? false : (stryCov_9fa48("696"), true)))) ? stryMutAct_9fa48("697") ? "" : (stryCov_9fa48("697"), "read-only") : undefined, (stryMutAct_9fa48("700") ? a.destructive !== true : stryMutAct_9fa48("699") ? false : stryMutAct_9fa48("698") ? true : (stryCov_9fa48("698", "699", "700"), a.destructive === (stryMutAct_9fa48("701") ? false : (stryCov_9fa48("701"), true)))) ? stryMutAct_9fa48("702") ? "" : (stryCov_9fa48("702"), "destructive") : undefined, (stryMutAct_9fa48("705") ? a.openWorld !== true : stryMutAct_9fa48("704") ? false : stryMutAct_9fa48("703") ? true : (stryCov_9fa48("703", "704", "705"), a.openWorld === (stryMutAct_9fa48("706") ? false : (stryCov_9fa48("706"), true)))) ? stryMutAct_9fa48("707") ? "" : (stryCov_9fa48("707"), "open-world") : undefined])).filter(stryMutAct_9fa48("708") ? () => undefined : (stryCov_9fa48("708"), (t): t is string => stryMutAct_9fa48("711") ? t === undefined : stryMutAct_9fa48("710") ? false : stryMutAct_9fa48("709") ? true : (stryCov_9fa48("709", "710", "711"), t !== undefined))));
    const indent = stryMutAct_9fa48("712") ? () => undefined : (stryCov_9fa48("712"), (() => {
      const indent = (text: string) => text.split(stryMutAct_9fa48("713") ? "" : (stryCov_9fa48("713"), "\n")).map(stryMutAct_9fa48("714") ? () => undefined : (stryCov_9fa48("714"), l => stryMutAct_9fa48("715") ? `` : (stryCov_9fa48("715"), `    ${l}`))).join(stryMutAct_9fa48("716") ? "" : (stryCov_9fa48("716"), "\n"));
      return indent;
    })());
    return (stryMutAct_9fa48("717") ? [] : (stryCov_9fa48("717"), [stryMutAct_9fa48("718") ? `` : (stryCov_9fa48("718"), `Allow ${line(request.tool)}?`), stryMutAct_9fa48("719") ? `` : (stryCov_9fa48("719"), `  server:      ${line(request.server)}`), stryMutAct_9fa48("720") ? `` : (stryCov_9fa48("720"), `  tool:        ${line(request.toolName)}${a.title ? stryMutAct_9fa48("721") ? `` : (stryCov_9fa48("721"), ` (${line(a.title)})`) : stryMutAct_9fa48("722") ? "Stryker was here!" : (stryCov_9fa48("722"), "")}`), stryMutAct_9fa48("723") ? `` : (stryCov_9fa48("723"), `  annotations: ${(stryMutAct_9fa48("727") ? traits.length <= 0 : stryMutAct_9fa48("726") ? traits.length >= 0 : stryMutAct_9fa48("725") ? false : stryMutAct_9fa48("724") ? true : (stryCov_9fa48("724", "725", "726", "727"), traits.length > 0)) ? traits.join(stryMutAct_9fa48("728") ? "" : (stryCov_9fa48("728"), ", ")) : stryMutAct_9fa48("729") ? "" : (stryCov_9fa48("729"), "none")}`), stryMutAct_9fa48("730") ? `` : (stryCov_9fa48("730"), `  arguments:`), indent(sanitize(prettyArgs(request.args)))])).join(stryMutAct_9fa48("731") ? "" : (stryCov_9fa48("731"), "\n"));
  }
};

/** Maps typed answers; anything else asks again. Empty is "no" so a stray Enter never approves. */
const parseAnswer = (line: string): "once" | "always" | "no" | undefined => {
  if (stryMutAct_9fa48("732")) {
    {}
  } else {
    stryCov_9fa48("732");
    switch (stryMutAct_9fa48("734") ? line.toLowerCase() : stryMutAct_9fa48("733") ? line.trim().toUpperCase() : (stryCov_9fa48("733", "734"), line.trim().toLowerCase())) {
      case stryMutAct_9fa48("735") ? "" : (stryCov_9fa48("735"), "y"):
      case stryMutAct_9fa48("736") ? "" : (stryCov_9fa48("736"), "yes"):
      case stryMutAct_9fa48("738") ? "" : (stryCov_9fa48("738"), "once"):
        if (stryMutAct_9fa48("737")) {} else {
          stryCov_9fa48("737");
          return stryMutAct_9fa48("739") ? "" : (stryCov_9fa48("739"), "once");
        }
      case stryMutAct_9fa48("740") ? "" : (stryCov_9fa48("740"), "a"):
      case stryMutAct_9fa48("742") ? "" : (stryCov_9fa48("742"), "always"):
        if (stryMutAct_9fa48("741")) {} else {
          stryCov_9fa48("741");
          return stryMutAct_9fa48("743") ? "" : (stryCov_9fa48("743"), "always");
        }
      case stryMutAct_9fa48("744") ? "Stryker was here!" : (stryCov_9fa48("744"), ""):
      case stryMutAct_9fa48("745") ? "" : (stryCov_9fa48("745"), "n"):
      case stryMutAct_9fa48("747") ? "" : (stryCov_9fa48("747"), "no"):
        if (stryMutAct_9fa48("746")) {} else {
          stryCov_9fa48("746");
          return stryMutAct_9fa48("748") ? "" : (stryCov_9fa48("748"), "no");
        }
      default:
        if (stryMutAct_9fa48("749")) {} else {
          stryCov_9fa48("749");
          return undefined;
        }
    }
  }
};

/**
 * The terminal prompt over any pair of streams, so it can be driven by tests or by an embedding
 * application's own TTY. Ctrl-C is re-raised as SIGINT; end of input answers `unavailable`.
 * @since 0.1.0
 */
export const askOnTerminal = stryMutAct_9fa48("750") ? () => undefined : (stryCov_9fa48("750"), (() => {
  const askOnTerminal = (request: PermissionRequest, input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Effect.Effect<PromptAnswer> => Effect.async<PromptAnswer>(resume => {
    if (stryMutAct_9fa48("751")) {
      {}
    } else {
      stryCov_9fa48("751");
      const rl = readline.createInterface(stryMutAct_9fa48("752") ? {} : (stryCov_9fa48("752"), {
        input,
        output,
        terminal: stryMutAct_9fa48("753") ? false : (stryCov_9fa48("753"), true)
      }));
      let done = stryMutAct_9fa48("754") ? true : (stryCov_9fa48("754"), false);
      const finish = (answer: PromptAnswer) => {
        if (stryMutAct_9fa48("755")) {
          {}
        } else {
          stryCov_9fa48("755");
          if (stryMutAct_9fa48("757") ? false : stryMutAct_9fa48("756") ? true : (stryCov_9fa48("756", "757"), done)) return;
          done = stryMutAct_9fa48("758") ? false : (stryCov_9fa48("758"), true);
          rl.close();
          resume(Effect.succeed(answer));
        }
      };
      // readline swallows Ctrl-C on a TTY; re-raise it so the runtime's normal shutdown runs.
      rl.on(stryMutAct_9fa48("759") ? "" : (stryCov_9fa48("759"), "SIGINT"), () => {
        if (stryMutAct_9fa48("760")) {
          {}
        } else {
          stryCov_9fa48("760");
          done = stryMutAct_9fa48("761") ? false : (stryCov_9fa48("761"), true);
          rl.close();
          process.kill(process.pid, stryMutAct_9fa48("762") ? "" : (stryCov_9fa48("762"), "SIGINT"));
        }
      });
      // stdin ended (EOF, Ctrl-D): nobody can answer.
      rl.on(stryMutAct_9fa48("763") ? "" : (stryCov_9fa48("763"), "close"), stryMutAct_9fa48("764") ? () => undefined : (stryCov_9fa48("764"), () => finish(stryMutAct_9fa48("765") ? "" : (stryCov_9fa48("765"), "unavailable"))));
      output.write(stryMutAct_9fa48("766") ? `` : (stryCov_9fa48("766"), `${renderRequest(request)}\n`));
      const ask = stryMutAct_9fa48("767") ? () => undefined : (stryCov_9fa48("767"), (() => {
        const ask = () => rl.question(stryMutAct_9fa48("768") ? "" : (stryCov_9fa48("768"), "[y] once  [a] always  [n] no > "), line => {
          if (stryMutAct_9fa48("769")) {
            {}
          } else {
            stryCov_9fa48("769");
            const answer = parseAnswer(line);
            if (stryMutAct_9fa48("772") ? answer !== undefined : stryMutAct_9fa48("771") ? false : stryMutAct_9fa48("770") ? true : (stryCov_9fa48("770", "771", "772"), answer === undefined)) {
              if (stryMutAct_9fa48("773")) {
                {}
              } else {
                stryCov_9fa48("773");
                output.write(stryMutAct_9fa48("774") ? "" : (stryCov_9fa48("774"), "Please answer y (once), a (always) or n (no).\n"));
                ask();
              }
            } else {
              if (stryMutAct_9fa48("775")) {
                {}
              } else {
                stryCov_9fa48("775");
                finish(answer);
              }
            }
          }
        });
        return ask;
      })());
      ask();
      return Effect.sync(() => {
        if (stryMutAct_9fa48("776")) {
          {}
        } else {
          stryCov_9fa48("776");
          done = stryMutAct_9fa48("777") ? false : (stryCov_9fa48("777"), true);
          rl.close();
        }
      });
    }
  });
  return askOnTerminal;
})());

// ---------------------------------------------------------------------------------------------
// Service
// ---------------------------------------------------------------------------------------------

/**
 * Where "always" answers go and where the user is told to add allow rules.
 * @since 0.1.0
 */
export const LOCAL_SETTINGS_FILE = stryMutAct_9fa48("778") ? "" : (stryCov_9fa48("778"), ".mcpctl/settings.local.json");

/**
 * The gate every tool call passes through (CLI `call`, `serve`, library users). Deny rules are
 * absolute: no prompter answer, `--yes` or session approval can override them.
 * @since 0.1.0
 */
export class Permission extends Context.Tag(stryMutAct_9fa48("779") ? "" : (stryCov_9fa48("779"), "@mcpctl/core/Permission"))<Permission, {
  /**
   * The current decision for a fully-qualified name, including tools approved "always" in this
   * session; synchronous so catalogues (`tools --json`) can show it per tool cheaply.
   */
  readonly decide: (toolName: string, identity?: ToolIdentity) => Decision;
  /** The deny rule that covers all of `server` (its resources and prompts too), if any. */
  readonly serverDenied: (server: string) => string | undefined;
  /** Succeeds when the call may run; asks through the Prompter when the rules say ask. */
  readonly authorize: (request: PermissionRequest) => Effect.Effect<void, PermissionDenied | ConfigError>;
}>() {
  /** Rules from McpConfig, asking through Prompter, persisting "always" through RuleWriter. */
  static layer: Layer.Layer<Permission, never, McpConfig | Prompter | RuleWriter> = Layer.effect(this, Effect.suspend(stryMutAct_9fa48("780") ? () => undefined : (stryCov_9fa48("780"), () => make)));

  /**
   * No checks at all, not even deny rules: for embedding applications that do their own
   * authorization, and tests of other services. Never used by the CLI.
   */
  static layerAllowAll: Layer.Layer<Permission> = Layer.succeed(this, stryMutAct_9fa48("781") ? {} : (stryCov_9fa48("781"), {
    decide: stryMutAct_9fa48("782") ? () => undefined : (stryCov_9fa48("782"), () => stryMutAct_9fa48("783") ? {} : (stryCov_9fa48("783"), {
      behavior: stryMutAct_9fa48("784") ? "" : (stryCov_9fa48("784"), "allow"),
      rule: undefined
    })),
    serverDenied: () => undefined,
    authorize: stryMutAct_9fa48("785") ? () => undefined : (stryCov_9fa48("785"), () => Effect.void)
  }));
}

/**
 * Builds the service from the merged rules, a prompter and a rule writer.
 * @since 0.1.0
 */
export const make: Effect.Effect<Permission["Type"], never, McpConfig | Prompter | RuleWriter> = Effect.gen(function* () {
  if (stryMutAct_9fa48("786")) {
    {}
  } else {
    stryCov_9fa48("786");
    const config = yield* McpConfig;
    const prompter = yield* Prompter;
    const writer = yield* RuleWriter;
    const rules = config.permissions;
    // The files that hold a rule, for messages that say where to edit it.
    const whereIs = (list: "ask" | "deny", rule: string | undefined): string => {
      if (stryMutAct_9fa48("787")) {
        {}
      } else {
        stryCov_9fa48("787");
        const files = (stryMutAct_9fa48("790") ? rule !== undefined : stryMutAct_9fa48("789") ? false : stryMutAct_9fa48("788") ? true : (stryCov_9fa48("788", "789", "790"), rule === undefined)) ? undefined : stryMutAct_9fa48("792") ? rules.sources[list]?.[rule] : stryMutAct_9fa48("791") ? rules.sources?.[list][rule] : (stryCov_9fa48("791", "792"), rules.sources?.[list]?.[rule]);
        return (stryMutAct_9fa48("795") ? files || files.length > 0 : stryMutAct_9fa48("794") ? false : stryMutAct_9fa48("793") ? true : (stryCov_9fa48("793", "794", "795"), files && (stryMutAct_9fa48("798") ? files.length <= 0 : stryMutAct_9fa48("797") ? files.length >= 0 : stryMutAct_9fa48("796") ? true : (stryCov_9fa48("796", "797", "798"), files.length > 0)))) ? files.join(stryMutAct_9fa48("799") ? "" : (stryCov_9fa48("799"), " and ")) : stryMutAct_9fa48("800") ? "" : (stryCov_9fa48("800"), "your settings");
      }
    };
    // Tools approved "always" during this session: the rule file is only re-read on the next run.
    const approved = new Set<string>();
    // One question at a time: concurrent calls (serve, parallel tools) must not interleave prompts,
    // and a second call to the same tool should see the first one's "always".
    const promptLock = yield* Effect.makeSemaphore(1);
    const decideNow = (toolName: string, identity?: ToolIdentity): Decision => {
      if (stryMutAct_9fa48("801")) {
        {}
      } else {
        stryCov_9fa48("801");
        const decision = decide(rules, toolName, identity);
        return (stryMutAct_9fa48("804") ? decision.behavior === "ask" || approved.has(toolName) : stryMutAct_9fa48("803") ? false : stryMutAct_9fa48("802") ? true : (stryCov_9fa48("802", "803", "804"), (stryMutAct_9fa48("806") ? decision.behavior !== "ask" : stryMutAct_9fa48("805") ? true : (stryCov_9fa48("805", "806"), decision.behavior === (stryMutAct_9fa48("807") ? "" : (stryCov_9fa48("807"), "ask")))) && approved.has(toolName))) ? stryMutAct_9fa48("808") ? {} : (stryCov_9fa48("808"), {
          behavior: stryMutAct_9fa48("809") ? "" : (stryCov_9fa48("809"), "allow"),
          rule: toolName
        }) : decision;
      }
    };
    const ask = Effect.fn(stryMutAct_9fa48("810") ? "" : (stryCov_9fa48("810"), "Permission.ask"))(function* (request: PermissionRequest, rule: string | undefined) {
      if (stryMutAct_9fa48("811")) {
        {}
      } else {
        stryCov_9fa48("811");
        if (stryMutAct_9fa48("813") ? false : stryMutAct_9fa48("812") ? true : (stryCov_9fa48("812", "813"), approved.has(request.tool))) return;
        const answer = yield* prompter.ask(request);
        yield* Effect.annotateCurrentSpan(stryMutAct_9fa48("814") ? "" : (stryCov_9fa48("814"), "answer"), answer);
        switch (answer) {
          case stryMutAct_9fa48("816") ? "" : (stryCov_9fa48("816"), "once"):
            if (stryMutAct_9fa48("815")) {} else {
              stryCov_9fa48("815");
              return;
            }
          case stryMutAct_9fa48("818") ? "" : (stryCov_9fa48("818"), "always"):
            if (stryMutAct_9fa48("817")) {} else {
              stryCov_9fa48("817");
              // Under an explicit ask rule an allow rule could never win (ask beats allow), so it is
              // not written: the approval lasts for this session only.
              if (stryMutAct_9fa48("821") ? rule !== undefined : stryMutAct_9fa48("820") ? false : stryMutAct_9fa48("819") ? true : (stryCov_9fa48("819", "820", "821"), rule === undefined)) yield* writer.allowAlways(request.tool);
              approved.add(request.tool);
              return;
            }
          case stryMutAct_9fa48("822") ? "" : (stryCov_9fa48("822"), "no"):
          // A prompter written in JavaScript can answer anything: what is not an approval denies.
          default:
            if (stryMutAct_9fa48("823")) {} else {
              stryCov_9fa48("823");
              return yield* new PermissionDenied(stryMutAct_9fa48("824") ? {} : (stryCov_9fa48("824"), {
                message: (stryMutAct_9fa48("825") ? `` : (stryCov_9fa48("825"), `${request.tool} was not approved. To allow it without asking, add "${request.tool}" `)) + (stryMutAct_9fa48("826") ? `` : (stryCov_9fa48("826"), `to permissions.allow in ${LOCAL_SETTINGS_FILE}`)),
                tool: request.tool,
                rule: request.tool,
                behavior: stryMutAct_9fa48("827") ? "" : (stryCov_9fa48("827"), "ask")
              }));
            }
          case stryMutAct_9fa48("829") ? "" : (stryCov_9fa48("829"), "unavailable"):
            if (stryMutAct_9fa48("828")) {} else {
              stryCov_9fa48("828");
              return yield* new PermissionDenied((stryMutAct_9fa48("832") ? rule !== undefined : stryMutAct_9fa48("831") ? false : stryMutAct_9fa48("830") ? true : (stryCov_9fa48("830", "831", "832"), rule === undefined)) ? stryMutAct_9fa48("833") ? {} : (stryCov_9fa48("833"), {
                message: (stryMutAct_9fa48("834") ? `` : (stryCov_9fa48("834"), `${request.tool} needs approval: run on a terminal, pass --yes, or add "${request.tool}" `)) + (stryMutAct_9fa48("835") ? `` : (stryCov_9fa48("835"), `to permissions.allow in ${LOCAL_SETTINGS_FILE}`)),
                tool: request.tool,
                rule: request.tool,
                behavior: stryMutAct_9fa48("836") ? "" : (stryCov_9fa48("836"), "ask")
              }) : stryMutAct_9fa48("837") ? {} : (stryCov_9fa48("837"), {
                // An explicit ask rule beats allow rules, so adding one would not help.
                message: (stryMutAct_9fa48("838") ? `` : (stryCov_9fa48("838"), `${request.tool} needs approval (rule "${rule}" in permissions.ask of ${whereIs(stryMutAct_9fa48("839") ? "" : (stryCov_9fa48("839"), "ask"), rule)}): `)) + (stryMutAct_9fa48("840") ? `` : (stryCov_9fa48("840"), `run on a terminal or pass --yes, or remove that ask rule`)),
                tool: request.tool,
                rule,
                behavior: stryMutAct_9fa48("841") ? "" : (stryCov_9fa48("841"), "ask")
              }));
            }
        }
      }
    });

    // On every call's path, so untraced (a span here cost 25-40 µs a call; `ToolRegistry.call`
    // has the call's span) and without a generator.
    const authorize = (request: PermissionRequest): Effect.Effect<void, PermissionDenied | ConfigError> => {
      if (stryMutAct_9fa48("842")) {
        {}
      } else {
        stryCov_9fa48("842");
        const decision = decideNow(request.tool, stryMutAct_9fa48("843") ? {} : (stryCov_9fa48("843"), {
          server: request.server,
          tool: request.toolName
        }));
        switch (decision.behavior) {
          case stryMutAct_9fa48("845") ? "" : (stryCov_9fa48("845"), "allow"):
            if (stryMutAct_9fa48("844")) {} else {
              stryCov_9fa48("844");
              return Effect.void;
            }
          case stryMutAct_9fa48("847") ? "" : (stryCov_9fa48("847"), "deny"):
            if (stryMutAct_9fa48("846")) {} else {
              stryCov_9fa48("846");
              return Effect.fail(new PermissionDenied(stryMutAct_9fa48("848") ? {} : (stryCov_9fa48("848"), {
                message: stryMutAct_9fa48("849") ? `` : (stryCov_9fa48("849"), `${request.tool} is denied by rule "${decision.rule}" in permissions.deny of ${whereIs(stryMutAct_9fa48("850") ? "" : (stryCov_9fa48("850"), "deny"), decision.rule)}; remove that rule to allow it`),
                tool: request.tool,
                rule: stryMutAct_9fa48("851") ? decision.rule && request.tool : (stryCov_9fa48("851"), decision.rule ?? request.tool),
                behavior: stryMutAct_9fa48("852") ? "" : (stryCov_9fa48("852"), "deny")
              })));
            }
          case stryMutAct_9fa48("854") ? "" : (stryCov_9fa48("854"), "ask"):
            if (stryMutAct_9fa48("853")) {} else {
              stryCov_9fa48("853");
              return promptLock.withPermits(1)(ask(request, decision.rule));
            }
        }
      }
    };
    return Permission.of(stryMutAct_9fa48("855") ? {} : (stryCov_9fa48("855"), {
      decide: decideNow,
      serverDenied: stryMutAct_9fa48("856") ? () => undefined : (stryCov_9fa48("856"), server => serverDenyRule(rules, server)),
      authorize
    }));
  }
});