/**
 * @mcpctl/core: the host's services as Effect layers, each importable on its own
 * (`@mcpctl/core/ConnectionPool`), or all together from here.
 */
export * as Auth from "./Auth.js"
export * as BinaryOutput from "./BinaryOutput.js"
export * as Config from "./Config.js"
export * as ConnectionPool from "./ConnectionPool.js"
export * as Content from "./Content.js"
export * as Errors from "./Errors.js"
export * as Naming from "./Naming.js"
export * as NeedsAuthCache from "./NeedsAuthCache.js"
export * as Permission from "./Permission.js"
export * as RemoteTransport from "./RemoteTransport.js"
export * as RequestErrors from "./RequestErrors.js"
export * as Resources from "./Resources.js"
export * as SettingsFile from "./SettingsFile.js"
export * as SettingsLoad from "./SettingsLoad.js"
export * as StdioProcess from "./StdioProcess.js"
export * as TokenStore from "./TokenStore.js"
export * as ToolRegistry from "./ToolRegistry.js"
export * as Transport from "./Transport.js"
export * as Redact from "./Redact.js"
export * as Gateway from "./Gateway.js"
