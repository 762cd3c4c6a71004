/// Adding a passkey to a signed-in account, as better-auth's passkey plugin: options for
/// `navigator.credentials.create` (attestation none, user verification preferred, the account's
/// passkeys excluded), then the authenticator's answer verified by @simplewebauthn/server against
/// this browser's challenge, the relying party id and the expected origins. Any failure of the
/// ceremony is 400 FAILED_TO_VERIFY_REGISTRATION (better-auth: 500 for the same code and message).

import {
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type RegistrationResponseJSON,
  verifyRegistrationResponse,
} from '@simplewebauthn/server'
import { AUTH_ERRORS } from '../../domain/errors.js'
import {
  type PasskeyCredential,
  passkeyClaims,
  passkeyDecider,
  passkeyStream,
} from '../../domain/passkey/passkey.js'
import { metadataFor, type RequestOrigin } from '../../domain/shared/metadata.js'
import type { KnownPasskey } from '../../http/ports/passkey-lookup.js'
import { LOWERCASE_ALPHANUMERIC, newId, randomToken } from '../../infra/crypto/tokens.js'
import { UniqueClaimConflictError } from '../../infra/event-store/event-store.js'
import type { CommandContext } from '../context.js'
import { type ChallengeCookie, issueChallenge, spendChallenge } from './passkey-challenge.js'
import { relyingPartyOf, SUPPORTED_ALGORITHMS } from './relying-party.js'

export type RegistrationAsk = {
  userId: string
  /** What the authenticator shows: the account's address (better-auth: email, else id). */
  userName: string
  authenticatorAttachment?: 'platform' | 'cross-platform'
  /** better-auth's `name` query: the user name the authenticator shows, when given. */
  name?: string
}

export const registrationOptions = async (
  ctx: CommandContext,
  ask: RegistrationAsk,
): Promise<{ options: PublicKeyCredentialCreationOptionsJSON; cookie: ChallengeCookie }> => {
  const rp = relyingPartyOf(ctx.config)
  const existing = await ctx.lookups.passkeys.ofUser(ask.userId)
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    // A fresh handle each time, as better-auth: the user's id never reaches the authenticator.
    userID: new TextEncoder().encode(randomToken(32, LOWERCASE_ALPHANUMERIC)),
    userName: ask.name || ask.userName,
    userDisplayName: ask.userName,
    attestationType: 'none',
    excludeCredentials: existing.map((passkey) => ({
      id: passkey.credential_id,
      transports: transportsOf(passkey),
    })),
    authenticatorSelection: {
      residentKey: 'preferred',
      userVerification: 'preferred',
      ...(ask.authenticatorAttachment ? { authenticatorAttachment: ask.authenticatorAttachment } : {}),
    },
    supportedAlgorithmIDs: SUPPORTED_ALGORITHMS,
  })
  const cookie = await issueChallenge(ctx, 'registration', options.challenge, ask.userId)
  return { options, cookie }
}

export const transportsOf = (passkey: KnownPasskey): string[] | undefined =>
  passkey.transports ? passkey.transports.split(',') : undefined

export type RegistrationAnswer = {
  userId: string
  challengeCookie: string | undefined
  response: Record<string, unknown>
  name: string | null
}

/** Verifies the authenticator's answer and records the passkey; answers its read-model row. */
export const verifyRegistration = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  answer: RegistrationAnswer,
): Promise<KnownPasskey> => {
  const { challenge, userId } = await spendChallenge(ctx, answer.challengeCookie, 'registration')
  if (userId !== answer.userId) throw AUTH_ERRORS.error('YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY')
  const credential = await verifiedCredential(ctx, answer.response, challenge)
  const passkeyId = newId()
  const now = ctx.clock()
  try {
    await ctx.handle(
      passkeyDecider,
      passkeyStream(passkeyId),
      {
        type: 'register-passkey',
        passkeyId,
        userId,
        name: answer.name,
        now: now.toISOString(),
        ...credential,
      },
      {
        metadata: metadataFor(origin, { type: 'user', userId }, now),
        claims: passkeyClaims,
        newStream: true,
      },
    )
  } catch (error) {
    // The authenticator is registered already (to this account or another): once is enough.
    if (error instanceof UniqueClaimConflictError) throw AUTH_ERRORS.error('PREVIOUSLY_REGISTERED')
    throw error
  }
  const row = await ctx.lookups.passkeys.byId(passkeyId)
  if (!row) throw AUTH_ERRORS.error('FAILED_TO_VERIFY_REGISTRATION')
  return row
}

const verifiedCredential = async (
  ctx: CommandContext,
  response: Record<string, unknown>,
  expectedChallenge: string,
): Promise<PasskeyCredential> => {
  const rp = relyingPartyOf(ctx.config)
  // The library throws on anything malformed or wrong (origin, rp id, challenge, signature, an
  // algorithm not offered); the answer is one code for all of them, as better-auth's.
  const verification = await verifyRegistrationResponse({
    response: response as unknown as RegistrationResponseJSON,
    expectedChallenge,
    expectedOrigin: rp.origins,
    expectedRPID: rp.id,
    requireUserVerification: false,
    supportedAlgorithmIDs: SUPPORTED_ALGORITHMS,
  }).catch(() => null)
  if (!verification?.verified) throw AUTH_ERRORS.error('FAILED_TO_VERIFY_REGISTRATION')
  const { credential, credentialDeviceType, credentialBackedUp, aaguid } = verification.registrationInfo
  const transports = (response.response as { transports?: unknown } | undefined)?.transports
  return {
    credentialId: credential.id,
    publicKey: Buffer.from(credential.publicKey).toString('base64'),
    counter: credential.counter,
    deviceType: credentialDeviceType,
    backedUp: credentialBackedUp,
    transports: Array.isArray(transports) ? transports.filter((t): t is string => typeof t === 'string') : [],
    aaguid: aaguid || null,
  }
}
