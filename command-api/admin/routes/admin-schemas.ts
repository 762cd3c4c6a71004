/// What the admin routes share: their context, body atoms with better-auth's limits, and the
/// answers every admin route may give.

import { Type } from 'typebox'
import type { ServerKeyCheck } from '../../../http/guards/admin-caller.js'
import { UserSchema } from '../../../http/presenters/presenters.js'
import { POST_ERRORS } from '../../../infra/http/openapi.js'
import type { CommandContext } from '../../context.js'

export type AdminRouteContext = CommandContext & { serverApi?: ServerKeyCheck }

export const UserId = Type.String({ minLength: 1, maxLength: 256 })
export const RoleValue = Type.Union([
  Type.String({ maxLength: 256 }),
  Type.Array(Type.String({ maxLength: 256 }), { maxItems: 20 }),
])
export const body = <T extends Parameters<typeof Type.Object>[0]>(properties: T) =>
  Type.Object(properties, { additionalProperties: false })
export const UserAnswer = Type.Object({ user: UserSchema })
export const SuccessSchema = Type.Object({ success: Type.Boolean() })
export const Permissions = Type.Record(
  Type.String({ maxLength: 64 }),
  Type.Array(Type.String({ maxLength: 64 }), { maxItems: 32 }),
)

export const ADMIN_ERRORS = [...POST_ERRORS, 'UNAUTHORIZED'] as const
