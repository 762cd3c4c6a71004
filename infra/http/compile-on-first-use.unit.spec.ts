/// Schemas are compiled on a route's first use, once, and the compiled code answers as Fastify's own
/// would have.

import { TypeBoxValidatorCompiler } from '@fastify/type-provider-typebox'
import type { FastifySchemaCompiler } from 'fastify'
import { Type } from 'typebox'
import { describe, expect, it, vi } from 'vitest'
import { serializersOnFirstUse, validatorsOnFirstUse } from './compile-on-first-use.js'

const route = (schema: unknown) => ({ schema, method: 'GET', url: '/x', httpStatus: '200' })

describe('validatorsOnFirstUse', () => {
  it('compiles a validator at its first call, not when the route is registered, and only once', () => {
    const compile = vi.fn(TypeBoxValidatorCompiler)
    const validate = validatorsOnFirstUse(compile)({
      schema: Type.Object({ name: Type.String() }),
      method: 'POST',
      url: '/x',
      httpPart: 'body',
    })
    expect(compile).not.toHaveBeenCalled()

    expect(validate({ name: 'Ada' })).toEqual({ value: { name: 'Ada' } })
    expect(validate({ name: 1 })).toMatchObject({
      error: [expect.objectContaining({ instancePath: '/name' })],
    })
    expect(compile).toHaveBeenCalledTimes(1)
  })

  it('passes on the errors an Ajv-style validator leaves on itself when it answers false', () => {
    const errors = [
      { keyword: 'type', instancePath: '/name', schemaPath: '#/type', params: {}, message: 'no' },
    ]
    const ajvStyle: FastifySchemaCompiler<unknown> = () =>
      Object.assign((data: unknown) => data === 'ok', { errors })
    const validate = validatorsOnFirstUse(ajvStyle)(route({ type: 'string' }))

    expect(validate('not ok')).toBe(false)
    expect(validate.errors).toBe(errors)
  })
})

describe('serializersOnFirstUse', () => {
  const serializerFor = (schema: unknown) => serializersOnFirstUse(undefined, undefined)(route(schema))

  it("serializes as fast-json-stringify does: only the schema's properties, in the schema's types", () => {
    const serialize = serializerFor({
      type: 'object',
      properties: { id: { type: 'string' }, count: { type: 'integer' } },
    })
    expect(serialize({ id: 7, count: '3', token: 'secret' })).toBe('{"id":"7","count":3}')
  })

  it('does not compile until the first answer: a broken schema fails then, not at registration', () => {
    const broken = { type: 'object', properties: { a: { $ref: '#/missing' } } }
    const serialize = serializerFor(broken)
    expect(() => serialize({ a: 1 })).toThrow(/missing/)
  })
})
