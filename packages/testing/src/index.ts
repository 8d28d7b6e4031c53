export * as InMemory from "./InMemory.js"
export * as Faulty from "./Faulty.js"
