import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadConfig } from './config.js'
import { parseFeatureOptions } from './config-file.js'
import { environmentTable, fallbackOf } from './environment.js'
import { FEATURE_OPTION_SCHEMAS } from './feature-options.schema.js'
import {
  ENVIRONMENT_TABLE,
  featureOptionsTable,
  TABLE_END,
  TABLE_START,
  tableIn,
  withTable,
} from './options-table.js'

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')

describe("README's table of tessera.config.json options", () => {
  it('is the one the schemas write (run `node scripts/config-table.mjs --write` after a build)', () => {
    expect(tableIn(README)).toBe(featureOptionsTable())
  })

  it('has a row for every option the file reads by schema, with its default as parsed', () => {
    const defaults = parseFeatureOptions({})
    const rows = featureOptionsTable().split('\n')
    expect(rows).toContain(
      '| `session.expiresIn` | integer ≥ 1 | `604800` | how long a session lasts; using it extends it (see `updateAge`) |',
    )
    for (const name of Object.keys(FEATURE_OPTION_SCHEMAS) as (keyof typeof FEATURE_OPTION_SCHEMAS)[]) {
      const parsed = defaults[name] as Record<string, unknown>
      for (const [key, value] of Object.entries(parsed)) {
        if (typeof value === 'object' && value !== null && !Array.isArray(value)) continue
        if (name === 'oauthProvider' && key === 'scopes') continue // the standard scopes are added to these
        const row = rows.find((line) => line.startsWith(`| \`${name}.${key}\` |`))
        expect(row, `${name}.${key}`).toContain(`| \`${JSON.stringify(value).replaceAll('|', '\\|')}\` |`)
      }
    }
  })

  it('is found and replaced between its markers only', () => {
    const readme = `intro\n${TABLE_START}\nold\n${TABLE_END}\noutro`
    expect(tableIn(readme)).toBe('old')
    expect(withTable(readme, '| new |')).toBe(`intro\n${TABLE_START}\n| new |\n${TABLE_END}\noutro`)
    expect(tableIn('no markers')).toBeUndefined()
  })
})

describe("README's table of environment variables", () => {
  it('is the one environment.ts writes (run `npm run docs:config`)', () => {
    expect(tableIn(README, ENVIRONMENT_TABLE)).toBe(environmentTable())
  })

  it('shows each fallback the parser uses as the default', () => {
    const rows = environmentTable().split('\n')
    expect(rows).toContain('| `PORT`, `HOST` | where the server listens | `3000`, `127.0.0.1` |')
    const config = loadConfig({}, { cwd: mkdtempSync(join(tmpdir(), 'tessera-env-')) })
    expect(config.port).toBe(Number(fallbackOf('PORT')))
    expect(config.host).toBe(fallbackOf('HOST'))
    expect(config.logLevel).toBe(fallbackOf('LOG_LEVEL'))
    expect(config.consistency.readYourWritesMs).toBe(Number(fallbackOf('READ_YOUR_WRITES_TIMEOUT_MS')))
    expect(config.mail.mailFrom).toBe(fallbackOf('MAIL_FROM'))
    expect(rows.find((row) => row.startsWith('| `READ_YOUR_WRITES_TIMEOUT_MS` |'))).toContain('| `5000` |')
  })
})
