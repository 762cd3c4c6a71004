/// README's tables of `tessera.config.json` options, written from their schemas
/// (feature-options.schema.ts), and of environment variables (environment.ts): `node scripts/config-table.mjs --write` puts it between the markers,
/// and options-table.unit.spec.ts fails when README's table and the schemas differ.

import { FEATURE_OPTION_SCHEMAS } from './feature-options.schema.js'

export const TABLE_START =
  '<!-- feature-options:start (written from infra/config/feature-options.schema.ts by `node scripts/config-table.mjs --write`) -->'
export const TABLE_END = '<!-- feature-options:end -->'

export type TableMarkers = { start: string; end: string }
const FEATURE_OPTIONS: TableMarkers = { start: TABLE_START, end: TABLE_END }

/** README's table of environment variables (environment.ts) sits between these. */
export const ENVIRONMENT_TABLE: TableMarkers = {
  start:
    '<!-- environment:start (written from infra/config/environment.ts by `node scripts/config-table.mjs --write`) -->',
  end: '<!-- environment:end -->',
}

type JsonSchema = {
  type?: string
  minimum?: number
  pattern?: string
  default?: unknown
  description?: string
  anyOf?: JsonSchema[]
  const?: string
  items?: JsonSchema
  properties?: Record<string, JsonSchema>
}

const typeOf = (schema: JsonSchema): string => {
  if (schema.type === 'boolean') return 'true or false'
  if (schema.type === 'integer') return `integer ≥ ${schema.minimum ?? 0}`
  if (schema.type === 'string') return 'text'
  if (schema.type === 'array') return schema.items?.pattern ? 'list of ids' : 'list of texts'
  const variants = schema.anyOf ?? []
  if (variants.some((variant) => variant.type === 'null')) return 'integer ≥ 1 or null'
  return `one of ${variants.map((variant) => `\`"${variant.const}"\``).join(', ')}`
}

const cell = (text: string) => text.replaceAll('|', '\\|')

const rowsOf = (path: string, schema: JsonSchema): string[] =>
  schema.type === 'object'
    ? Object.entries(schema.properties ?? {}).flatMap(([key, child]) => rowsOf(`${path}.${key}`, child))
    : [
        `| \`${path}\` | ${typeOf(schema)} | \`${cell(JSON.stringify(schema.default))}\` | ${cell(schema.description ?? '')} |`,
      ]

/** The table's lines, header included. */
export const featureOptionsTable = (): string =>
  [
    '| option | type | default | meaning |',
    '|---|---|---|---|',
    ...Object.entries(FEATURE_OPTION_SCHEMAS).flatMap(([name, schema]) => rowsOf(name, schema as JsonSchema)),
  ].join('\n')

/** What README holds between the markers, or undefined when a marker is missing. */
export const tableIn = (readme: string, markers = FEATURE_OPTIONS): string | undefined => {
  const start = readme.indexOf(markers.start)
  const end = readme.indexOf(markers.end)
  if (start === -1 || end < start) return undefined
  return readme.slice(start + markers.start.length, end).trim()
}

/** README with the table between the markers replaced by `table`. */
export const withTable = (readme: string, table: string, markers = FEATURE_OPTIONS): string => {
  const start = readme.indexOf(markers.start)
  const end = readme.indexOf(markers.end)
  if (start === -1 || end < start)
    throw new Error(`README.md has no ${markers.start} … ${markers.end} markers`)
  return `${readme.slice(0, start + markers.start.length)}\n${table}\n${readme.slice(end)}`
}
