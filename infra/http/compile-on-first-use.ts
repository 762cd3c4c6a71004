/// Route schemas compiled when a route first needs them, not when it is registered.
///
/// Fastify compiles a serializer (fast-json-stringify) for every answer each route declares, and a
/// validator (TypeBox) for every part of its request, as the routes are registered. Tessera has
/// about 150 routes, most with several error answers. Compiled at start-up, their code held ~9 MB of
/// resident memory on PostgreSQL (7.4 MB for serializers, 1.8 MB for validators), most of it for
/// routes and answers a given deployment rarely or never sends. Compiled on first use, a schema
/// costs memory once it is used. The first request to use it pays the compile once (about a
/// millisecond).
///
/// Nothing compiles at start-up now, so a schema that cannot compile would fail at its first use.
/// `compile-on-first-use.int.spec.ts` compiles every route's schemas eagerly to catch that.

import buildFastJsonStringifyCompilers from '@fastify/fast-json-stringify-compiler'
import type { FastifySchemaCompiler, FastifyServerOptions } from 'fastify'

type SerializerFactory = NonNullable<
  NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildSerializer']
>
type Validator = ReturnType<FastifySchemaCompiler<unknown>>

/** A validator compiler whose validators are compiled on their first call. */
export const validatorsOnFirstUse =
  <T>(compile: FastifySchemaCompiler<T>): FastifySchemaCompiler<T> =>
  (route) => {
    let validate: Validator | undefined
    const validateOnFirstUse: Validator = (data: unknown) => {
      validate ??= compile(route)
      const result = validate(data)
      // Ajv-style validators answer `false` and leave their errors on themselves; Fastify reads
      // them from the function it was given. Copied only then, so a valid request pays nothing.
      if (result === false) validateOnFirstUse.errors = validate.errors
      return result
    }
    return validateOnFirstUse
  }

/** Fastify's own serializers (fast-json-stringify), each compiled on its first call. */
export const serializersOnFirstUse: SerializerFactory = (externalSchemas, options) => {
  const compile = buildFastJsonStringifyCompilers()(externalSchemas, options)
  const compileOnFirstUse: ReturnType<SerializerFactory> = (route) => {
    let serialize: ((data: unknown) => string) | undefined
    return (data) => {
      serialize ??= compile(route)
      return serialize(data)
    }
  }
  return compileOnFirstUse
}
