/** @mcpctl/core: every public module as a namespace. Import a module by its own path (`@mcpctl/core/ToolRegistry`) to load only what you use. */
// @ts-nocheck

export * as ConnectionPool from "./pool/ConnectionPool.js"
export * as ContentItem from "./content/ContentItem.js"
export * as Elicitation from "./elicitation/Elicitation.js"
export * as Errors from "./Errors.js"
export * as Gateway from "./gateway/Gateway.js"
export * as Host from "./host/Host.js"
export * as McpConfig from "./config/McpConfig.js"
export * as Permission from "./permission/Permission.js"
export * as Pins from "./catalog/Pins.js"
export * as Resources from "./catalog/Resources.js"
export * as ServerConfig from "./config/ServerConfig.js"
export * as SignIn from "./auth/SignIn.js"
export * as Tasks from "./catalog/Tasks.js"
export * as ToolRegistry from "./catalog/ToolRegistry.js"
export * as Transport from "./transport/Transport.js"
