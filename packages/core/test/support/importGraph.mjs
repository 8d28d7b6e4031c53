// Prints madge's import graph of the folders given as arguments, as JSON on stdout:
// `{ "obj": { file: [imports…] }, "circular": [[file…]…] }`, paths relative to their common base.
// Architecture.test.ts runs it as a child process: madge walks the tree synchronously (tens of
// seconds on a loaded machine), and a test worker blocked that long misses vitest's 60 s RPC
// deadline ("Timeout calling onTaskUpdate"), which fails the whole run.
import madge from "madge"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..")
const graph = await madge(process.argv.slice(2), {
  fileExtensions: ["ts"],
  tsConfig: path.join(root, "tsconfig.json"),
  detectiveOptions: { ts: { skipTypeImports: false } }
})
process.stdout.write(JSON.stringify({ obj: graph.obj(), circular: graph.circular() }))
