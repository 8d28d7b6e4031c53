// @ts-nocheck
// Types of relay.mjs for the CLI's TypeScript (commands/daemon.ts shares its checks).

/** Why the daemon's files are not to be trusted, `{ absent: true }` when there is no daemon, or its token. */
export declare const untrusted: (
  dir: string,
  socketFile: string,
  tokenFile: string
) => string | { readonly absent: true; readonly token?: undefined } | { readonly token: string; readonly absent?: undefined }

/** Runs `args` through the daemon: true when it ran there (process.exitCode set), false to run in-process. */
export declare const relay: (args: ReadonlyArray<string>) => Promise<boolean>
