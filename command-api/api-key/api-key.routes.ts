/// POST /api-key/create, /api-key/update (a signed-in owner, or a backend over the server API with
/// the server-only properties), POST /api-key/delete (the owner) and POST /api-key/verify (server
/// API only). Shapes, codes and messages as better-auth's api-key plugin 1.7.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { AUTH_ERRORS } from '../../domain/errors.js'
import {
  SERVER_API_ERRORS,
  SERVER_API_SECURITY,
  type ServerKeyGuards,
  serverActor,
  serverCallerOf,
} from '../../http/guards/server-key.js'
import { ApiKeySchema, CreatedApiKeySchema } from '../../http/presenters/api-key-json.js'
import { authOf, sessionGuards } from '../../http/sessions/require-session.js'
import { FREE_FORM } from '../../infra/http/free-form-json.js'
import { errorResponses, SIGNED_IN_POST_ERRORS } from '../../infra/http/openapi.js'
import { originOf } from '../../infra/http/request-metadata.js'
import type { CommandContext } from '../context.js'
import { type ApiKeyCaller, createApiKey, deleteApiKey, updateApiKey } from './manage-api-keys.js'
import { verifyApiKey } from './verify-api-key.js'

const MAX_COUNT = 2_147_483_647
const Count = (minimum: number) => Type.Integer({ minimum, maximum: MAX_COUNT })
const Milliseconds = Type.Number({ minimum: 0, maximum: 1e15 })
const Permissions = Type.Record(Type.String({ maxLength: 256 }), Type.Array(Type.String({ maxLength: 256 })))
// Only the default configuration exists; naming it is allowed, naming another is refused.
const ConfigId = Type.Optional(Type.Literal('default'))

const CreateBody = Type.Object(
  {
    configId: ConfigId,
    name: Type.Optional(Type.String({ maxLength: 1024 })),
    expiresIn: Type.Optional(Type.Union([Type.Number({ minimum: 1, maximum: 1e12 }), Type.Null()])),
    prefix: Type.Optional(
      Type.String({
        maxLength: 1024,
        pattern: '^[a-zA-Z0-9_-]+$',
        errorMessage: 'Invalid prefix format, must be alphanumeric and contain only underscores and hyphens.',
      }),
    ),
    remaining: Type.Optional(Type.Union([Count(0), Type.Null()])),
    metadata: Type.Optional(Type.Unknown(FREE_FORM)),
    refillAmount: Type.Optional(Count(1)),
    refillInterval: Type.Optional(Milliseconds),
    rateLimitTimeWindow: Type.Optional(Milliseconds),
    rateLimitMax: Type.Optional(Count(0)),
    rateLimitEnabled: Type.Optional(Type.Boolean()),
    permissions: Type.Optional(Permissions),
    userId: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
    /** The key is the organization's (better-auth: a configuration that `references` organizations). */
    organizationId: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  },
  { additionalProperties: false },
)

const UpdateBody = Type.Object(
  {
    configId: ConfigId,
    keyId: Type.String({ maxLength: 256 }),
    userId: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
    name: Type.Optional(Type.String({ maxLength: 1024 })),
    enabled: Type.Optional(Type.Boolean()),
    remaining: Type.Optional(Count(1)),
    refillAmount: Type.Optional(Count(1)),
    refillInterval: Type.Optional(Milliseconds),
    metadata: Type.Optional(Type.Unknown(FREE_FORM)),
    expiresIn: Type.Optional(Type.Union([Type.Number({ minimum: 1, maximum: 1e12 }), Type.Null()])),
    rateLimitEnabled: Type.Optional(Type.Boolean()),
    rateLimitTimeWindow: Type.Optional(Milliseconds),
    rateLimitMax: Type.Optional(Count(0)),
    permissions: Type.Optional(Type.Union([Permissions, Type.Null()])),
  },
  { additionalProperties: false },
)

const DeleteBody = Type.Object(
  { configId: ConfigId, keyId: Type.String({ maxLength: 256 }) },
  { additionalProperties: false },
)

const VerifyBody = Type.Object(
  { configId: ConfigId, key: Type.String({ maxLength: 1024 }), permissions: Type.Optional(Permissions) },
  { additionalProperties: false },
)

const VerifyAnswerSchema = Type.Object({
  valid: Type.Boolean(),
  error: Type.Union([
    Type.Object({
      code: Type.String(),
      message: Type.String(),
      details: Type.Optional(Type.Object({ tryAgainIn: Type.Number() })),
    }),
    Type.Null(),
  ]),
  key: Type.Union([ApiKeySchema, Type.Null()]),
})

const USER_OR_SERVER_ERRORS = [
  ...SIGNED_IN_POST_ERRORS,
  'UNAUTHORIZED_SESSION',
  'INVALID_SERVER_KEY',
  'SERVER_KEY_FROM_BROWSER',
  'SERVER_ONLY_PROPERTY',
  'METADATA_DISABLED',
  'INVALID_METADATA_TYPE',
  'REFILL_AMOUNT_AND_INTERVAL_REQUIRED',
  'REFILL_INTERVAL_AND_AMOUNT_REQUIRED',
  'EXPIRES_IN_IS_TOO_SMALL',
  'EXPIRES_IN_IS_TOO_LARGE',
  'INVALID_NAME_LENGTH',
  'USER_NOT_MEMBER_OF_ORGANIZATION',
  'INSUFFICIENT_API_KEY_PERMISSIONS',
] as const

export const apiKeyCommandRoutes =
  (ctx: CommandContext & { serverApi: ServerKeyGuards }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { requireSession, optionalSession } = sessionGuards(ctx)

    /**
     * A backend with a server key acts for the user it names (`userId`); anyone else must be signed
     * in and may not name a user, not even themselves (better-auth: 401 UNAUTHORIZED_SESSION either
     * way).
     */
    const callerOf = async (
      request: FastifyRequest,
      reply: FastifyReply,
      userId: string | undefined,
    ): Promise<ApiKeyCaller> => {
      const server = await ctx.serverApi.optionalServerKey(request, reply)
      if (server) {
        if (userId === undefined) throw AUTH_ERRORS.error('UNAUTHORIZED_SESSION')
        return { kind: 'server', actor: serverActor(server), userId }
      }
      const found = await optionalSession(request)
      if (!found) throw AUTH_ERRORS.error('UNAUTHORIZED_SESSION')
      // Even one's own id: naming a user is the server's, as in better-auth.
      if (userId !== undefined) throw AUTH_ERRORS.error('UNAUTHORIZED_SESSION')
      return { kind: 'user', userId: found.user.id }
    }

    app.post(
      '/api-key/create',
      {
        schema: {
          summary: 'Create an API key (the whole key is in this answer only)',
          description:
            "Signed in: a key for yourself, or with `organizationId` the organization's (its creator role, or a role granting `apiKey: ['create']`). Server API (`x-tessera-server-key`): a key for `userId`, with the server-only properties (remaining, refill, rate limit, permissions).",
          tags: ['API keys'],
          security: [{ sessionCookie: [] }, ...SERVER_API_SECURITY],
          body: CreateBody,
          response: {
            ...errorResponses(...USER_OR_SERVER_ERRORS, 'INVALID_PREFIX_LENGTH', 'USER_NOT_FOUND'),
            200: CreatedApiKeySchema,
          },
        },
      },
      async (request, reply) => {
        const { userId, configId: _default, ...input } = request.body
        const caller = await callerOf(request, reply, userId)
        return createApiKey(ctx, originOf(request), caller, input)
      },
    )

    app.post(
      '/api-key/update',
      {
        schema: {
          summary: 'Change an API key (name, expiry, enabled; more over the server API)',
          tags: ['API keys'],
          security: [{ sessionCookie: [] }, ...SERVER_API_SECURITY],
          body: UpdateBody,
          response: {
            ...errorResponses(...USER_OR_SERVER_ERRORS, 'NO_VALUES_TO_UPDATE', 'KEY_NOT_FOUND'),
            200: ApiKeySchema,
          },
        },
      },
      async (request, reply) => {
        const { userId, configId: _default, ...input } = request.body
        const caller = await callerOf(request, reply, userId)
        return updateApiKey(ctx, originOf(request), caller, input)
      },
    )

    app.post(
      '/api-key/delete',
      {
        preHandler: requireSession,
        schema: {
          summary: "Delete one of your API keys, or an organization's you may manage",
          tags: ['API keys'],
          body: DeleteBody,
          response: {
            ...errorResponses(
              ...SIGNED_IN_POST_ERRORS,
              'KEY_NOT_FOUND',
              'USER_NOT_MEMBER_OF_ORGANIZATION',
              'INSUFFICIENT_API_KEY_PERMISSIONS',
            ),
            200: Type.Object({ success: Type.Boolean() }),
          },
        },
      },
      async (request) => {
        const { user } = authOf(request)
        await deleteApiKey(ctx, originOf(request), { kind: 'user', userId: user.id }, request.body.keyId)
        return { success: true }
      },
    )

    app.post(
      '/api-key/verify',
      {
        onRequest: ctx.serverApi.requireServerKey,
        schema: {
          summary: 'Verify an API key (server API)',
          description:
            "Answers `{ valid, error, key }`: a refused key is `valid: false` with the reason in `error` (INVALID_API_KEY, KEY_DISABLED, KEY_EXPIRED, USAGE_EXCEEDED, RATE_LIMITED with `details.tryAgainIn` in ms, KEY_NOT_FOUND for missing permissions), never an HTTP error. A successful verification takes one from `remaining` and counts against the key's rate limit.",
          tags: ['API keys'],
          security: SERVER_API_SECURITY,
          body: VerifyBody,
          response: { ...errorResponses(...SERVER_API_ERRORS), 200: VerifyAnswerSchema },
        },
      },
      async (request) => {
        const actor = serverActor(serverCallerOf(request))
        const { key, permissions } = request.body
        return verifyApiKey(ctx, originOf(request), actor, permissions ? { key, permissions } : { key })
      },
    )
  }
