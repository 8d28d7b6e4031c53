/**
 * The CLI's one warning format for Effect's own logs: `mcpctl: warning: …` on stderr, the format
 * of every other warning the CLI prints (and of the README), instead of the pretty logger's
 * `[19:08:46.517] WARN (#13): …`. Annotations (the server a log is about) follow in brackets.
 */
// @ts-nocheck

import { sanitize } from "@mcpctl/core/internal/Sanitize"
import * as Console from "effect/Console"
import * as Context from "effect/Context"
import * as DefaultServices from "effect/DefaultServices"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import * as FiberRefs from "effect/FiberRefs"
import * as HashMap from "effect/HashMap"
import * as HashSet from "effect/HashSet"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import type * as LogLevel from "effect/LogLevel"

/** The word a level prints as (pure). */
export const levelWord = (level: LogLevel.LogLevel): string =>
  level._tag === "Warning" ? "warning" : level._tag === "Fatal" ? "error" : level._tag.toLowerCase()

const text = (message: unknown): string =>
  (Array.isArray(message) ? message : [message]).map((m) => (typeof m === "string" ? m : m instanceof Error ? m.message : String(m))).join(" ")

/** One log line (pure): `mcpctl: LEVEL: MESSAGE` and `(key: value, …)` when annotated. */
export const formatLine = (level: LogLevel.LogLevel, message: unknown, annotations: ReadonlyArray<readonly [string, unknown]>): string => {
  const notes = annotations.map(([k, v]) => `${k}: ${String(v)}`).join(", ")
  return sanitize(`mcpctl: ${levelWord(level)}: ${text(message)}${notes === "" ? "" : ` (${notes})`}`)
}

/** Writes through the fiber's `Console` (`error`: stderr), so a swapped console receives the lines. */
const lineLogger = Logger.make(({ annotations, context, logLevel, message }) => {
  const services = FiberRefs.getOrDefault(context, DefaultServices.currentServices)
  Context.get(services, Console.Console).unsafe.error(formatLine(logLevel, message, [...HashMap.toEntries(annotations)]))
})

/** Effect's logs at `level` and above as `mcpctl: warning: …` lines on stderr; nothing on stdout. */
export const layer = (level: LogLevel.LogLevel): Layer.Layer<never> =>
  Layer.scopedDiscard(Effect.zipRight(
    Effect.locallyScopedWith(FiberRef.currentLoggers, (loggers) =>
      loggers.pipe(HashSet.remove(Logger.defaultLogger), HashSet.remove(Logger.prettyLoggerDefault), HashSet.add(lineLogger))),
    Effect.locallyScoped(FiberRef.currentMinimumLogLevel, level)
  ))
