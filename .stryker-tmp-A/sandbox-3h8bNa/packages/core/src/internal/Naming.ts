/**
 * Fully-qualified tool names (`mcp__<server>__<tool>`) and description limits. Pure functions:
 * the registry, permission rules, `serve` and the CLI must all agree on one spelling, so it lives
 * in exactly one place.
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
import { createHash } from "node:crypto";

/** Every fully-qualified tool name starts with this, so rules and names can be told apart from other tools. */
export const PREFIX = stryMutAct_9fa48("0") ? "" : (stryCov_9fa48("0"), "mcp__");

/** Separates the server part from the tool part; never occurs inside a normalized server name. */
export const SEPARATOR = stryMutAct_9fa48("1") ? "" : (stryCov_9fa48("1"), "__");

/**
 * Longest fully-qualified name we hand out. Model APIs and many MCP hosts reject tool names above
 * 64 characters, and `serve` re-exports these names, so every name we build must fit.
 */
export const MAX_TOOL_NAME_LENGTH = 64;

/** Hex characters of the hash that keeps shortened names unique. */
const HASH_LENGTH = 8;

/**
 * Tool names keep their runs of `_` (unlike server names) so that `read__file` and `read_file`
 * stay two tools; anything outside `[A-Za-z0-9_-]` would break rule matching and model APIs.
 */
export const normalizeToolName = stryMutAct_9fa48("2") ? () => undefined : (stryCov_9fa48("2"), (() => {
  const normalizeToolName = (name: string): string => name.replace(stryMutAct_9fa48("3") ? /[A-Za-z0-9_-]/g : (stryCov_9fa48("3"), /[^A-Za-z0-9_-]/g), stryMutAct_9fa48("4") ? "" : (stryCov_9fa48("4"), "_"));
  return normalizeToolName;
})());
const shortHash = stryMutAct_9fa48("5") ? () => undefined : (stryCov_9fa48("5"), (() => {
  const shortHash = (text: string): string => stryMutAct_9fa48("6") ? createHash("sha256").update(text).digest("hex") : (stryCov_9fa48("6"), createHash(stryMutAct_9fa48("7") ? "" : (stryCov_9fa48("7"), "sha256")).update(text).digest(stryMutAct_9fa48("8") ? "" : (stryCov_9fa48("8"), "hex")).slice(0, HASH_LENGTH));
  return shortHash;
})());

/**
 * The one name a tool is known by everywhere (catalogue, rules, `call`, `serve`). Names over 64
 * characters are cut and suffixed with a hash of the full name, so two long names that differ
 * only at their end stay distinct, and the same tool gets the same name on every run. The
 * `mcp__<server>__` prefix is kept whole whenever it leaves room, so server-level rules
 * (`mcp__<server>`, `mcp__<server>__*`) still match shortened names.
 *
 * `server` must already be normalized (`Config.normalizeServerName`, applied when settings load).
 */
export const buildToolName = (server: string, tool: string): string => {
  if (stryMutAct_9fa48("9")) {
    {}
  } else {
    stryCov_9fa48("9");
    const full = stryMutAct_9fa48("10") ? `` : (stryCov_9fa48("10"), `${PREFIX}${server}${SEPARATOR}${normalizeToolName(tool)}`);
    if (stryMutAct_9fa48("14") ? full.length > MAX_TOOL_NAME_LENGTH : stryMutAct_9fa48("13") ? full.length < MAX_TOOL_NAME_LENGTH : stryMutAct_9fa48("12") ? false : stryMutAct_9fa48("11") ? true : (stryCov_9fa48("11", "12", "13", "14"), full.length <= MAX_TOOL_NAME_LENGTH)) return full;
    const suffix = stryMutAct_9fa48("15") ? `` : (stryCov_9fa48("15"), `_${shortHash(full)}`);
    const head = stryMutAct_9fa48("16") ? `` : (stryCov_9fa48("16"), `${PREFIX}${server}${SEPARATOR}`);
    // Keep the whole server prefix when at least one tool character still fits beside the hash.
    if (stryMutAct_9fa48("20") ? head.length + 1 + suffix.length > MAX_TOOL_NAME_LENGTH : stryMutAct_9fa48("19") ? head.length + 1 + suffix.length < MAX_TOOL_NAME_LENGTH : stryMutAct_9fa48("18") ? false : stryMutAct_9fa48("17") ? true : (stryCov_9fa48("17", "18", "19", "20"), (stryMutAct_9fa48("21") ? head.length + 1 - suffix.length : (stryCov_9fa48("21"), (stryMutAct_9fa48("22") ? head.length - 1 : (stryCov_9fa48("22"), head.length + 1)) + suffix.length)) <= MAX_TOOL_NAME_LENGTH)) {
      if (stryMutAct_9fa48("23")) {
        {}
      } else {
        stryCov_9fa48("23");
        return stryMutAct_9fa48("24") ? full.slice(0, MAX_TOOL_NAME_LENGTH - suffix.length) - suffix : (stryCov_9fa48("24"), (stryMutAct_9fa48("25") ? full : (stryCov_9fa48("25"), full.slice(0, stryMutAct_9fa48("26") ? MAX_TOOL_NAME_LENGTH + suffix.length : (stryCov_9fa48("26"), MAX_TOOL_NAME_LENGTH - suffix.length)))) + suffix);
      }
    }
    // Pathologically long server name: cut the server part too, still as `mcp__<s>__<hash>`.
    return stryMutAct_9fa48("27") ? `` : (stryCov_9fa48("27"), `${PREFIX}${cutServerName(server)}${SEPARATOR}${shortHash(full)}`);
  }
};

/** Room for the server part when a pathologically long server name has to be cut. */
const SERVER_ROOM = stryMutAct_9fa48("28") ? MAX_TOOL_NAME_LENGTH - PREFIX.length - SEPARATOR.length + HASH_LENGTH : (stryCov_9fa48("28"), (stryMutAct_9fa48("29") ? MAX_TOOL_NAME_LENGTH - PREFIX.length + SEPARATOR.length : (stryCov_9fa48("29"), (stryMutAct_9fa48("30") ? MAX_TOOL_NAME_LENGTH + PREFIX.length : (stryCov_9fa48("30"), MAX_TOOL_NAME_LENGTH - PREFIX.length)) - SEPARATOR.length)) - HASH_LENGTH);

/**
 * The server part a name of `server` may carry after the 64-character cut (pure): the name itself
 * when it is short, else its first characters. Two servers with one cut name could not be told
 * apart by their tools' names or by rules, so settings that have them are refused.
 */
export const cutServerName = stryMutAct_9fa48("31") ? () => undefined : (stryCov_9fa48("31"), (() => {
  const cutServerName = (server: string): string => stryMutAct_9fa48("32") ? server.replace(/_+$/, "") : (stryCov_9fa48("32"), server.slice(0, SERVER_ROOM).replace(stryMutAct_9fa48("34") ? /_$/ : stryMutAct_9fa48("33") ? /_+/ : (stryCov_9fa48("33", "34"), /_+$/), stryMutAct_9fa48("35") ? "Stryker was here!" : (stryCov_9fa48("35"), "")));
  return cutServerName;
})());

/** The unshortened qualified name (pure): what a rule written from a tool's own name says. */
export const fullToolName = stryMutAct_9fa48("36") ? () => undefined : (stryCov_9fa48("36"), (() => {
  const fullToolName = (server: string, tool: string): string => stryMutAct_9fa48("37") ? `` : (stryCov_9fa48("37"), `${PREFIX}${server}${SEPARATOR}${normalizeToolName(tool)}`);
  return fullToolName;
})());

/**
 * Splits a fully-qualified name back into its server and tool parts, at the first `__` after
 * `mcp__` (server names never contain `__`). For a shortened name the tool part is the shortened
 * one: resolve it to the server's original tool name through the registry, not through this.
 * Returns undefined for anything that is not `mcp__<server>__<tool>` with both parts non-empty.
 */
export const parseToolName = (fq: string): {
  readonly server: string;
  readonly tool: string;
} | undefined => {
  if (stryMutAct_9fa48("38")) {
    {}
  } else {
    stryCov_9fa48("38");
    if (stryMutAct_9fa48("41") ? false : stryMutAct_9fa48("40") ? true : stryMutAct_9fa48("39") ? fq.startsWith(PREFIX) : (stryCov_9fa48("39", "40", "41"), !(stryMutAct_9fa48("42") ? fq.endsWith(PREFIX) : (stryCov_9fa48("42"), fq.startsWith(PREFIX))))) return undefined;
    const rest = stryMutAct_9fa48("43") ? fq : (stryCov_9fa48("43"), fq.slice(PREFIX.length));
    const at = rest.indexOf(SEPARATOR);
    if (stryMutAct_9fa48("47") ? at > 0 : stryMutAct_9fa48("46") ? at < 0 : stryMutAct_9fa48("45") ? false : stryMutAct_9fa48("44") ? true : (stryCov_9fa48("44", "45", "46", "47"), at <= 0)) return undefined;
    const tool = stryMutAct_9fa48("48") ? rest : (stryCov_9fa48("48"), rest.slice(stryMutAct_9fa48("49") ? at - SEPARATOR.length : (stryCov_9fa48("49"), at + SEPARATOR.length)));
    if (stryMutAct_9fa48("52") ? tool.length !== 0 : stryMutAct_9fa48("51") ? false : stryMutAct_9fa48("50") ? true : (stryCov_9fa48("50", "51", "52"), tool.length === 0)) return undefined;
    return stryMutAct_9fa48("53") ? {} : (stryCov_9fa48("53"), {
      server: stryMutAct_9fa48("54") ? rest : (stryCov_9fa48("54"), rest.slice(0, at)),
      tool
    });
  }
};

/**
 * Servers can ship descriptions of many kilobytes; every one of them lands in a model's context,
 * so the catalogue caps them (docs/CLI.md, Names).
 */
export const MAX_DESCRIPTION_LENGTH = 2048;

/** Shows the reader that text is missing; counted within `MAX_DESCRIPTION_LENGTH`. */
export const TRUNCATION_MARKER = stryMutAct_9fa48("55") ? "" : (stryCov_9fa48("55"), "… [truncated]");

/**
 * Cuts a description to `MAX_DESCRIPTION_LENGTH` characters including a visible marker, so a cut
 * description is never mistaken for a complete one. Never splits a surrogate pair.
 */
export const truncateDescription = (text: string): string => {
  if (stryMutAct_9fa48("56")) {
    {}
  } else {
    stryCov_9fa48("56");
    if (stryMutAct_9fa48("60") ? text.length > MAX_DESCRIPTION_LENGTH : stryMutAct_9fa48("59") ? text.length < MAX_DESCRIPTION_LENGTH : stryMutAct_9fa48("58") ? false : stryMutAct_9fa48("57") ? true : (stryCov_9fa48("57", "58", "59", "60"), text.length <= MAX_DESCRIPTION_LENGTH)) return text;
    let end = stryMutAct_9fa48("61") ? MAX_DESCRIPTION_LENGTH + TRUNCATION_MARKER.length : (stryCov_9fa48("61"), MAX_DESCRIPTION_LENGTH - TRUNCATION_MARKER.length);
    const last = text.charCodeAt(stryMutAct_9fa48("62") ? end + 1 : (stryCov_9fa48("62"), end - 1));
    if (stryMutAct_9fa48("65") ? last >= 0xd800 || last <= 0xdbff : stryMutAct_9fa48("64") ? false : stryMutAct_9fa48("63") ? true : (stryCov_9fa48("63", "64", "65"), (stryMutAct_9fa48("68") ? last < 0xd800 : stryMutAct_9fa48("67") ? last > 0xd800 : stryMutAct_9fa48("66") ? true : (stryCov_9fa48("66", "67", "68"), last >= 0xd800)) && (stryMutAct_9fa48("71") ? last > 0xdbff : stryMutAct_9fa48("70") ? last < 0xdbff : stryMutAct_9fa48("69") ? true : (stryCov_9fa48("69", "70", "71"), last <= 0xdbff)))) stryMutAct_9fa48("72") ? end += 1 : (stryCov_9fa48("72"), end -= 1);
    return stryMutAct_9fa48("73") ? text.slice(0, end) - TRUNCATION_MARKER : (stryCov_9fa48("73"), (stryMutAct_9fa48("74") ? text : (stryCov_9fa48("74"), text.slice(0, end))) + TRUNCATION_MARKER);
  }
};