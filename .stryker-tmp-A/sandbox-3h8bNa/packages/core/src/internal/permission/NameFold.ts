/**
 * Look-alike names, folded for deny rules (pure). A server picks its tools' names: after the
 * user denies `write_file` under a wildcard allow, the server can rename it `write-file`,
 * `WRITE_FILE`, `wrіte_file` (Cyrillic і) or `write_file` + a zero-width space, and an exact
 * deny would let each run. Deny rules compare folded names instead: case, separators, marks,
 * invisible characters and common confusables (Cyrillic, Greek, `0`/`o`, `1`/`l`, `rn`/`m`)
 * are folded away, and any other non-ASCII letter is a wildcard for one character — a deny
 * errs on the side of denying.
 *
 * No confusables package: the targets are rule names (ASCII), so a table of the Latin look-alikes
 * plus the wildcard covers what a full Unicode skeleton would, in a few lines.
 */
// @ts-nocheck


/** Stands for one character the fold cannot place: it matches any character of a rule. */function stryNS_9fa48() {
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
export const WILDCARD = stryMutAct_9fa48("75") ? "" : (stryCov_9fa48("75"), "?");

/** Non-ASCII letters that look like a Latin letter (after lowercasing). */
const LOOKALIKES: Readonly<Record<string, string>> = stryMutAct_9fa48("76") ? {} : (stryCov_9fa48("76"), {
  // Cyrillic
  "а": stryMutAct_9fa48("77") ? "" : (stryCov_9fa48("77"), "a"),
  "в": stryMutAct_9fa48("78") ? "" : (stryCov_9fa48("78"), "b"),
  "с": stryMutAct_9fa48("79") ? "" : (stryCov_9fa48("79"), "c"),
  "ԁ": stryMutAct_9fa48("80") ? "" : (stryCov_9fa48("80"), "d"),
  "е": stryMutAct_9fa48("81") ? "" : (stryCov_9fa48("81"), "e"),
  "ё": stryMutAct_9fa48("82") ? "" : (stryCov_9fa48("82"), "e"),
  "һ": stryMutAct_9fa48("83") ? "" : (stryCov_9fa48("83"), "h"),
  "н": stryMutAct_9fa48("84") ? "" : (stryCov_9fa48("84"), "h"),
  "і": stryMutAct_9fa48("85") ? "" : (stryCov_9fa48("85"), "i"),
  "ї": stryMutAct_9fa48("86") ? "" : (stryCov_9fa48("86"), "i"),
  "ј": stryMutAct_9fa48("87") ? "" : (stryCov_9fa48("87"), "j"),
  "к": stryMutAct_9fa48("88") ? "" : (stryCov_9fa48("88"), "k"),
  "ӏ": stryMutAct_9fa48("89") ? "" : (stryCov_9fa48("89"), "l"),
  "м": stryMutAct_9fa48("90") ? "" : (stryCov_9fa48("90"), "m"),
  "п": stryMutAct_9fa48("91") ? "" : (stryCov_9fa48("91"), "n"),
  "о": stryMutAct_9fa48("92") ? "" : (stryCov_9fa48("92"), "o"),
  "р": stryMutAct_9fa48("93") ? "" : (stryCov_9fa48("93"), "p"),
  "ԛ": stryMutAct_9fa48("94") ? "" : (stryCov_9fa48("94"), "q"),
  "г": stryMutAct_9fa48("95") ? "" : (stryCov_9fa48("95"), "r"),
  "ѕ": stryMutAct_9fa48("96") ? "" : (stryCov_9fa48("96"), "s"),
  "т": stryMutAct_9fa48("97") ? "" : (stryCov_9fa48("97"), "t"),
  "ц": stryMutAct_9fa48("98") ? "" : (stryCov_9fa48("98"), "u"),
  "ѵ": stryMutAct_9fa48("99") ? "" : (stryCov_9fa48("99"), "v"),
  "ԝ": stryMutAct_9fa48("100") ? "" : (stryCov_9fa48("100"), "w"),
  "х": stryMutAct_9fa48("101") ? "" : (stryCov_9fa48("101"), "x"),
  "у": stryMutAct_9fa48("102") ? "" : (stryCov_9fa48("102"), "y"),
  "ү": stryMutAct_9fa48("103") ? "" : (stryCov_9fa48("103"), "y"),
  "з": stryMutAct_9fa48("104") ? "" : (stryCov_9fa48("104"), "z"),
  // Greek
  "α": stryMutAct_9fa48("105") ? "" : (stryCov_9fa48("105"), "a"),
  "β": stryMutAct_9fa48("106") ? "" : (stryCov_9fa48("106"), "b"),
  "ϲ": stryMutAct_9fa48("107") ? "" : (stryCov_9fa48("107"), "c"),
  "ε": stryMutAct_9fa48("108") ? "" : (stryCov_9fa48("108"), "e"),
  "η": stryMutAct_9fa48("109") ? "" : (stryCov_9fa48("109"), "n"),
  "ι": stryMutAct_9fa48("110") ? "" : (stryCov_9fa48("110"), "i"),
  "ϳ": stryMutAct_9fa48("111") ? "" : (stryCov_9fa48("111"), "j"),
  "κ": stryMutAct_9fa48("112") ? "" : (stryCov_9fa48("112"), "k"),
  "μ": stryMutAct_9fa48("113") ? "" : (stryCov_9fa48("113"), "u"),
  "ν": stryMutAct_9fa48("114") ? "" : (stryCov_9fa48("114"), "v"),
  "ο": stryMutAct_9fa48("115") ? "" : (stryCov_9fa48("115"), "o"),
  "ρ": stryMutAct_9fa48("116") ? "" : (stryCov_9fa48("116"), "p"),
  "τ": stryMutAct_9fa48("117") ? "" : (stryCov_9fa48("117"), "t"),
  "υ": stryMutAct_9fa48("118") ? "" : (stryCov_9fa48("118"), "u"),
  "χ": stryMutAct_9fa48("119") ? "" : (stryCov_9fa48("119"), "x"),
  "γ": stryMutAct_9fa48("120") ? "" : (stryCov_9fa48("120"), "y"),
  "ζ": stryMutAct_9fa48("121") ? "" : (stryCov_9fa48("121"), "z"),
  "ω": stryMutAct_9fa48("122") ? "" : (stryCov_9fa48("122"), "w"),
  // Latin letters outside ASCII
  "ı": stryMutAct_9fa48("123") ? "" : (stryCov_9fa48("123"), "i"),
  "ȷ": stryMutAct_9fa48("124") ? "" : (stryCov_9fa48("124"), "j"),
  "ɡ": stryMutAct_9fa48("125") ? "" : (stryCov_9fa48("125"), "g"),
  "ɑ": stryMutAct_9fa48("126") ? "" : (stryCov_9fa48("126"), "a"),
  "ʀ": stryMutAct_9fa48("127") ? "" : (stryCov_9fa48("127"), "r"),
  "ꜱ": stryMutAct_9fa48("128") ? "" : (stryCov_9fa48("128"), "s"),
  "ᴅ": stryMutAct_9fa48("129") ? "" : (stryCov_9fa48("129"), "d"),
  "ß": stryMutAct_9fa48("130") ? "" : (stryCov_9fa48("130"), "ss"),
  "ø": stryMutAct_9fa48("131") ? "" : (stryCov_9fa48("131"), "o"),
  "ł": stryMutAct_9fa48("132") ? "" : (stryCov_9fa48("132"), "l"),
  "đ": stryMutAct_9fa48("133") ? "" : (stryCov_9fa48("133"), "d")
});

/** ASCII a reader cannot tell apart at a glance; both sides of a comparison fold the same way. */
const foldAscii = stryMutAct_9fa48("134") ? () => undefined : (stryCov_9fa48("134"), (() => {
  const foldAscii = (s: string): string => s.replace(/rn/g, stryMutAct_9fa48("135") ? "" : (stryCov_9fa48("135"), "m")).replace(/vv/g, stryMutAct_9fa48("136") ? "" : (stryCov_9fa48("136"), "w")).replace(/0/g, stryMutAct_9fa48("137") ? "" : (stryCov_9fa48("137"), "o")).replace(stryMutAct_9fa48("138") ? /[^1i]/g : (stryCov_9fa48("138"), /[1i]/g), stryMutAct_9fa48("139") ? "" : (stryCov_9fa48("139"), "l"));
  return foldAscii;
})());

/**
 * The folded form of a name or a rule part: lowercase ASCII letters and digits, `?` for a letter
 * that could be anything. Separators, punctuation and spaces are dropped altogether: a server that
 * renames a denied `write_file` to `writefile` or `w_rite_file` renames nothing a reader would
 * notice, so the deny must still hold (a name that differs only in separators is denied).
 */
export const foldName = (text: string): string => {
  if (stryMutAct_9fa48("140")) {
    {}
  } else {
    stryCov_9fa48("140");
    let out = stryMutAct_9fa48("141") ? "Stryker was here!" : (stryCov_9fa48("141"), "");
    for (const ch of text.normalize(stryMutAct_9fa48("142") ? "" : (stryCov_9fa48("142"), "NFKD"))) {
      if (stryMutAct_9fa48("143")) {
        {}
      } else {
        stryCov_9fa48("143");
        if (stryMutAct_9fa48("145") ? false : stryMutAct_9fa48("144") ? true : (stryCov_9fa48("144", "145"), (stryMutAct_9fa48("146") ? /\P{M}/u : (stryCov_9fa48("146"), /\p{M}/u)).test(ch))) continue; // accents, combining marks
        if (stryMutAct_9fa48("148") ? false : stryMutAct_9fa48("147") ? true : (stryCov_9fa48("147", "148"), (stryMutAct_9fa48("150") ? /[\P{Cf}\u115f\u1160\u3164\uffa0\u180e]/u : stryMutAct_9fa48("149") ? /[^\p{Cf}\u115f\u1160\u3164\uffa0\u180e]/u : (stryCov_9fa48("149", "150"), /[\p{Cf}\u115f\u1160\u3164\uffa0\u180e]/u)).test(ch))) continue; // zero-width, bidi, fillers
        const lower = stryMutAct_9fa48("151") ? ch.toUpperCase() : (stryCov_9fa48("151"), ch.toLowerCase());
        if (stryMutAct_9fa48("153") ? false : stryMutAct_9fa48("152") ? true : (stryCov_9fa48("152", "153"), (stryMutAct_9fa48("154") ? /[^a-z0-9]/ : (stryCov_9fa48("154"), /[a-z0-9]/)).test(lower))) stryMutAct_9fa48("155") ? out -= lower : (stryCov_9fa48("155"), out += lower);else if (stryMutAct_9fa48("158") ? LOOKALIKES[lower] === undefined : stryMutAct_9fa48("157") ? false : stryMutAct_9fa48("156") ? true : (stryCov_9fa48("156", "157", "158"), LOOKALIKES[lower] !== undefined)) stryMutAct_9fa48("159") ? out -= LOOKALIKES[lower] : (stryCov_9fa48("159"), out += LOOKALIKES[lower]);else if (stryMutAct_9fa48("161") ? false : stryMutAct_9fa48("160") ? true : (stryCov_9fa48("160", "161"), (stryMutAct_9fa48("164") ? /[\p{L}\P{N}]/u : stryMutAct_9fa48("163") ? /[\P{L}\p{N}]/u : stryMutAct_9fa48("162") ? /[^\p{L}\p{N}]/u : (stryCov_9fa48("162", "163", "164"), /[\p{L}\p{N}]/u)).test(lower))) stryMutAct_9fa48("165") ? out -= WILDCARD : (stryCov_9fa48("165"), out += WILDCARD);
        // separators, punctuation and spaces: dropped
      }
    }
    return foldAscii(out);
  }
};

/** Whether two folded strings are equal, a `?` on the name's side matching any one character. */
const sameChars = stryMutAct_9fa48("166") ? () => undefined : (stryCov_9fa48("166"), (() => {
  const sameChars = (rule: string, name: string): boolean => stryMutAct_9fa48("169") ? rule.length === name.length || [...name].every((c, i) => c === WILDCARD || c === rule[i]) : stryMutAct_9fa48("168") ? false : stryMutAct_9fa48("167") ? true : (stryCov_9fa48("167", "168", "169"), (stryMutAct_9fa48("171") ? rule.length !== name.length : stryMutAct_9fa48("170") ? true : (stryCov_9fa48("170", "171"), rule.length === name.length)) && (stryMutAct_9fa48("172") ? [...name].some((c, i) => c === WILDCARD || c === rule[i]) : (stryCov_9fa48("172"), (stryMutAct_9fa48("173") ? [] : (stryCov_9fa48("173"), [...name])).every(stryMutAct_9fa48("174") ? () => undefined : (stryCov_9fa48("174"), (c, i) => stryMutAct_9fa48("177") ? c === WILDCARD && c === rule[i] : stryMutAct_9fa48("176") ? false : stryMutAct_9fa48("175") ? true : (stryCov_9fa48("175", "176", "177"), (stryMutAct_9fa48("179") ? c !== WILDCARD : stryMutAct_9fa48("178") ? false : (stryCov_9fa48("178", "179"), c === WILDCARD)) || (stryMutAct_9fa48("181") ? c !== rule[i] : stryMutAct_9fa48("180") ? false : (stryCov_9fa48("180", "181"), c === rule[i]))))))));
  return sameChars;
})());

/** Whether a folded name equals a folded rule part (the name's wildcards match anything). */
export const foldedEquals = stryMutAct_9fa48("182") ? () => undefined : (stryCov_9fa48("182"), (() => {
  const foldedEquals = (rulePart: string, namePart: string): boolean => sameChars(foldName(rulePart), foldName(namePart));
  return foldedEquals;
})());

/** Whether a folded name starts with a folded rule prefix (the prefix of `mcp__fs__write*`). */
export const foldedStartsWith = (namePart: string, rulePrefix: string): boolean => {
  if (stryMutAct_9fa48("183")) {
    {}
  } else {
    stryCov_9fa48("183");
    const prefix = foldName(rulePrefix);
    const name = foldName(namePart);
    return stryMutAct_9fa48("186") ? name.length >= prefix.length || sameChars(prefix, name.slice(0, prefix.length)) : stryMutAct_9fa48("185") ? false : stryMutAct_9fa48("184") ? true : (stryCov_9fa48("184", "185", "186"), (stryMutAct_9fa48("189") ? name.length < prefix.length : stryMutAct_9fa48("188") ? name.length > prefix.length : stryMutAct_9fa48("187") ? true : (stryCov_9fa48("187", "188", "189"), name.length >= prefix.length)) && sameChars(prefix, stryMutAct_9fa48("190") ? name : (stryCov_9fa48("190"), name.slice(0, prefix.length))));
  }
};