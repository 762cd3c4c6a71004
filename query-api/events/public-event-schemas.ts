/// The published shape of the public events (OpenAPI): one payload schema per public type, built
/// from the catalogue's field lists, so a new catalogue entry is documented without more code.
/// Every payload field is optional: personal fields go once their subject is erased.

import { type TSchema, Type } from 'typebox'
import { FIELD_TYPES, PUBLIC_EVENTS, publicEventTypes } from '../../domain/public-events/catalogue.js'

const fieldSchema = (field: string): TSchema => {
  const kind = FIELD_TYPES[field]
  if (kind === 'boolean') return Type.Boolean()
  if (kind === 'number') return Type.Number()
  return Type.Union([Type.String(), Type.Null()])
}

const payloadOf = (type: string) => {
  const fields = [
    ...new Set(PUBLIC_EVENTS.filter((entry) => entry.type === type).flatMap((entry) => entry.fields)),
  ]
  return Type.Object(Object.fromEntries(fields.map((field) => [field, Type.Optional(fieldSchema(field))])))
}

/** One event of the feed (and the body of a webhook delivery). */
export const PublicEventSchema: TSchema = Type.Union(
  publicEventTypes().map((type) =>
    Type.Object(
      {
        id: Type.String({ description: 'The event id; the `webhook-id` of its deliveries' }),
        type: Type.Literal(type),
        occurredAt: Type.String({ format: 'date-time' }),
        subject: Type.Union([Type.String(), Type.Null()]),
        data: payloadOf(type),
      },
      { title: type },
    ),
  ),
)
