/**
 * Serving the gateway: on stdin/stdout in the era the client opens with, or as Streamable HTTP
 * (gatewayHttp.ts) with one gateway server per legacy session or per modern request.
 */
import { serveStdio as serveStdioEras } from "@modelcontextprotocol/server/stdio"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as ExecutionStrategy from "effect/ExecutionStrategy"
import * as Exit from "effect/Exit"
import * as Runtime from "effect/Runtime"
import * as Scope from "effect/Scope"
import { ToolRegistry } from "../../catalog/ToolRegistry.js"
import { type HttpServeOptions, serveHttp } from "./gatewayHttp.js"
import { type GatewayOptions, type GatewayRequirements, makeGateway, watchCatalog } from "./GatewayServer.js"
import { headerParams } from "./ParamHeaderCheck.js"

/**
 * Serves Streamable HTTP (gatewayHttp.ts): a gateway server per legacy session, one per
 * stateless request, the catalogue watched for the modern leg's streams.
 */
export const serveGatewayHttp = (options: HttpServeOptions & GatewayOptions) =>
  serveHttp(options, {
    session: makeGateway(options),
    request: Effect.scoped(makeGateway({ ...options, pushChanges: false })),
    watch: watchCatalog,
    paramHeaders: (name) =>
      Effect.flatMap(ToolRegistry, (registry) =>
        registry.resolve(name).pipe(
          // With upstream names the client sends the server's own name.
          Effect.orElse(() =>
            Effect.flatMap(registry.list(), ({ tools }) => {
              const named = tools.filter((t) => t.tool === name)
              return options.names === "upstream" && named.length === 1 ? Effect.succeed(named[0]!) : Effect.fail(name)
            })
          )
        )).pipe(
        Effect.map((tool) => headerParams(tool.inputSchema)),
        Effect.orElseSucceed(() => [])
      )
  })

/**
 * Serves stdin/stdout in the era the client opens with (the SDK's `serveStdio` decides): a
 * `server/discover` or a request carrying the 2026-07-28 `_meta` envelope pins the connection
 * modern (catalogue changes on `subscriptions/listen`), an `initialize` pins it legacy
 * (`list_changed` as before). Each gateway instance the SDK asks for (a discarded probe one too)
 * has its own scope, closed with it.
 */
export const serveStdio = (options: GatewayOptions) => Effect.gen(function*() {
  const parent = yield* Effect.scope
  const runtime = yield* Effect.runtime<GatewayRequirements>()
  const instance = Effect.gen(function*() {
    const scope = yield* Scope.fork(parent, ExecutionStrategy.sequential)
    const server = yield* makeGateway(options).pipe(Scope.extend(scope))
    server.onclose = () => void Runtime.runPromise(runtime)(Scope.close(scope, Exit.void)).catch(() => undefined)
    return server
  })
  // Listening before anything else runs: an end of input must not slip past unseen.
  const ended = yield* Deferred.make<void>()
  const end = () => Deferred.unsafeDone(ended, Exit.void)
  yield* Effect.acquireRelease(
    Effect.sync(() => {
      process.stdin.once("end", end)
      process.stdin.once("close", end)
    }),
    () =>
      Effect.sync(() => {
        process.stdin.off("end", end)
        process.stdin.off("close", end)
      })
  )
  yield* Effect.acquireRelease(
    Effect.sync(() => serveStdioEras(() => Runtime.runPromise(runtime)(instance))),
    (handle) => Effect.promise(() => handle.close().catch(() => undefined))
  )
  return { address: "stdio", closed: Deferred.await(ended) as Effect.Effect<void> }
})
