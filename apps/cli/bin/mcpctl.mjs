#!/usr/bin/env node
// Entry point of the bundled CLI (built by `npm run build`, which `npm ci` runs via `prepare`).
import "./mcpctl.js"
