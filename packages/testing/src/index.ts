export * as InMemory from "./InMemory.js"
