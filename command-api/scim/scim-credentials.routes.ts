/// Directory sync credentials over the API: an organization's owners and admins (or an operator with
/// a server key) mint, list and revoke the bearer tokens their identity provider provisions with.
/// better-auth 1.7.5 has these as server-only functions (`rotateSCIMManagedCredential`,
/// `revokeSCIMManagedCredential`, `listSCIMManagedConnections`); Tessera serves them on paths named
/// after them (a departure listed in the README).

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { AUTH_ERRORS } from '../../domain/errors.js'
import { SCIM_ERRORS, type ScimErrorCode } from '../../domain/scim/scim-errors.js'
import { type ServerKeyGuards, serverActor } from '../../http/guards/server-key.js'
import { sessionGuards } from '../../http/sessions/require-session.js'
import { SCIM_SCOPE_NAMES } from '../../infra/config/scim-options.js'
import { errorBody, errorResponses, SIGNED_IN_POST_ERRORS } from '../../infra/http/openapi.js'
import { originOf } from '../../infra/http/request-metadata.js'
import type { CommandContext } from '../context.js'
import {
  type CredentialCaller,
  listScimConnections,
  mintScimCredential,
  revokeScimCredential,
} from './scim-credentials.js'

const TAGS = ['SCIM']
const Strict = { additionalProperties: false } as const
const OrganizationId = Type.Optional(Type.String({ minLength: 1, maxLength: 256 }))
const Scope = Type.Union(SCIM_SCOPE_NAMES.map((scope) => Type.Literal(scope)))

const Credential = Type.Object({
  credentialId: Type.String(),
  status: Type.String(),
  scopes: Type.Array(Type.String()),
  expiresAt: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(),
  revokedAt: Type.Union([Type.String(), Type.Null()]),
})
const Connection = Type.Object({
  connectionId: Type.String(),
  provisioningDomainId: Type.String(),
  status: Type.String(),
})

/** Tessera's addition: what the connection provisioned (the portal's Directory sync). */
const Directory = Type.Object({
  lastSyncAt: Type.Union([Type.String(), Type.Null()]),
  provisioned: Type.Object({ total: Type.Integer(), active: Type.Integer() }),
  latestPeople: Type.Array(
    Type.Object({
      userId: Type.String(),
      name: Type.String(),
      email: Type.String(),
      active: Type.Boolean(),
      updatedAt: Type.String(),
    }),
  ),
})

const scimErrors = (...codes: ScimErrorCode[]) =>
  Object.fromEntries(
    codes.map((code) => [SCIM_ERRORS[code].status, errorBody(`\`${code}\`: ${SCIM_ERRORS[code].message}`)]),
  )

export const scimCredentialRoutes =
  (ctx: CommandContext & { serverApi: ServerKeyGuards }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { optionalSession } = sessionGuards(ctx)
    /** A server key (an operator), else a signed-in user; nobody else. */
    const callerOf = async (request: FastifyRequest, reply: FastifyReply): Promise<CredentialCaller> => {
      const server = await ctx.serverApi.optionalServerKey(request, reply)
      if (server) return { kind: 'server', actor: serverActor(server) }
      const found = await optionalSession(request)
      if (!found) throw AUTH_ERRORS.error('UNAUTHORIZED')
      return {
        kind: 'user',
        userId: found.user.id,
        activeOrganizationId: found.session.active_organization_id,
      }
    }
    const refusals = {
      ...errorResponses(...SIGNED_IN_POST_ERRORS, 'NO_ACTIVE_ORGANIZATION'),
      ...scimErrors('YOU_ARE_NOT_ALLOWED_TO_MANAGE_SCIM'),
    }

    app.post(
      '/scim/rotate-managed-credential',
      {
        schema: {
          summary: "Mint a SCIM bearer token for the organization's directory (shown once)",
          tags: TAGS,
          body: Type.Object(
            {
              organizationId: OrganizationId,
              scopes: Type.Optional(Type.Array(Scope, { minItems: 1, maxItems: 4, uniqueItems: true })),
              expiresAt: Type.Optional(Type.String({ format: 'date-time' })),
            },
            Strict,
          ),
          response: {
            ...refusals,
            ...scimErrors('SCIM_CREDENTIAL_LIMIT_REACHED'),
            200: Type.Object({ connection: Connection, credential: Credential, token: Type.String() }),
          },
        },
      },
      async (request, reply) =>
        mintScimCredential(ctx, originOf(request), await callerOf(request, reply), request.body),
    )

    app.post(
      '/scim/revoke-managed-credential',
      {
        schema: {
          summary: "Revoke one of the organization's SCIM bearer tokens (at once, on every instance)",
          tags: TAGS,
          body: Type.Object(
            { organizationId: OrganizationId, credentialId: Type.String({ minLength: 1, maxLength: 256 }) },
            Strict,
          ),
          response: {
            ...refusals,
            ...scimErrors('SCIM_CREDENTIAL_NOT_FOUND', 'SCIM_CREDENTIAL_ALREADY_REVOKED'),
            200: Type.Object({ credential: Credential }),
          },
        },
      },
      async (request, reply) =>
        revokeScimCredential(ctx, originOf(request), await callerOf(request, reply), request.body),
    )

    app.get(
      '/scim/list-managed-connections',
      {
        schema: {
          summary:
            "The organization's directory connection, its tokens (never a token itself) and what it provisioned",
          tags: TAGS,
          querystring: Type.Object({ organizationId: OrganizationId }),
          response: {
            ...errorResponses('UNAUTHORIZED', 'NO_ACTIVE_ORGANIZATION', 'TOO_MANY_REQUESTS'),
            ...scimErrors('YOU_ARE_NOT_ALLOWED_TO_MANAGE_SCIM'),
            200: Type.Object({
              connections: Type.Array(
                Type.Object({
                  ...Connection.properties,
                  credentials: Type.Array(Credential),
                  ...Directory.properties,
                }),
              ),
            }),
          },
        },
      },
      async (request, reply) => listScimConnections(ctx, await callerOf(request, reply), request.query),
    )
  }
