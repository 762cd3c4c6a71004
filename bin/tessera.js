#!/usr/bin/env node
// The `tessera` command: builds what is out of date, then runs the compiled CLI.
await import('../scripts/ensure-built.mjs')
await import('../dist/app/cli/main.js')
