/// Signing in with a passkey, as better-auth's passkey plugin: options for `navigator.credentials.get`
/// (user verification preferred; the signed-in caller's own passkeys listed, else none so that the
/// browser offers discoverable ones), then the assertion verified by @simplewebauthn/server against
/// this browser's challenge and the stored public key. A passkey proves possession of a device-bound
/// key and (usually) the person's presence: it is a whole sign-in, with no second step, and the
/// session records it (`amr: ['passkey']`).

import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  type PublicKeyCredentialRequestOptionsJSON,
  verifyAuthenticationResponse,
} from '@simplewebauthn/server'
import { AUTH_ERRORS, errorWithStatus } from '../../domain/errors.js'
import { passkeyDecider, passkeyStream, useWasAccepted } from '../../domain/passkey/passkey.js'
import { metadataFor, type RequestOrigin } from '../../domain/shared/metadata.js'
import type { KnownPasskey } from '../../http/ports/passkey-lookup.js'
import type { CommandContext } from '../context.js'
import { type StartedSession, startSession } from '../sessions/start-session.js'
import { type ChallengeCookie, issueChallenge, spendChallenge } from './passkey-challenge.js'
import { transportsOf } from './register-passkey.js'
import { relyingPartyOf } from './relying-party.js'

/** How a passkey sign-in is named in the session (`amr`). */
export const PASSKEY_AMR = 'passkey'

export const authenticationOptions = async (
  ctx: CommandContext,
  signedInUserId: string | null,
): Promise<{ options: PublicKeyCredentialRequestOptionsJSON; cookie: ChallengeCookie }> => {
  const own = signedInUserId ? await ctx.lookups.passkeys.ofUser(signedInUserId) : []
  const options = await generateAuthenticationOptions({
    rpID: relyingPartyOf(ctx.config).id,
    userVerification: 'preferred',
    ...(own.length > 0
      ? {
          allowCredentials: own.map((passkey) => ({
            id: passkey.credential_id,
            transports: transportsOf(passkey),
          })),
        }
      : {}),
  })
  const cookie = await issueChallenge(ctx, 'authentication', options.challenge, signedInUserId)
  return { options, cookie }
}

export type Assertion = { challengeCookie: string | undefined; response: Record<string, unknown> }

export type PasskeySignIn = { session: StartedSession; userId: string }

export const signInWithPasskey = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  assertion: Assertion,
): Promise<PasskeySignIn> => {
  const { challenge } = await spendChallenge(ctx, assertion.challengeCookie, 'authentication')
  const credentialId = assertion.response.id
  const passkey =
    typeof credentialId === 'string' ? await ctx.lookups.passkeys.byCredentialId(credentialId) : undefined
  if (!passkey) throw errorWithStatus('PASSKEY_NOT_FOUND', 401)
  const verified = await verifiedAssertion(ctx, assertion.response, challenge, passkey)
  const now = ctx.clock()
  const { events } = await ctx.handle(
    passkeyDecider,
    passkeyStream(passkey.id),
    {
      type: 'use-passkey',
      counter: verified.newCounter,
      backedUp: verified.credentialBackedUp,
      now: now.toISOString(),
    },
    { metadata: metadataFor(origin, { type: 'user', userId: passkey.user_id }, now) },
  )
  // The decider recorded a suspected clone instead of a use: no session.
  if (!useWasAccepted(events)) throw AUTH_ERRORS.error('AUTHENTICATION_FAILED')
  const session = await startSession(ctx, origin, {
    userId: passkey.user_id,
    rememberMe: true,
    amr: [PASSKEY_AMR],
  })
  return { session, userId: passkey.user_id }
}

const verifiedAssertion = async (
  ctx: CommandContext,
  response: Record<string, unknown>,
  expectedChallenge: string,
  passkey: KnownPasskey,
) => {
  const rp = relyingPartyOf(ctx.config)
  const verification = await verifyAuthenticationResponse({
    response: response as unknown as AuthenticationResponseJSON,
    expectedChallenge,
    expectedOrigin: rp.origins,
    expectedRPID: rp.id,
    credential: {
      id: passkey.credential_id,
      publicKey: new Uint8Array(Buffer.from(passkey.public_key, 'base64')),
      // Zero, so that the library never refuses on the counter: the decider owns that rule, and
      // records a counter that went backwards rather than only refusing it.
      counter: 0,
      ...(transportsOf(passkey) ? { transports: transportsOf(passkey) as never } : {}),
    },
    requireUserVerification: false,
  }).catch(() => null)
  if (!verification) throw AUTH_ERRORS.error('AUTHENTICATION_FAILED')
  if (!verification.verified) throw errorWithStatus('AUTHENTICATION_FAILED', 401)
  return verification.authenticationInfo
}
