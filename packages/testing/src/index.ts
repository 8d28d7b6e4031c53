export * as InMemory from "./InMemory.js"
export * as Faulty from "./Faulty.js"
export * as Everything from "./Everything.js"
export * as Host from "./Host.js"
