/// Bounds on free-form JSON: the values a client stores as it likes (organization and API-key
/// `metadata`, an operator's `data` for a user). Their schemas cannot say what is inside, so without
/// a bound a body nested thousands of levels deep, or holding a NUL past where the NUL guard looks,
/// reaches the log or the database and answers 500. A route marks such a field with `freeForm()`;
/// this hook refuses a marked value deeper than 8 levels or larger than 8 KB (400 naming the
/// field), and any body at all nested deeper than the deepest the routes accept.

import type { preValidationHookHandler } from 'fastify'
import { AUTH_ERRORS } from '../../domain/errors.js'
import { DomainError } from '../../domain/shared/errors.js'

export const FREE_FORM_MAX_DEPTH = 8
export const FREE_FORM_MAX_BYTES = 8 * 1024
/** Deeper than any fixed-shape body, including free-form fields at their deepest. */
const BODY_MAX_DEPTH = 32

const MARK = 'x-free-form'

/** Schema options that mark a field as free-form JSON: `Type.Unknown(FREE_FORM)`. */
export const FREE_FORM = { [MARK]: true } as const

type SchemaNode = {
  [MARK]?: boolean
  properties?: Record<string, SchemaNode>
  anyOf?: SchemaNode[]
  oneOf?: SchemaNode[]
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null

/** Whether `value` nests objects or arrays deeper than `limit` (walked without recursion). */
export const deeperThan = (value: unknown, limit: number): boolean => {
  const stack: [unknown, number][] = [[value, isObject(value) ? 1 : 0]]
  while (stack.length > 0) {
    const [item, depth] = stack.pop() as [unknown, number]
    if (depth > limit) return true
    if (!isObject(item)) continue
    for (const child of Object.values(item)) if (isObject(child)) stack.push([child, depth + 1])
  }
  return false
}

/** Every value in `body` that its schema marks free-form, with its path. */
const freeFormValues = (
  schema: SchemaNode | undefined,
  value: unknown,
  path: string[],
): [string, unknown][] => {
  if (!schema || value === undefined) return []
  if (schema[MARK]) return [[path.join('.'), value]]
  const branches = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]
  const found = branches.flatMap((branch) => freeFormValues(branch, value, path))
  if (schema.properties && isObject(value))
    for (const [key, property] of Object.entries(schema.properties))
      found.push(...freeFormValues(property, value[key], [...path, key]))
  return found
}

const refuse = (field: string, reason: string) =>
  new DomainError(
    AUTH_ERRORS.VALIDATION_ERROR.code,
    AUTH_ERRORS.VALIDATION_ERROR.status,
    `${AUTH_ERRORS.VALIDATION_ERROR.message}: [${field}] ${reason}`,
  )

const check = (field: string, value: unknown) => {
  if (deeperThan(value, FREE_FORM_MAX_DEPTH))
    throw refuse(field, `must be nested at most ${FREE_FORM_MAX_DEPTH} levels deep`)
  if (Buffer.byteLength(JSON.stringify(value) ?? '') > FREE_FORM_MAX_BYTES)
    throw refuse(field, `must be at most ${FREE_FORM_MAX_BYTES} bytes as JSON`)
}

/** Whether a schema marks anything free-form; most bodies' schemas do not, and are not walked. */
const marks = (schema: SchemaNode | undefined): boolean => {
  if (!schema) return false
  if (schema[MARK]) return true
  if ([...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].some(marks)) return true
  return Object.values(schema.properties ?? {}).some(marks)
}

// Route schemas are made once and kept: each is searched for marks once.
const marked = new WeakMap<object, boolean>()
const marksOf = (schema: SchemaNode | undefined): boolean => {
  if (!schema) return false
  let known = marked.get(schema)
  if (known === undefined) {
    known = marks(schema)
    marked.set(schema, known)
  }
  return known
}

// A callback hook: it runs on every API request, and an async one costs a promise and a microtask turn.
export const freeFormJsonHook: preValidationHookHandler = (request, _reply, done) => {
  const { body } = request
  if (body === undefined) return done()
  const schema = request.routeOptions.schema?.body as SchemaNode | undefined
  if (marksOf(schema))
    for (const [path, value] of freeFormValues(schema, body, [])) check(`body.${path}`, value)
  if (deeperThan(body, BODY_MAX_DEPTH))
    throw refuse('body', `must be nested at most ${BODY_MAX_DEPTH} levels deep`)
  done()
}
