/**
 * Absolute paths of the fixture MCP servers, so tests in any package can spawn them with `node`
 * (or `sh`) without knowing where this package lives on disk.
 */
import { fileURLToPath } from "node:url"

/**
 * A well-behaved stdio MCP server (echo, add, slow, fail, big, destructive_thing, crash; a resource, a
 * prompt). Misbehaviour on request, as argv or in env `MCPCTL_ECHO_ARGS` (space-separated):
 * `--noise`, `--stderr TEXT`, `--fail-start`, `--never-initialize`; `--cancellations` adds a
 * `cancellations` tool telling what the server saw of cancelled `slow` calls.
 */
export const echoServer: string = fileURLToPath(new URL("./fixtures/echo-server.mjs", import.meta.url))

/**
 * A stdio server whose tools are what a JSON file says (`--tools FILE`), read again at every
 * `tools/list`: definitions can change between runs, and under a running host (it watches the
 * file and sends `notifications/tools/list_changed`).
 */
export const toolsServer: string = fileURLToPath(new URL("./fixtures/tools-server.mjs", import.meta.url))

/** A server that ignores SIGINT/SIGTERM/SIGHUP and stdin EOF, with a grandchild that does the same. */
export const stubbornServer: string = fileURLToPath(new URL("./fixtures/stubborn-server.mjs", import.meta.url))

/** `sh` wrapper around the stubborn server (sh → node → node), itself ignoring INT and TERM. */
export const stubbornWrapper: string = fileURLToPath(new URL("./fixtures/stubborn-wrapper.sh", import.meta.url))
