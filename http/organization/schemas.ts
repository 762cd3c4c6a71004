/// The organization routes' schema atoms, declared once for both sides (command-api's POST routes and
/// query-api's GET routes): ids, names, slugs, roles and permission maps with better-auth's shapes.

import { type TSchema, Type } from 'typebox'
import { FREE_FORM } from '../../infra/http/free-form-json.js'

export const TAGS = ['Organization']
export const Strict = { additionalProperties: false } as const
export const Id = Type.String({ minLength: 1, maxLength: 256 })
export const Name = Type.String({ minLength: 1, maxLength: 256 })
export const Slug = Type.String({ minLength: 1, maxLength: 256 })
export const Logo = Type.Union([Type.String({ maxLength: 2048 }), Type.Null()])
export const Metadata = Type.Record(Type.String(), Type.Unknown(), FREE_FORM)
/** One role, or several (stored comma-separated). */
export const Role = Type.Union([
  Type.String({ maxLength: 256 }),
  Type.Array(Type.String({ maxLength: 256 }), { maxItems: 16 }),
])
/** `{resource: [action, …]}`, as has-permission and custom roles take it. */
export const Permissions = Type.Record(
  Type.String({ maxLength: 64 }),
  Type.Array(Type.String({ maxLength: 64 }), { maxItems: 32 }),
)
export const Message = Type.Object({ message: Type.String() })
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()])
