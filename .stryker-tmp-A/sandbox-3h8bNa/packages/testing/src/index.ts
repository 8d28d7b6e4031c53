// @ts-nocheck
export * as InMemory from "./InMemory.js"
export * as Faulty from "./Faulty.js"
export * as Everything from "./Everything.js"
export * as Host from "./Host.js"
export * as Processes from "./Processes.js"
export * as CountingProxy from "./CountingProxy.js"
export * as Fixtures from "./Fixtures.js"
