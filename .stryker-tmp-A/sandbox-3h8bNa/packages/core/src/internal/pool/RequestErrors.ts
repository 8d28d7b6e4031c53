/**
 * SDK failures → the typed errors of Errors.ts. SDK v2 throws `ProtocolError`s (the server's
 * JSON-RPC errors), `SdkError`s (local: connection closed, not connected, timeout, invalid
 * result; `SdkHttpError` for an HTTP status), plain `Error`s and transport-specific classes;
 * callers of the pool only ever see these few tagged errors.
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
import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError } from "@modelcontextprotocol/client";
import type { Protocol, ResolvedServer } from "../../config/ServerConfig.js";
import { displayUrl, redactText } from "../config/Redact.js";
import { McpRequestError, ServerUnavailable, SessionExpired, TransportFailure } from "../../Errors.js";
import { MESSAGE_TOO_LARGE, MessageTooLargeError } from "../transport/MessageSize.js";
import { isAuthError, isSessionExpired, isTerminalTransportError, networkFailure, shouldFallBackToSse } from "../transport/TransportErrors.js";

/** What a request on a connected server can fail with. */
export type RequestError = TransportFailure | McpRequestError | SessionExpired;

/** The failure was a broken connection (what the pool counts toward closing one, Resilience.ts). */
export const isTerminal = stryMutAct_9fa48("191") ? () => undefined : (stryCov_9fa48("191"), (() => {
  const isTerminal = (error: RequestError): boolean => stryMutAct_9fa48("194") ? error._tag === "TransportFailure" && error.reason !== undefined || error.reason !== "other" : stryMutAct_9fa48("193") ? false : stryMutAct_9fa48("192") ? true : (stryCov_9fa48("192", "193", "194"), (stryMutAct_9fa48("196") ? error._tag === "TransportFailure" || error.reason !== undefined : stryMutAct_9fa48("195") ? true : (stryCov_9fa48("195", "196"), (stryMutAct_9fa48("198") ? error._tag !== "TransportFailure" : stryMutAct_9fa48("197") ? true : (stryCov_9fa48("197", "198"), error._tag === (stryMutAct_9fa48("199") ? "" : (stryCov_9fa48("199"), "TransportFailure")))) && (stryMutAct_9fa48("201") ? error.reason === undefined : stryMutAct_9fa48("200") ? true : (stryCov_9fa48("200", "201"), error.reason !== undefined)))) && (stryMutAct_9fa48("203") ? error.reason === "other" : stryMutAct_9fa48("202") ? true : (stryCov_9fa48("202", "203"), error.reason !== (stryMutAct_9fa48("204") ? "" : (stryCov_9fa48("204"), "other")))));
  return isTerminal;
})());

/**
 * The JSON-RPC code SDK 1.x gave its own request timeout (`McpError` -32001), kept for the
 * `McpRequestError` SDK v2's `SdkError` `REQUEST_TIMEOUT` becomes.
 */
const REQUEST_TIMEOUT = stryMutAct_9fa48("205") ? +32001 : (stryCov_9fa48("205"), -32001);

/** The `SdkErrorCode` of a local SDK failure, or undefined for anything else. */
const sdkCodeOf = stryMutAct_9fa48("206") ? () => undefined : (stryCov_9fa48("206"), (() => {
  const sdkCodeOf = (cause: unknown): string | undefined => SdkError.isInstance(cause) ? cause.code : undefined;
  return sdkCodeOf;
})());

/** The cause's text, with any URL in it redacted: SDK and fetch errors quote the URL they failed on. */
const messageOf = stryMutAct_9fa48("207") ? () => undefined : (stryCov_9fa48("207"), (() => {
  const messageOf = (cause: unknown): string => redactText(cause instanceof Error ? cause.message : (stryMutAct_9fa48("210") ? typeof cause !== "string" : stryMutAct_9fa48("209") ? false : stryMutAct_9fa48("208") ? true : (stryCov_9fa48("208", "209", "210"), typeof cause === (stryMutAct_9fa48("211") ? "" : (stryCov_9fa48("211"), "string")))) ? cause : JSON.stringify(cause));
  return messageOf;
})());
const codeOf = (cause: unknown): string | undefined => {
  if (stryMutAct_9fa48("212")) {
    {}
  } else {
    stryCov_9fa48("212");
    const seen = new Set<unknown>();
    let current: unknown = cause;
    while (stryMutAct_9fa48("214") ? current && typeof current === "object" || !seen.has(current) : stryMutAct_9fa48("213") ? false : (stryCov_9fa48("213", "214"), (stryMutAct_9fa48("216") ? current || typeof current === "object" : stryMutAct_9fa48("215") ? true : (stryCov_9fa48("215", "216"), current && (stryMutAct_9fa48("218") ? typeof current !== "object" : stryMutAct_9fa48("217") ? true : (stryCov_9fa48("217", "218"), typeof current === (stryMutAct_9fa48("219") ? "" : (stryCov_9fa48("219"), "object")))))) && (stryMutAct_9fa48("220") ? seen.has(current) : (stryCov_9fa48("220"), !seen.has(current))))) {
      if (stryMutAct_9fa48("221")) {
        {}
      } else {
        stryCov_9fa48("221");
        seen.add(current);
        const code = (current as {
          code?: unknown;
        }).code;
        if (stryMutAct_9fa48("224") ? typeof code !== "string" : stryMutAct_9fa48("223") ? false : stryMutAct_9fa48("222") ? true : (stryCov_9fa48("222", "223", "224"), typeof code === (stryMutAct_9fa48("225") ? "" : (stryCov_9fa48("225"), "string")))) return code;
        current = (current as {
          cause?: unknown;
        }).cause;
      }
    }
    return undefined;
  }
};

/** JSON-RPC -32022 (2026-07-28): the server does not support the protocol version asked for. */
export const UNSUPPORTED_PROTOCOL_VERSION = stryMutAct_9fa48("226") ? +32022 : (stryCov_9fa48("226"), -32022);

/** The versions a -32022 error says the server supports, when it says. */
const supportedVersions = (cause: unknown): ReadonlyArray<string> | undefined => {
  if (stryMutAct_9fa48("227")) {
    {}
  } else {
    stryCov_9fa48("227");
    const data = stryMutAct_9fa48("228") ? (cause as {
      data?: {
        supported?: unknown;
      };
    } | null).data : (stryCov_9fa48("228"), (cause as {
      data?: {
        supported?: unknown;
      };
    } | null)?.data);
    const supported = (stryMutAct_9fa48("231") ? data || typeof data === "object" : stryMutAct_9fa48("230") ? false : stryMutAct_9fa48("229") ? true : (stryCov_9fa48("229", "230", "231"), data && (stryMutAct_9fa48("233") ? typeof data !== "object" : stryMutAct_9fa48("232") ? true : (stryCov_9fa48("232", "233"), typeof data === (stryMutAct_9fa48("234") ? "" : (stryCov_9fa48("234"), "object")))))) ? data.supported : undefined;
    return Array.isArray(supported) ? stryMutAct_9fa48("235") ? supported : (stryCov_9fa48("235"), supported.filter(stryMutAct_9fa48("236") ? () => undefined : (stryCov_9fa48("236"), (v): v is string => stryMutAct_9fa48("239") ? typeof v !== "string" : stryMutAct_9fa48("238") ? false : stryMutAct_9fa48("237") ? true : (stryCov_9fa48("237", "238", "239"), typeof v === (stryMutAct_9fa48("240") ? "" : (stryCov_9fa48("240"), "string")))))) : undefined;
  }
};

/**
 * A protocol version error: the server's -32022 (UnsupportedProtocolVersion), or SDK v2's
 * `EraNegotiationFailed` (a pinned or probed modern connect found no common revision).
 */
export const isVersionError = stryMutAct_9fa48("241") ? () => undefined : (stryCov_9fa48("241"), (() => {
  const isVersionError = (cause: unknown): boolean => stryMutAct_9fa48("244") ? ProtocolError.isInstance(cause) && cause.code === UNSUPPORTED_PROTOCOL_VERSION && sdkCodeOf(cause) === SdkErrorCode.EraNegotiationFailed : stryMutAct_9fa48("243") ? false : stryMutAct_9fa48("242") ? true : (stryCov_9fa48("242", "243", "244"), (stryMutAct_9fa48("246") ? ProtocolError.isInstance(cause) || cause.code === UNSUPPORTED_PROTOCOL_VERSION : stryMutAct_9fa48("245") ? false : (stryCov_9fa48("245", "246"), ProtocolError.isInstance(cause) && (stryMutAct_9fa48("248") ? cause.code !== UNSUPPORTED_PROTOCOL_VERSION : stryMutAct_9fa48("247") ? true : (stryCov_9fa48("247", "248"), cause.code === UNSUPPORTED_PROTOCOL_VERSION)))) || (stryMutAct_9fa48("250") ? sdkCodeOf(cause) !== SdkErrorCode.EraNegotiationFailed : stryMutAct_9fa48("249") ? false : (stryCov_9fa48("249", "250"), sdkCodeOf(cause) === SdkErrorCode.EraNegotiationFailed)));
  return isVersionError;
})());

/**
 * The message of a version error: what the server refused, what it speaks, and the fix (the
 * other era with `--protocol`, or the server's `protocol` setting).
 */
export const versionErrorMessage = (server: string, cause: unknown, protocol: Protocol | undefined): string => {
  if (stryMutAct_9fa48("251")) {
    {}
  } else {
    stryCov_9fa48("251");
    const supported = supportedVersions(cause);
    const speaks = (stryMutAct_9fa48("254") ? supported || supported.length > 0 : stryMutAct_9fa48("253") ? false : stryMutAct_9fa48("252") ? true : (stryCov_9fa48("252", "253", "254"), supported && (stryMutAct_9fa48("257") ? supported.length <= 0 : stryMutAct_9fa48("256") ? supported.length >= 0 : stryMutAct_9fa48("255") ? true : (stryCov_9fa48("255", "256", "257"), supported.length > 0)))) ? stryMutAct_9fa48("258") ? `` : (stryCov_9fa48("258"), ` It supports ${supported.join(stryMutAct_9fa48("259") ? "" : (stryCov_9fa48("259"), ", "))}.`) : stryMutAct_9fa48("260") ? "Stryker was here!" : (stryCov_9fa48("260"), "");
    const modern = stryMutAct_9fa48("262") ? supported.some(v => v >= "2026-07-28") : stryMutAct_9fa48("261") ? supported?.every(v => v >= "2026-07-28") : (stryCov_9fa48("261", "262"), supported?.some(stryMutAct_9fa48("263") ? () => undefined : (stryCov_9fa48("263"), v => stryMutAct_9fa48("267") ? v < "2026-07-28" : stryMutAct_9fa48("266") ? v > "2026-07-28" : stryMutAct_9fa48("265") ? false : stryMutAct_9fa48("264") ? true : (stryCov_9fa48("264", "265", "266", "267"), v >= (stryMutAct_9fa48("268") ? "" : (stryCov_9fa48("268"), "2026-07-28"))))));
    const other: Protocol = (stryMutAct_9fa48("271") ? protocol !== "modern" : stryMutAct_9fa48("270") ? false : stryMutAct_9fa48("269") ? true : (stryCov_9fa48("269", "270", "271"), protocol === (stryMutAct_9fa48("272") ? "" : (stryCov_9fa48("272"), "modern")))) ? stryMutAct_9fa48("273") ? "" : (stryCov_9fa48("273"), "legacy") : (stryMutAct_9fa48("276") ? protocol !== "legacy" : stryMutAct_9fa48("275") ? false : stryMutAct_9fa48("274") ? true : (stryCov_9fa48("274", "275", "276"), protocol === (stryMutAct_9fa48("277") ? "" : (stryCov_9fa48("277"), "legacy")))) ? stryMutAct_9fa48("278") ? "" : (stryCov_9fa48("278"), "modern") : modern ? stryMutAct_9fa48("279") ? "" : (stryCov_9fa48("279"), "modern") : stryMutAct_9fa48("280") ? "" : (stryCov_9fa48("280"), "legacy");
    return (stryMutAct_9fa48("281") ? `` : (stryCov_9fa48("281"), `Server "${server}" does not speak the protocol version mcpctl asked for`)) + (stryMutAct_9fa48("282") ? `` : (stryCov_9fa48("282"), `${(stryMutAct_9fa48("285") ? protocol || protocol !== "auto" : stryMutAct_9fa48("284") ? false : stryMutAct_9fa48("283") ? true : (stryCov_9fa48("283", "284", "285"), protocol && (stryMutAct_9fa48("287") ? protocol === "auto" : stryMutAct_9fa48("286") ? true : (stryCov_9fa48("286", "287"), protocol !== (stryMutAct_9fa48("288") ? "" : (stryCov_9fa48("288"), "auto")))))) ? stryMutAct_9fa48("289") ? `` : (stryCov_9fa48("289"), ` (--protocol ${protocol})`) : stryMutAct_9fa48("290") ? "Stryker was here!" : (stryCov_9fa48("290"), "")}: ${messageOf(cause)}.${speaks} `)) + (stryMutAct_9fa48("291") ? `` : (stryCov_9fa48("291"), `Connect in the other era with \`--protocol ${other}\`, or set "protocol": "${other}" in its settings.`));
  }
};

/**
 * A failed `initialize`: needs-auth on 401, otherwise failed with the server's own last words
 * (stderr tail). `fallback` says whether `auto` may try the next transport kind.
 */
export const classifyConnectError = (server: ResolvedServer, failure: {
  readonly cause: unknown;
  readonly diagnostics: string | undefined;
}, protocol?: Protocol | undefined): {
  readonly error: ServerUnavailable;
  readonly fallback: boolean;
} => {
  if (stryMutAct_9fa48("292")) {
    {}
  } else {
    stryCov_9fa48("292");
    const {
      cause,
      diagnostics
    } = failure;
    // undici's bare "fetch failed" hides the reason (refused, DNS, TLS) in its cause: say it,
    // naming the host as the settings wrote it (displayUrl), never a value spliced in from a variable.
    // A probe that never reached the server is an outage, not a version the server refused.
    const network = (stryMutAct_9fa48("293") ? "" : (stryCov_9fa48("293"), "url")) in server.config ? networkFailure(cause, displayUrl(server)) : undefined;
    if (stryMutAct_9fa48("296") ? isVersionError(cause) || network === undefined : stryMutAct_9fa48("295") ? false : stryMutAct_9fa48("294") ? true : (stryCov_9fa48("294", "295", "296"), isVersionError(cause) && (stryMutAct_9fa48("298") ? network !== undefined : stryMutAct_9fa48("297") ? true : (stryCov_9fa48("297", "298"), network === undefined)))) {
      if (stryMutAct_9fa48("299")) {
        {}
      } else {
        stryCov_9fa48("299");
        return stryMutAct_9fa48("300") ? {} : (stryCov_9fa48("300"), {
          fallback: stryMutAct_9fa48("301") ? true : (stryCov_9fa48("301"), false),
          error: new ServerUnavailable(stryMutAct_9fa48("302") ? {} : (stryCov_9fa48("302"), {
            server: server.name,
            status: stryMutAct_9fa48("303") ? "" : (stryCov_9fa48("303"), "failed"),
            message: versionErrorMessage(server.name, cause, protocol)
          }))
        });
      }
    }
    if (stryMutAct_9fa48("305") ? false : stryMutAct_9fa48("304") ? true : (stryCov_9fa48("304", "305"), isAuthError(cause))) {
      if (stryMutAct_9fa48("306")) {
        {}
      } else {
        stryCov_9fa48("306");
        return stryMutAct_9fa48("307") ? {} : (stryCov_9fa48("307"), {
          fallback: stryMutAct_9fa48("308") ? true : (stryCov_9fa48("308"), false),
          error: new ServerUnavailable(stryMutAct_9fa48("309") ? {} : (stryCov_9fa48("309"), {
            server: server.name,
            status: stryMutAct_9fa48("310") ? "" : (stryCov_9fa48("310"), "needs-auth"),
            message: stryMutAct_9fa48("311") ? `` : (stryCov_9fa48("311"), `Server "${server.name}" needs authorization. Run \`mcpctl auth ${server.name}\` to sign in.`)
          }))
        });
      }
    }
    const tail = diagnostics ? stryMutAct_9fa48("312") ? `` : (stryCov_9fa48("312"), `\n--- last output of the server ---\n${stryMutAct_9fa48("313") ? diagnostics.trimStart() : (stryCov_9fa48("313"), diagnostics.trimEnd())}`) : stryMutAct_9fa48("314") ? "Stryker was here!" : (stryCov_9fa48("314"), "");
    // The URL may carry a token in its query or user info: never print it as is.
    const where = (stryMutAct_9fa48("315") ? "" : (stryCov_9fa48("315"), "url")) in server.config ? displayUrl(server) : server.config.command;
    return stryMutAct_9fa48("316") ? {} : (stryCov_9fa48("316"), {
      fallback: shouldFallBackToSse(cause),
      error: new ServerUnavailable(stryMutAct_9fa48("317") ? {} : (stryCov_9fa48("317"), {
        server: server.name,
        status: stryMutAct_9fa48("318") ? "" : (stryCov_9fa48("318"), "failed"),
        message: stryMutAct_9fa48("319") ? `` : (stryCov_9fa48("319"), `Server "${server.name}" (${where}) failed to connect: ${stryMutAct_9fa48("320") ? network && messageOf(cause) : (stryCov_9fa48("320"), network ?? messageOf(cause))}${tail}`)
      }))
    });
  }
};

/**
 * The server no longer knows our session. The spec says 404 (with JSON-RPC -32001), which
 * `isSessionExpired` recognizes; the reference server-everything answers an unknown session with
 * 400 "No valid session ID provided" (-32000) instead, so a 400/404 that blames the session id
 * counts too. Either way re-initializing is the fix, and the request never ran.
 */
export const isStaleSession = (cause: unknown): boolean => {
  if (stryMutAct_9fa48("321")) {
    {}
  } else {
    stryCov_9fa48("321");
    if (stryMutAct_9fa48("323") ? false : stryMutAct_9fa48("322") ? true : (stryCov_9fa48("322", "323"), isSessionExpired(cause))) return stryMutAct_9fa48("324") ? false : (stryCov_9fa48("324"), true);
    if (stryMutAct_9fa48("327") ? false : stryMutAct_9fa48("326") ? true : stryMutAct_9fa48("325") ? SdkHttpError.isInstance(cause) : (stryCov_9fa48("325", "326", "327"), !SdkHttpError.isInstance(cause))) return stryMutAct_9fa48("328") ? true : (stryCov_9fa48("328"), false);
    const status = cause.status;
    return stryMutAct_9fa48("331") ? status === 400 || status === 404 || /session/i.test(cause.message) : stryMutAct_9fa48("330") ? false : stryMutAct_9fa48("329") ? true : (stryCov_9fa48("329", "330", "331"), (stryMutAct_9fa48("333") ? status === 400 && status === 404 : stryMutAct_9fa48("332") ? true : (stryCov_9fa48("332", "333"), (stryMutAct_9fa48("335") ? status !== 400 : stryMutAct_9fa48("334") ? false : (stryCov_9fa48("334", "335"), status === 400)) || (stryMutAct_9fa48("337") ? status !== 404 : stryMutAct_9fa48("336") ? false : (stryCov_9fa48("336", "337"), status === 404)))) && /session/i.test(cause.message));
  }
};

/**
 * The request failed before any of it left this process: the stdio transport refuses to write to
 * a process that has exited or a closed pipe ("cannot send, …"), SDK transports refuse with "Not
 * connected". Such a call cannot have run, so it is safe to send again whatever the tool does.
 */
export const wasNotSent = stryMutAct_9fa48("338") ? () => undefined : (stryCov_9fa48("338"), (() => {
  const wasNotSent = (cause: unknown): boolean => stryMutAct_9fa48("341") ? sdkCodeOf(cause) === SdkErrorCode.NotConnected && cause instanceof Error && (/: cannot send, /.test(cause.message) || cause.message === "Not connected") : stryMutAct_9fa48("340") ? false : stryMutAct_9fa48("339") ? true : (stryCov_9fa48("339", "340", "341"), (stryMutAct_9fa48("343") ? sdkCodeOf(cause) !== SdkErrorCode.NotConnected : stryMutAct_9fa48("342") ? false : (stryCov_9fa48("342", "343"), sdkCodeOf(cause) === SdkErrorCode.NotConnected)) || (stryMutAct_9fa48("345") ? cause instanceof Error || /: cannot send, /.test(cause.message) || cause.message === "Not connected" : stryMutAct_9fa48("344") ? false : (stryCov_9fa48("344", "345"), cause instanceof Error && (stryMutAct_9fa48("347") ? /: cannot send, /.test(cause.message) && cause.message === "Not connected" : stryMutAct_9fa48("346") ? true : (stryCov_9fa48("346", "347"), /: cannot send, /.test(cause.message) || (stryMutAct_9fa48("349") ? cause.message !== "Not connected" : stryMutAct_9fa48("348") ? false : (stryCov_9fa48("348", "349"), cause.message === (stryMutAct_9fa48("350") ? "" : (stryCov_9fa48("350"), "Not connected")))))))));
  return wasNotSent;
})());

/**
 * An error this side made of the server's answer, not one the server sent: the answer was over
 * the size limit (MessageSize.ts) or did not match the tool's output schema (the SDK client
 * checks it). The server misbehaved, so the request counts as a server that cannot be used.
 */
export const isRefusedAnswer = stryMutAct_9fa48("351") ? () => undefined : (stryCov_9fa48("351"), (() => {
  const isRefusedAnswer = (error: ProtocolError): boolean => stryMutAct_9fa48("354") ? error.code === MESSAGE_TOO_LARGE && /Structured content does not match the tool's output schema|has an output schema but did not return structured content/.test(error.message) : stryMutAct_9fa48("353") ? false : stryMutAct_9fa48("352") ? true : (stryCov_9fa48("352", "353", "354"), (stryMutAct_9fa48("356") ? error.code !== MESSAGE_TOO_LARGE : stryMutAct_9fa48("355") ? false : (stryCov_9fa48("355", "356"), error.code === MESSAGE_TOO_LARGE)) || /Structured content does not match the tool's output schema|has an output schema but did not return structured content/.test(error.message));
  return isRefusedAnswer;
})());

/**
 * A failed request on a live connection, and whether its cause was a broken connection (which
 * the pool counts toward closing a degraded one, Resilience.ts). `mayHaveRun` (and the message)
 * say whether a lost `tools/call` could have taken effect, so the user knows whether to check
 * before running it again.
 */
export const classifyRequestFailure = (server: string, method: string, cause: unknown, options: {
  readonly idempotent?: boolean | undefined;
  readonly tool?: string | undefined;
} = {}): {
  readonly error: RequestError;
  readonly terminal: boolean;
} => {
  if (stryMutAct_9fa48("357")) {
    {}
  } else {
    stryCov_9fa48("357");
    // An answer dropped for its size: the request failed, the connection is fine.
    if (stryMutAct_9fa48("359") ? false : stryMutAct_9fa48("358") ? true : (stryCov_9fa48("358", "359"), cause instanceof MessageTooLargeError)) {
      if (stryMutAct_9fa48("360")) {
        {}
      } else {
        stryCov_9fa48("360");
        return stryMutAct_9fa48("361") ? {} : (stryCov_9fa48("361"), {
          terminal: stryMutAct_9fa48("362") ? true : (stryCov_9fa48("362"), false),
          error: new McpRequestError(stryMutAct_9fa48("363") ? {} : (stryCov_9fa48("363"), {
            cause,
            server,
            method,
            code: MESSAGE_TOO_LARGE,
            message: stryMutAct_9fa48("364") ? `` : (stryCov_9fa48("364"), `${server}: ${cause.message}`),
            refusedAnswer: stryMutAct_9fa48("365") ? false : (stryCov_9fa48("365"), true)
          }))
        });
      }
    }
    if (stryMutAct_9fa48("367") ? false : stryMutAct_9fa48("366") ? true : (stryCov_9fa48("366", "367"), isStaleSession(cause))) {
      if (stryMutAct_9fa48("368")) {
        {}
      } else {
        stryCov_9fa48("368");
        return stryMutAct_9fa48("369") ? {} : (stryCov_9fa48("369"), {
          terminal: stryMutAct_9fa48("370") ? true : (stryCov_9fa48("370"), false),
          error: new SessionExpired(stryMutAct_9fa48("371") ? {} : (stryCov_9fa48("371"), {
            cause,
            server,
            message: stryMutAct_9fa48("372") ? `` : (stryCov_9fa48("372"), `The session with server "${server}" expired.`)
          }))
        });
      }
    }
    if (stryMutAct_9fa48("374") ? false : stryMutAct_9fa48("373") ? true : (stryCov_9fa48("373", "374"), isVersionError(cause))) {
      if (stryMutAct_9fa48("375")) {
        {}
      } else {
        stryCov_9fa48("375");
        return stryMutAct_9fa48("376") ? {} : (stryCov_9fa48("376"), {
          terminal: stryMutAct_9fa48("377") ? true : (stryCov_9fa48("377"), false),
          error: new McpRequestError(stryMutAct_9fa48("378") ? {} : (stryCov_9fa48("378"), {
            cause,
            server,
            method,
            code: UNSUPPORTED_PROTOCOL_VERSION,
            message: versionErrorMessage(server, cause, undefined)
          }))
        });
      }
    }
    if (stryMutAct_9fa48("380") ? false : stryMutAct_9fa48("379") ? true : (stryCov_9fa48("379", "380"), ProtocolError.isInstance(cause))) {
      if (stryMutAct_9fa48("381")) {
        {}
      } else {
        stryCov_9fa48("381");
        return stryMutAct_9fa48("382") ? {} : (stryCov_9fa48("382"), {
          terminal: stryMutAct_9fa48("383") ? true : (stryCov_9fa48("383"), false),
          error: new McpRequestError(stryMutAct_9fa48("384") ? {} : (stryCov_9fa48("384"), {
            cause,
            server,
            method,
            code: cause.code,
            message: stryMutAct_9fa48("385") ? `` : (stryCov_9fa48("385"), `${server}: ${cause.message}`),
            ...(isRefusedAnswer(cause) ? stryMutAct_9fa48("386") ? {} : (stryCov_9fa48("386"), {
              refusedAnswer: stryMutAct_9fa48("387") ? false : (stryCov_9fa48("387"), true)
            }) : stryMutAct_9fa48("388") ? {} : (stryCov_9fa48("388"), {
              fromServer: stryMutAct_9fa48("389") ? false : (stryCov_9fa48("389"), true)
            })),
            ...((stryMutAct_9fa48("392") ? cause.data === undefined : stryMutAct_9fa48("391") ? false : stryMutAct_9fa48("390") ? true : (stryCov_9fa48("390", "391", "392"), cause.data !== undefined)) ? stryMutAct_9fa48("393") ? {} : (stryCov_9fa48("393"), {
              data: cause.data
            }) : {})
          }))
        });
      }
    }
    const sdkCode = sdkCodeOf(cause);
    if (stryMutAct_9fa48("396") ? sdkCode !== SdkErrorCode.InputRequiredRoundsExceeded : stryMutAct_9fa48("395") ? false : stryMutAct_9fa48("394") ? true : (stryCov_9fa48("394", "395", "396"), sdkCode === SdkErrorCode.InputRequiredRoundsExceeded)) {
      if (stryMutAct_9fa48("397")) {
        {}
      } else {
        stryCov_9fa48("397");
        const what = (stryMutAct_9fa48("400") ? options.tool === undefined : stryMutAct_9fa48("399") ? false : stryMutAct_9fa48("398") ? true : (stryCov_9fa48("398", "399", "400"), options.tool !== undefined)) ? stryMutAct_9fa48("401") ? `` : (stryCov_9fa48("401"), `tool ${JSON.stringify(options.tool)}`) : method;
        return stryMutAct_9fa48("402") ? {} : (stryCov_9fa48("402"), {
          terminal: stryMutAct_9fa48("403") ? true : (stryCov_9fa48("403"), false),
          error: new McpRequestError(stryMutAct_9fa48("404") ? {} : (stryCov_9fa48("404"), {
            cause,
            server,
            method,
            code: stryMutAct_9fa48("405") ? +1 : (stryCov_9fa48("405"), -1),
            message: (stryMutAct_9fa48("406") ? `` : (stryCov_9fa48("406"), `Server "${server}" kept asking for input: ${what} answered input_required more times than `)) + (stryMutAct_9fa48("407") ? `` : (stryCov_9fa48("407"), `allowed (${messageOf(cause)}). The server may be `)) + (stryMutAct_9fa48("408") ? `` : (stryCov_9fa48("408"), `looping; report it to its authors.`))
          }))
        });
      }
    }
    if (stryMutAct_9fa48("411") ? sdkCode !== SdkErrorCode.RequestTimeout : stryMutAct_9fa48("410") ? false : stryMutAct_9fa48("409") ? true : (stryCov_9fa48("409", "410", "411"), sdkCode === SdkErrorCode.RequestTimeout)) {
      if (stryMutAct_9fa48("412")) {
        {}
      } else {
        stryCov_9fa48("412");
        return stryMutAct_9fa48("413") ? {} : (stryCov_9fa48("413"), {
          terminal: stryMutAct_9fa48("414") ? true : (stryCov_9fa48("414"), false),
          error: new McpRequestError(stryMutAct_9fa48("415") ? {} : (stryCov_9fa48("415"), {
            cause,
            server,
            method,
            code: REQUEST_TIMEOUT,
            message: stryMutAct_9fa48("416") ? `` : (stryCov_9fa48("416"), `${server}: ${messageOf(cause)}`)
          }))
        });
      }
    }
    const closedByPeer = stryMutAct_9fa48("419") ? sdkCode !== SdkErrorCode.ConnectionClosed : stryMutAct_9fa48("418") ? false : stryMutAct_9fa48("417") ? true : (stryCov_9fa48("417", "418", "419"), sdkCode === SdkErrorCode.ConnectionClosed);
    // "Not connected" / "cannot send": the connection is gone just as surely as on a close.
    const notSent = wasNotSent(cause);
    const closed = stryMutAct_9fa48("422") ? closedByPeer && notSent : stryMutAct_9fa48("421") ? false : stryMutAct_9fa48("420") ? true : (stryCov_9fa48("420", "421", "422"), closedByPeer || notSent);
    const terminal = isTerminalTransportError(cause);
    // An SdkError's own code (INVALID_RESULT, CLIENT_HTTP_…) names no broken connection.
    const code = (stryMutAct_9fa48("425") ? sdkCode !== undefined : stryMutAct_9fa48("424") ? false : stryMutAct_9fa48("423") ? true : (stryCov_9fa48("423", "424", "425"), sdkCode === undefined)) ? codeOf(cause) : undefined;
    if (stryMutAct_9fa48("428") ? (closed || terminal) && code !== undefined : stryMutAct_9fa48("427") ? false : stryMutAct_9fa48("426") ? true : (stryCov_9fa48("426", "427", "428"), (stryMutAct_9fa48("430") ? closed && terminal : stryMutAct_9fa48("429") ? false : (stryCov_9fa48("429", "430"), closed || terminal)) || (stryMutAct_9fa48("432") ? code === undefined : stryMutAct_9fa48("431") ? false : (stryCov_9fa48("431", "432"), code !== undefined)))) {
      if (stryMutAct_9fa48("433")) {
        {}
      } else {
        stryCov_9fa48("433");
        const mayHaveRun = stryMutAct_9fa48("436") ? method === "tools/call" || !wasNotSent(cause) : stryMutAct_9fa48("435") ? false : stryMutAct_9fa48("434") ? true : (stryCov_9fa48("434", "435", "436"), (stryMutAct_9fa48("438") ? method !== "tools/call" : stryMutAct_9fa48("437") ? true : (stryCov_9fa48("437", "438"), method === (stryMutAct_9fa48("439") ? "" : (stryCov_9fa48("439"), "tools/call")))) && (stryMutAct_9fa48("440") ? wasNotSent(cause) : (stryCov_9fa48("440"), !wasNotSent(cause))));
        return stryMutAct_9fa48("441") ? {} : (stryCov_9fa48("441"), {
          terminal: stryMutAct_9fa48("444") ? closed && terminal : stryMutAct_9fa48("443") ? false : stryMutAct_9fa48("442") ? true : (stryCov_9fa48("442", "443", "444"), closed || terminal),
          error: new TransportFailure(stryMutAct_9fa48("445") ? {} : (stryCov_9fa48("445"), {
            server,
            code: closed ? stryMutAct_9fa48("446") ? "" : (stryCov_9fa48("446"), "CONNECTION_CLOSED") : code,
            mayHaveRun,
            reason: notSent ? stryMutAct_9fa48("447") ? "" : (stryCov_9fa48("447"), "not-sent") : closedByPeer ? stryMutAct_9fa48("448") ? "" : (stryCov_9fa48("448"), "closed") : terminal ? stryMutAct_9fa48("449") ? "" : (stryCov_9fa48("449"), "broken") : stryMutAct_9fa48("450") ? "" : (stryCov_9fa48("450"), "other"),
            cause,
            message: (stryMutAct_9fa48("451") ? `` : (stryCov_9fa48("451"), `Lost the connection to server "${server}" during ${method}: ${messageOf(cause)}`)) + ((stryMutAct_9fa48("452") ? mayHaveRun : (stryCov_9fa48("452"), !mayHaveRun)) ? stryMutAct_9fa48("453") ? "Stryker was here!" : (stryCov_9fa48("453"), "") : options.idempotent ? stryMutAct_9fa48("454") ? `` : (stryCov_9fa48("454"), `. The call may have run on the server.`) : (stryMutAct_9fa48("455") ? `` : (stryCov_9fa48("455"), `. The call may have run on the server; it was not repeated because the tool is neither `)) + (stryMutAct_9fa48("456") ? `` : (stryCov_9fa48("456"), `read-only nor idempotent. Check its effect before calling it again.`)))
          }))
        });
      }
    }
    return stryMutAct_9fa48("457") ? {} : (stryCov_9fa48("457"), {
      terminal: stryMutAct_9fa48("458") ? true : (stryCov_9fa48("458"), false),
      error: new McpRequestError(stryMutAct_9fa48("459") ? {} : (stryCov_9fa48("459"), {
        cause,
        server,
        method,
        code: stryMutAct_9fa48("460") ? +1 : (stryCov_9fa48("460"), -1),
        message: stryMutAct_9fa48("461") ? `` : (stryCov_9fa48("461"), `${server}: ${messageOf(cause)}`)
      }))
    });
  }
};