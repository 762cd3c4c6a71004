// Prints README's tables of tessera.config.json options and of environment variables, made from
// their declarations (infra/config/feature-options.schema.ts, infra/config/environment.ts); with
// --write, puts each in README.md between its markers.
// Reads the build: `npm run docs:config` builds what is stale first, then writes README.
import { readFileSync, writeFileSync } from 'node:fs'

const { featureOptionsTable, withTable, ENVIRONMENT_TABLE } = await import(
  '../dist/infra/config/options-table.js'
)
const { environmentTable } = await import('../dist/infra/config/environment.js')
const readmePath = new URL('../README.md', import.meta.url)
const options = featureOptionsTable()
const environment = environmentTable()
if (process.argv.includes('--write')) {
  const readme = readFileSync(readmePath, 'utf8')
  writeFileSync(readmePath, withTable(withTable(readme, options), environment, ENVIRONMENT_TABLE))
  console.log('README.md: the tessera.config.json and environment tables are written.')
} else console.log(`${environment}\n\n${options}`)
