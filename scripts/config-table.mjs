// Prints README's table of tessera.config.json options, made from their schemas
// (infra/config/feature-options.schema.ts); with --write, puts it in README.md between its markers.
// Reads the build: `npm run docs:config` builds what is stale first, then writes README.
import { readFileSync, writeFileSync } from 'node:fs'

const { featureOptionsTable, withTable } = await import('../dist/infra/config/options-table.js')
const readmePath = new URL('../README.md', import.meta.url)
const table = featureOptionsTable()
if (process.argv.includes('--write')) {
  writeFileSync(readmePath, withTable(readFileSync(readmePath, 'utf8'), table))
  console.log('README.md: the tessera.config.json table is written.')
} else console.log(table)
