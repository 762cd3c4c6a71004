/// How an option of `tessera.config.json` is spelled once: a TypeBox schema gives its type, its
/// default and its description. `readOptions` reads a section of the file by its schema (through
/// `Section`, whose messages name the bad key), and `options-table.ts` writes README's table from
/// the same schemas, so the parser, the defaults and the documentation cannot drift apart.

import { type Static, type TObject, type TSchema, Type } from 'typebox'
import type { Section } from './config-section.js'

export const flag = (fallback: boolean, description: string) =>
  Type.Boolean({ default: fallback, description })

/** A whole number from `minimum` (1 unless said). */
export const whole = (fallback: number, description: string, minimum: 0 | 1 = 1) =>
  Type.Integer({ minimum, default: fallback, description })

/** A positive whole number, or null for none (no limit, no expiry). */
export const limit = (fallback: number | null, description: string) =>
  Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { default: fallback, description })

export const choice = <const Value extends string>(
  values: readonly Value[],
  fallback: NoInfer<Value>,
  description: string,
) =>
  Type.Union(
    values.map((value) => Type.Literal(value)),
    { default: fallback, description },
  )

export const text = (fallback: string, description: string) =>
  Type.String({ minLength: 1, default: fallback, description })

export const texts = (fallback: readonly string[], description: string) =>
  Type.Array(Type.String({ minLength: 1 }), { default: [...fallback], description })

/** Lowercase ids (letters, digits, - and _), none by default. */
export const ids = (description: string) =>
  Type.Array(Type.String({ pattern: '^[a-z0-9][a-z0-9_-]*$' }), { default: [], description })

export const group = <Properties extends Record<string, TSchema>>(properties: Properties, description = '') =>
  Type.Object(properties, { description })

type JsonSchema = {
  type?: string
  minimum?: number
  default?: unknown
  anyOf?: JsonSchema[]
  const?: string
  items?: JsonSchema
  properties?: Record<string, JsonSchema>
}

/** The value of one key as its schema says, or its default (or `fallback`, when given). */
const readValue = (section: Section, key: string, schema: JsonSchema, fallback: unknown): unknown => {
  if (schema.type === 'object') return readGroup(section.section(key), schema, {})
  if (schema.type === 'boolean') return section.boolean(key, fallback as boolean)
  if (schema.type === 'integer') return section.integer(key, fallback as number, schema.minimum === 0 ? 0 : 1)
  if (schema.type === 'string') return section.text(key, fallback as string)
  if (schema.type === 'array')
    return schema.items?.type === 'string' && 'pattern' in schema.items
      ? section.idList(key)
      : section.textList(key, fallback as string[])
  const variants = schema.anyOf ?? []
  if (variants.some((variant) => variant.type === 'null'))
    return section.integerOrNull(key, fallback as number | null)
  const values = variants.map((variant) => variant.const).filter((value) => value !== undefined)
  if (values.length === variants.length && values.length > 0)
    return section.oneOf(key, values, fallback as string)
  throw new Error(`option ${key}: a schema readOptions cannot read`)
}

const readGroup = (section: Section, schema: JsonSchema, fallbacks: Record<string, unknown>): unknown => {
  const result: Record<string, unknown> = {}
  for (const [key, property] of Object.entries(schema.properties ?? {}))
    result[key] = readValue(section, key, property, key in fallbacks ? fallbacks[key] : property.default)
  return section.done(result)
}

/**
 * Reads `section` by `schema`: every key checked, every missing one given its default, unknown
 * keys refused. `fallbacks` replace defaults that depend on the file (e.g. on once a section is there).
 */
export const readOptions = <Schema extends TObject>(
  section: Section,
  schema: Schema,
  fallbacks: Partial<Static<Schema>> = {},
): Static<Schema> => readGroup(section, schema as JsonSchema, fallbacks) as Static<Schema>
