/// README's table of `tessera.config.json` options, written from their schemas
/// (feature-options.schema.ts): `node scripts/config-table.mjs --write` puts it between the markers,
/// and options-table.unit.spec.ts fails when README's table and the schemas differ.

import { FEATURE_OPTION_SCHEMAS } from './feature-options.schema.js'

export const TABLE_START =
  '<!-- feature-options:start (written from infra/config/feature-options.schema.ts by `node scripts/config-table.mjs --write`) -->'
export const TABLE_END = '<!-- feature-options:end -->'

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
export const tableIn = (readme: string): string | undefined => {
  const start = readme.indexOf(TABLE_START)
  const end = readme.indexOf(TABLE_END)
  if (start === -1 || end < start) return undefined
  return readme.slice(start + TABLE_START.length, end).trim()
}

/** README with the table between the markers replaced by `table`. */
export const withTable = (readme: string, table: string): string => {
  const start = readme.indexOf(TABLE_START)
  const end = readme.indexOf(TABLE_END)
  if (start === -1 || end < start) throw new Error(`README.md has no ${TABLE_START} … ${TABLE_END} markers`)
  return `${readme.slice(0, start + TABLE_START.length)}\n${table}\n${readme.slice(end)}`
}
