/// The request and answer schemas of the social routes (better-auth's shapes), shared by their files.

import { Type } from 'typebox'
import { UserSchema } from '../../../http/presenters/presenters.js'
import { ANY_ROUTE_ERRORS } from '../../../infra/http/openapi.js'

export const IdTokenSchema = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 16_384 }),
    nonce: Type.Optional(Type.String({ maxLength: 512 })),
    accessToken: Type.Optional(Type.String({ maxLength: 16_384 })),
    refreshToken: Type.Optional(Type.String({ maxLength: 16_384 })),
    expiresAt: Type.Optional(Type.Number()),
  },
  { additionalProperties: false },
)

export const Url = Type.String({ maxLength: 2048 })
export const ProviderId = Type.String({ minLength: 1, maxLength: 64 })
export const Scopes = Type.Array(Type.String({ minLength: 1, maxLength: 256 }), { maxItems: 50 })

export const SignInSocialBody = Type.Object(
  {
    provider: ProviderId,
    callbackURL: Type.Optional(Url),
    newUserCallbackURL: Type.Optional(Url),
    errorCallbackURL: Type.Optional(Url),
    disableRedirect: Type.Optional(Type.Boolean()),
    idToken: Type.Optional(IdTokenSchema),
    scopes: Type.Optional(Scopes),
    requestSignUp: Type.Optional(Type.Boolean()),
    loginHint: Type.Optional(Type.String({ maxLength: 512 })),
    // The OpenID provider's signed authorization request (oauth-provider/oauth-continue.hook.ts).
    oauth_query: Type.Optional(Type.String({ maxLength: 8192 })),
  },
  { additionalProperties: false },
)

export const LinkSocialBody = Type.Object(
  {
    provider: ProviderId,
    callbackURL: Type.Optional(Url),
    errorCallbackURL: Type.Optional(Url),
    disableRedirect: Type.Optional(Type.Boolean()),
    idToken: Type.Optional(IdTokenSchema),
    scopes: Type.Optional(Scopes),
    requestSignUp: Type.Optional(Type.Boolean()),
    loginHint: Type.Optional(Type.String({ maxLength: 512 })),
  },
  { additionalProperties: false },
)

export const AccountSelection = Type.Object(
  {
    accountId: Type.String({ minLength: 1, maxLength: 256 }),
    /** The spec's form names the provider too; the account id alone decides. */
    providerId: Type.Optional(ProviderId),
    userId: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  },
  { additionalProperties: false },
)

export const RedirectSchema = Type.Object({ url: Type.String(), redirect: Type.Boolean() })
export const SignedInSchema = Type.Object({
  redirect: Type.Boolean(),
  token: Type.String(),
  url: Type.Optional(Type.String()),
  user: UserSchema,
})
export const LinkedSchema = Type.Object({
  url: Type.String(),
  redirect: Type.Boolean(),
  status: Type.Boolean(),
})

export const AccessTokenSchema = Type.Object({
  accessToken: Type.Optional(Type.String()),
  accessTokenExpiresAt: Type.Optional(Type.String({ format: 'date-time' })),
  scopes: Type.Array(Type.String()),
  idToken: Type.Optional(Type.String()),
})
export const RefreshedSchema = Type.Object({
  accessToken: Type.Optional(Type.String()),
  refreshToken: Type.Optional(Type.String()),
  accessTokenExpiresAt: Type.Optional(Type.String({ format: 'date-time' })),
  // null when the provider never said (better-auth answers the stored value, null).
  refreshTokenExpiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  scope: Type.Optional(Type.String()),
  idToken: Type.Optional(Type.String()),
  providerId: Type.String(),
  accountId: Type.String(),
})
export const AccountInfoSchema = Type.Object({
  user: Type.Object({
    id: Type.String(),
    name: Type.String(),
    email: Type.Union([Type.String(), Type.Null()]),
    image: Type.Optional(Type.String()),
    emailVerified: Type.Boolean(),
  }),
  data: Type.Record(Type.String(), Type.Unknown()),
  account: Type.Object({ id: Type.String(), providerId: Type.String(), accountId: Type.String() }),
})

export const TOKEN_ERRORS = [
  ...ANY_ROUTE_ERRORS,
  'UNAUTHORIZED',
  'ACCOUNT_NOT_FOUND',
  'PROVIDER_NOT_SUPPORTED',
  'USER_ID_OR_SESSION_REQUIRED',
  'INVALID_SERVER_KEY',
  'SERVER_KEY_FROM_BROWSER',
] as const
